"""The encounter file of either rule family: `validate_document` picks the model by ``system``.

The 2d20 models are imported only when a 2d20 file is read, so `tracker exec` on a TTB file starts fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from tracker.rules.model import TTBFile

if TYPE_CHECKING:
    from tracker.rules.twod20.file import TwoD20File

#: Either family's file (a string alias so the 2d20 models stay unimported at run time).
EncounterFile: TypeAlias = "TTBFile | TwoD20File"


def validate_document(data: dict[str, Any]) -> EncounterFile:
    """Validate parsed TOML as the system its ``[encounter]`` names (TTB when unreadable)."""
    header = data.get("encounter")
    system = header.get("system") if isinstance(header, dict) else None
    if system == "2d20":
        from tracker.rules.twod20.file import TwoD20File

        return TwoD20File.model_validate(data)
    return TTBFile.model_validate(data)
