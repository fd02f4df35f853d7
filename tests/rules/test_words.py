"""The order table's condition tags (`tracker.present.words.condition_tags`), worked out once per set of conditions.

The GM screen asks for every combatant's tags after every command (500 combatants); the tags
are kept by the conditions with each value's type, so what the table writes never depends on what was
asked before.
"""

from __future__ import annotations

from tracker.present.view import ConditionTag
from tracker.present.words import condition_tags

SHORT = {"burning": "Brn", "dazed": "Dz"}


def test_the_same_conditions_get_the_same_tags_object() -> None:
    first = condition_tags({"burning": 2, "dazed": True}, SHORT)
    again = condition_tags({"burning": 2, "dazed": True}, SHORT)
    assert again is first
    assert first == (ConditionTag("burning 2", "Brn2", "Brn", "burning"), ConditionTag("dazed", "Dz", "Dz", "dazed"))


def test_a_flag_and_a_value_of_one_are_different_tags() -> None:
    """``True == 1`` in Python; ``dazed`` and ``dazed 1`` are not the same tag."""
    flag = condition_tags({"dazed": True}, SHORT)
    one = condition_tags({"dazed": 1}, SHORT)
    assert [t.full for t in flag] == ["dazed"]
    assert [t.full for t in one] == ["dazed 1"]
    assert [t.full for t in condition_tags({"dazed": True}, SHORT)] == ["dazed"]


def test_the_short_table_and_the_shown_texts_are_part_of_the_key() -> None:
    other = {"burning": "Fire"}
    assert condition_tags({"burning": 1}, SHORT)[0].short == "Brn1"
    assert condition_tags({"burning": 1}, other)[0].short == "Fire1"
    shown = {"burning": ("burning 1 (2 ticks)", "Brn1/2", "burning with ticks")}
    assert condition_tags({"burning": 1}, SHORT, shown)[0].full == "burning 1 (2 ticks)"
    assert condition_tags({"burning": 1}, SHORT, {})[0].full == "burning 1"


def test_order_of_the_conditions_is_kept() -> None:
    assert [t.stem for t in condition_tags({"dazed": True, "burning": 1}, SHORT)] == ["Dz", "Brn"]
    assert [t.stem for t in condition_tags({"burning": 1, "dazed": True}, SHORT)] == ["Brn", "Dz"]


def test_a_value_that_cannot_be_a_key_is_still_tagged() -> None:
    assert condition_tags({"marks": ["a", "b"]}, SHORT)[0].full == "marks ['a', 'b']"
