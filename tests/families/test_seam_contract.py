"""The family seam's contract, run against each family (as harlequin runs one adapter suite per adapter).

Every test here takes a `Case`: a small encounter of one family and a few command lines it accepts. A
test asks only the seam (`RuleFamily`, `FamilyRules`, `FamilyPresenter`) and the session, never a
family's own modules, so a third family passes it by adding one `Case`: a family in a folder of its own
under ``tests/families/`` gives its case in that folder's ``contract.py`` (``CASE``), found here by the
folder, with the ``TRACKER_FAMILIES`` entry that registers it (docs/architecture/writing-a-family.md).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tests.families.case import Case
from tests.rules.twod20.scenes import combatant, header, zones
from tracker.engine.errors import Refusal
from tracker.engine.records.record import dump
from tracker.families.file import EncounterFile
from tracker.families.presenter import FamilyPresenter
from tracker.families.registry import ENVIRONMENT, family_named, family_of, systems
from tracker.families.rules import FamilyRules
from tracker.families.seam import RuleFamily
from tracker.families.session import Session
from tracker.present.view import EncounterView, PlayerView
from tracker.store.files import parse_text

#: The keys of the JSON state every family writes (`FamilyRules.state_json`).
COMMON_KEYS = {"system", "round", "active", "order", "prompt", "prompt_options", "phase", "combatants"}
#: The keys of every combatant in it.
COMBATANT_KEYS = {"name", "side", "status", "left"}
STATUSES = {"ok", "unconscious", "defeated", "dying", "dead"}


TTB = Case(
    "ttb",
    """
