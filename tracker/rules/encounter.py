"""The encounter file of either rule family: `validate_document` picks the model by ``system``.

Each family's models are imported only when a file of that system is read: `tracker exec` on a TTB file
never loads the 2d20 models (it starts fast), and a 2d20 file never loads the TTB ones. This shared layer
may import a family lazily; the families never import each other (import-linter contract).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from tracker.rules.ttb.file import TTBFile
    from tracker.rules.twod20.file import TwoD20File

#: Either family's file (a string alias so neither family's models are imported at run time).
EncounterFile: TypeAlias = "TTBFile | TwoD20File"


def validate_document(data: dict[str, Any]) -> EncounterFile:
    """Validate parsed TOML as the system its ``[encounter]`` names (TTB when unreadable)."""
    header = data.get("encounter")
    system = header.get("system") if isinstance(header, dict) else None
    if system == "2d20":
        from tracker.rules.twod20.file import TwoD20File

        return TwoD20File.model_validate(data)
    from tracker.rules.ttb.file import TTBFile

    return TTBFile.model_validate(data)
