"""The command tables (docs/reference/language.md): one per family, and every text about commands comes from it.

Issue 8: in a 2d20 encounter no help, usage or refusal text names a Through the Breach-only verb, and
the reverse; options are parsed once, by the table, and an unknown one is refused naming the known.
"""

from __future__ import annotations

import re

import pytest

from tracker.engine.errors import Refusal
from tracker.engine.language.commands import VerbTable, prefilled
from tracker.families.registry import family_named, systems


def table_for(system: str) -> VerbTable:
    """A family's command table, as the registry hands it out."""
    return family_named(system).verbs


TTB = table_for("ttb")
TWOD20 = table_for("2d20")

TTB_ONLY = set(TTB.verbs()) - set(TWOD20.verbs())
TWOD20_ONLY = set(TWOD20.verbs()) - set(TTB.verbs())
FAMILIES = [pytest.param(TTB, TWOD20_ONLY, id="ttb"), pytest.param(TWOD20, TTB_ONLY, id="2d20")]


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z][a-z-]*", text.casefold()))


def test_each_family_has_verbs_the_other_lacks() -> None:
    assert {"flip", "reshuffle", "initiative", "engage", "disengage"} <= TTB_ONLY
    assert {"move", "reach", "momentum", "threat", "pick", "keep", "roll", "challenge"} <= TWOD20_ONLY


@pytest.mark.parametrize(("table", "foreign"), FAMILIES)
def test_help_and_usage_name_only_the_familys_own_verbs(table: VerbTable, foreign: set[str]) -> None:
    for spec in table:
        assert spec.usage.split()[0] == spec.verb
        assert not words(spec.usage) & foreign, spec.usage
        # "initiative" is also a plain rules word in 2d20 ("keep the initiative"), not the TTB command.
        assert not words(spec.help) & (foreign - {"initiative"}), spec.help
        assert spec.family in ("both", *systems())


@pytest.mark.parametrize(("table", "foreign"), FAMILIES)
def test_unknown_verb_lists_only_the_familys_verbs(table: VerbTable, foreign: set[str]) -> None:
    for verb in sorted(foreign):
        with pytest.raises(Refusal) as info:
            table.parse(f"{verb} Kit")
        message = str(info.value)
        assert message.startswith(f"unknown command '{verb}' in a {table.family_title} encounter")
        listed = message.split("(commands: ", 1)[1]
        assert not words(listed) & foreign, message


def test_wrong_2d20_damage_option_answers_with_the_2d20_options() -> None:
    with pytest.raises(Refusal, match=r"unknown damage option 'margin' \(it knows icons=, track="):
        TWOD20.parse("damage Thug 5 margin=2")
    with pytest.raises(Refusal, match=r"^usage: damage NAME N \[icons=K\]"):
        TWOD20.parse("damage Thug 5 weak")  # a TTB severity is no 2d20 effect: the 2d20 usage line


def test_wrong_ttb_damage_option_answers_with_the_ttb_options() -> None:
    with pytest.raises(Refusal, match=r"unknown damage option 'icons' \(it knows margin=, mod=, card=, by=, blast=\)"):
        TTB.parse("damage Thug 5 icons=2")
    with pytest.raises(Refusal, match=r"^usage: damage NAME N \[no-armor\]"):
        TTB.parse("damage Thug 5 stun")  # a 2d20 effect is no TTB flag


def test_roll_and_challenge_options_are_parsed_by_the_table() -> None:
    cmd = TWOD20.parse("roll Kit 11 2 bought=1 faces=3,17,5 Focus=2")
    assert cmd.args == ("Kit", "11", "2")
    assert cmd.options == {"bought": "1", "faces": "3,17,5", "focus": "2"}
    assert TWOD20.parse("challenge 3 faces=1,2,6").options == {"faces": "1,2,6"}
    with pytest.raises(Refusal, match=r"unknown roll option 'speed' \(it knows bought=, focus=, faces="):
        TWOD20.parse("roll Kit 11 2 speed=3")
    with pytest.raises(Refusal, match=r"^usage: challenge N"):
        TWOD20.parse("challenge 3 4")