[encounter]
name = "Contract"
system = "ttb"
[[combatants]]
name = "Kit"
kind = "fated"
wounds = 6
[[combatants]]
name = "Thug"
rank_value = 5
wounds = 6
[[combatants]]
name = "Spy"
rank_value = 4
wounds = 4
gm_only = true
""",
    ("start",),
    ("add Thug dazed", "add Kit focused 1", "remove Thug dazed"),
    frozenset({"deck", "tied"}),
    frozenset({"wounds", "ap", "initiative", "conditions"}),
)

TWOD20 = Case(
    "2d20",
    header("Contract", profile=None, momentum=None, threat=None)
    + zones("Pier", "Street")
    + combatant("Kit", side="players", stress=10, zone="Pier")
    + combatant("Thug", side="enemies", stress=8, zone="Street")
    + combatant("Spy", side="enemies", stress=6, zone="Street", gm_only=True),
    ("start", "pick Kit"),
    ("add Thug prone", "add Kit prone", "remove Thug prone"),
    frozenset({"profile", "pools", "last_actor", "kept_by"}),
    frozenset({"stress", "harms", "zone", "conditions"}),
)


def outside_cases() -> list[Case]:
    """The cases of the families in folders of their own under ``tests/families/`` (each ``contract.py``'s ``CASE``)."""
    here = Path(__file__).resolve().parent
    folders = sorted(p.parent.name for p in here.glob("*/contract.py"))
    return [importlib.import_module(f"tests.families.{name}.contract").CASE for name in folders]


CASES = [TTB, TWOD20, *outside_cases()]


@pytest.fixture(params=CASES, ids=lambda c: c.system)
def case(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Case:
    """Each family's case, its family registered while the test runs when it lives outside the tracker."""
    found: Case = request.param
    if found.registers:
        monkeypatch.setenv(ENVIRONMENT, found.registers)
    return found


def test_every_registered_family_has_a_case() -> None:
    assert set(systems()) <= {c.system for c in CASES}


def started(case: Case) -> Session:
    s = case.session()
    for line in case.opening:
        s.execute(line)
    return s


def test_the_registry_picks_the_family_the_file_names(case: Case) -> None:
    s = case.session()
    assert isinstance(s.family, RuleFamily)
    assert s.family is family_named(case.system) is family_of(s.setup)
    assert s.family.name == case.system
    assert isinstance(s.family.validate_setup(dump(parse_text(case.text, "x"))), EncounterFile)


def test_the_rules_and_the_presentation_are_two_objects_the_second_over_the_first(case: Case) -> None:
    s = case.session()
    assert isinstance(s.rules, FamilyRules) and isinstance(s.presenter, FamilyPresenter)
    assert not isinstance(s.presenter, FamilyRules)
    assert s.presenter.rules is s.rules
    assert s.presenter is s.presenter  # one presentation per rules object


def test_start_opens_play(case: Case) -> None:
    s = case.session()
    assert s.state.phase == "setup" and s.state.round == 0
    s.execute("start")
    assert s.state.phase != "setup" and s.state.round == 1


def test_an_accepted_command_changes_the_state_and_enters_the_history(case: Case) -> None:
    s = started(case)
    before = s.rules.state_json()
    s.execute(case.accepted[0])
    assert s.rules.state_json() != before
    assert s.history.commands == [*case.opening, case.accepted[0]]


@pytest.mark.parametrize("line", ["damage Nobody 3", "add Thug no-such-condition", "frobnicate", "start"])
def test_a_refused_command_leaves_the_state_and_the_history_as_they_were(case: Case, line: str) -> None:
    s = started(case)
    state, history = dump(s.state), dump(s.history)
    with pytest.raises(Refusal):
        s.execute(line)
    assert dump(s.state) == state
    assert dump(s.history) == history


def test_the_json_state_has_the_contract_keys_and_the_family_keys(case: Case) -> None:
    s = started(case)
    data = s.rules.state_json()
    assert data.keys() >= COMMON_KEYS
    assert case.table_keys <= data.keys()
    assert data["system"] == case.system
    combatants = data["combatants"]
    assert isinstance(combatants, list)
    assert [c["name"] for c in combatants if isinstance(c, dict)] == ["Kit", "Thug", "Spy"]
    for entry in combatants:
        assert isinstance(entry, dict)
        assert COMBATANT_KEYS | case.combatant_keys <= entry.keys()
        assert entry["status"] in STATUSES


def test_the_views_build_for_every_focus(case: Case) -> None:
    s = started(case)
    shown = s.presenter
    for focus in (None, "Kit", "Thug", "unknown"):
        view = shown.view(3, focus)
        assert isinstance(view, EncounterView) and view.revision == 3
        assert view.header.encounter == "Contract" and view.header.family
        assert [row.name for row in view.order.rows] == s.rules.in_order()
        assert view.focus in ("Kit", "Thug", "Spy", None)
        shown.field(view.focus)
        shown.field_map(view.focus)
        shown.odds(view.focus)
    assert shown.resources()
    assert shown.turn()
    assert shown.summary()[0].startswith("round 1, ")


def test_the_player_view_hides_the_gm_only(case: Case) -> None:
    s = started(case)
    assert s.rules.hidden_names() == {"Spy"}
    for line in ("next", "next", "next"):
        view = s.presenter.player_view()
        assert isinstance(view, PlayerView)
        assert "Spy" not in [row.name for row in view.rows]
        assert view.active != "Spy"
        assert view.prompt is None or "Spy" not in view.prompt
        try:
            s.execute(line)
        except Refusal:
            break


def test_undo_replays_to_an_equal_state(case: Case) -> None:
    s = started(case)
    s.execute(case.accepted[0])
    expected = dump(s.state)
    expected_json = s.rules.state_json()
    for line in case.accepted[1:]:
        s.execute(line)
    for _ in case.accepted[1:]:
        s.execute("undo")
    assert dump(s.state) == expected
    assert s.rules.state_json() == expected_json
    assert s.presenter.rules is s.rules  # the presentation follows the replayed rules
    for _ in case.accepted[1:]:
        s.execute("redo")
    replayed = case.session()
    for line in (*case.opening, *case.accepted):
        replayed.execute(line)
    assert dump(s.state) == dump(replayed.state)


def test_names_resolve_by_unique_prefix_in_any_case(case: Case) -> None:
    s = started(case)
    assert s.rules.find_name("th") == "Thug"
    assert s.rules.find_name("KIT") == "Kit"
    assert s.rules.find_name("nobody") is None
    assert s.rules.choices("name") == ["Kit", "Thug", "Spy"]
    assert s.rules.combatant_names() == ["Kit", "Thug", "Spy"]
    assert s.rules.side("Kit") == "players" and s.rules.side("Thug") != "players"


def test_actions_are_offered_legal_first_each_refused_one_with_its_reason(case: Case) -> None:
    s = started(case)
    who = s.state.active
    assert who is not None
    choices = s.rules.actions_for(who)
    assert choices
    legal = [c.reason is None for c in choices]
    assert any(legal)
    assert legal == sorted(legal, reverse=True)
    assert all(c.line.startswith("spend ") for c in choices)


def test_completion_offers_the_family_words(case: Case) -> None:
    s = started(case)
    s.execute(case.accepted[0])
    assert s.rules.choices("condition")
    assert s.rules.choices("held", "Thug") == s.rules.held_conditions("Thug")
    assert s.rules.held_conditions("Thug")
    assert [v for v in s.family.verbs.verbs() if v == "start"] == ["start"]


def test_the_conditions_panel_explains_each_held_condition(case: Case) -> None:
    s = started(case)
    s.execute(case.accepted[0])
    notes = s.presenter.conditions_of("Thug")
    assert [n.key for n in notes] == s.rules.held_conditions("Thug")
    assert all(n.title and n.label for n in notes)


def test_what_lasts_is_sheet_fields(case: Case) -> None:
    s = started(case)
    carried = s.rules.lasting("Kit")
    assert carried and all(isinstance(c.key, str) for c in carried)
