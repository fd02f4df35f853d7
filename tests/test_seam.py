"""The family seam holds: nothing outside the family folders asks which system it is, and the
screen reads the family through its interface, never a family's own modules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import session_from
from tracker.families.registry import BUILT_IN
from tracker.families.session import Session
from tracker.store.files import parse_text

ROOT = Path(__file__).resolve().parents[1] / "tracker"
#: Each built-in family's folder, from where the registry finds it (``tracker.families.NAME.family:FAMILY``).
FAMILY_DIRS = tuple(ROOT.parent.joinpath(*where.split(":")[0].split(".")[:-1]) for where in BUILT_IN.values())
ASKS = re.compile(r"""system\s*[!=]=|[!=]=\s*["'](""" + "|".join(map(re.escape, BUILT_IN)) + r""")["']""")


def outside_families() -> list[Path]:
    return [p for p in ROOT.rglob("*.py") if not any(d in p.parents for d in FAMILY_DIRS)]


def test_at_most_two_places_outside_the_families_compare_the_system_name() -> None:
    asks = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in outside_families()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if ASKS.search(line)
    ]
    assert len(asks) <= 2, asks


FAMILY_MODULES = r"tracker\.families\.(" + "|".join(d.name for d in FAMILY_DIRS) + ")"


def test_the_family_folders_are_found() -> None:
    assert [d.name for d in FAMILY_DIRS] == ["ttb", "twod20"] and all(d.is_dir() for d in FAMILY_DIRS)


def test_each_built_in_family_has_the_layers_its_contract_names() -> None:
    """pyproject's "Inside a family" contract marks every layer optional (its wildcard container matches the
    seam's own modules too, which have none): the built-in families must still have these."""
    for folder in FAMILY_DIRS:
        for layer in ("family", "present", "dispatch", "rules", "engine", "records"):
            assert (folder / f"{layer}.py").is_file() or (folder / layer / "__init__.py").is_file(), (folder, layer)


def test_the_ui_imports_no_family_module() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "ui").rglob("*.py")
        if re.search(FAMILY_MODULES, p.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_the_seam_modules_hold_no_any() -> None:
    for name in ("registry.py", "session.py", "seam.py", "rules.py", "presenter.py", "values.py", "file.py"):
        text = (ROOT / "families" / name).read_text(encoding="utf-8")
        assert not re.search(r"\bAny\b", text), name


TWOD20 = """
[encounter]
name = "Seam"
system = "2d20"
[[zones]]
name = "Pier"
[[combatants]]
name = "Kit"
side = "players"
stress = 10
zone = "Pier"
[[combatants]]
name = "Thug"
side = "enemies"
stress = 8
zone = "Pier"
"""


def twod20() -> Session:
    return Session(parse_text(TWOD20, "seam.toml"), seed=1)


def ttb() -> Session:
    return session_from(
        '[[combatants]]\nname = "Kit"\nkind = "fated"\nwounds = 6\n'
        '[[combatants]]\nname = "Thug"\nrank_value = 5\nwounds = 6\n'
    )


@pytest.mark.parametrize(
    ("make", "tabs", "foreign"),
    [
        (ttb, {"field": "Melee", "resources": "Fate Deck"}, {"move", "momentum", "threat", "roll", "pick"}),
        (twod20, {"field": "Zones", "resources": "Pools"}, {"flip", "reshuffle", "engage", "initiative"}),
    ],
)
def test_the_family_answers_for_its_screen(make: object, tabs: dict[str, str], foreign: set[str]) -> None:
    assert callable(make)
    s = make()
    assert isinstance(s, Session)
    assert dict(s.family.tab_titles) == tabs
    assert s.family.capabilities.stepped_pools <= set(s.family.verbs.verbs())
    assert bool(s.family.capabilities.stepped_pools) == ("momentum" in s.family.verbs)
    help_words = {u.split()[0] for u, _ in s.family.help_lines()}
    assert not help_words & foreign
    s.execute("start")
    view = s.presenter.view(1, None)
    assert [r.name for r in view.order.rows] and view.header.encounter
    assert view.order.columns[1] == "Name"
    assert s.rules.choices("name") == ["Kit", "Thug"]
    assert set(s.rules.choices("condition"))