def test_flags_and_options_of_damage() -> None:
    cmd = TWOD20.parse("damage 'Cult Enforcer' 6 icons=2 piercing=1 vicious stun no_armor")
    assert cmd.args == ("Cult Enforcer", "6")
    assert cmd.options == {"icons": "2", "piercing": "1"}
    assert cmd.flags == {"vicious", "stun", "no-armor"}
    ttb = TTB.parse("damage thug 2/3/4 margin=6 no-armor")
    assert ttb.options == {"margin": "6"} and ttb.flags == {"no-armor"}


def test_verb_prefixes_resolve_within_the_family() -> None:
    assert TTB.parse("fl 2").verb == "flip"
    assert TWOD20.parse("mom +1").verb == "momentum"
    with pytest.raises(Refusal, match="ambiguous"):
        TWOD20.parse("re Kit")  # remove, reach, revive, redo


def test_quotes_and_empty_lines_are_one_line_refusals() -> None:
    with pytest.raises(Refusal, match="cannot read"):
        TTB.parse("add 'Guild Thug burning")
    with pytest.raises(Refusal, match="empty command"):
        TTB.parse("   ")


def test_completion_kinds_come_from_the_table() -> None:
    spend = TTB.get("spend")
    assert spend is not None
    assert spend.kind_at(1) == "name" and spend.kind_at(2) == "action" and spend.kind_at(5) == "word"
    move = TWOD20.get("move")
    assert move is not None and move.kind_at(2) == "zone" and move.kind_at(3) is None
    assert TTB.get("move") is None


# --- text a file cannot keep --------------------------------------------------------------


@pytest.mark.parametrize("system", systems())
def test_a_line_with_bytes_that_are_not_utf8_is_refused(system: str) -> None:
    """stdin decodes such bytes as lone surrogates; kept in the history they failed the save (a traceback)."""
    with pytest.raises(Refusal, match="bytes that are not UTF-8 text"):
        table_for(system).parse("start \udcff")


@pytest.mark.parametrize("system", systems())
def test_a_command_is_at_most_a_thousand_characters(system: str) -> None:
    table = table_for(system)
    table.parse("undo " + " " * 990)
    with pytest.raises(Refusal, match="a command is at most 1000 characters \\(this one has 1001\\)"):
        table.parse("undo" + " " * 997)


def test_ttb_numbers_in_arguments_are_ascii_and_bounded() -> None:
    """ "²" passed `str.isdigit` and then failed `int` (a ValueError); a 5,000-digit card value likewise."""
    from tracker.families.ttb.fate.cards import parse_card

    for card in ("²", "9" * 5000, "099R"):
        with pytest.raises(Refusal, match="is not a card"):
            parse_card(card)


def test_a_key_prefill_names_the_actor_in_the_verbs_actor_option() -> None:
    """The `d` key's line: ``damage TARGET by=ACTOR`` (TTB) or ``from=ACTOR`` (2d20) when someone acts and
    it is not the target; other verbs, no actor, or the actor as target: the target alone."""
    ttb, d20 = table_for("ttb"), table_for("2d20")
    assert (
        prefilled(ttb.get("damage"), "damage", "Guild Thug", "Sofia Ramos") == "damage 'Guild Thug' by='Sofia Ramos' "
    )
    assert prefilled(d20.get("damage"), "damage", "Cultist", "Ada") == "damage Cultist from=Ada "
    assert prefilled(ttb.get("damage"), "damage", "Sofia", "Sofia") == "damage Sofia "
    assert prefilled(ttb.get("damage"), "damage", "Thug", None) == "damage Thug "
    assert prefilled(ttb.get("heal"), "heal", "Thug", "Sofia") == "heal Thug "
    assert prefilled(ttb.get("damage"), "damage", None, None) == "damage "
