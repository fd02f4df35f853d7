"""The registry (docs/architecture/writing-a-family.md): the built-in families by where they live, and the
families registered through ``TRACKER_FAMILIES``, read only when a file names a system no built-in family
has, or when every family is listed."""

from __future__ import annotations

import pytest

from tests.conftest import session_from
from tracker.engine.errors import Refusal
from tracker.families.registry import BUILT_IN, DEFAULT, ENVIRONMENT, FAMILIES, family_named, systems
from tracker.store.files import FileInvalid, parse_text


def test_the_built_in_families_are_found_where_the_registry_says() -> None:
    assert systems()[: len(BUILT_IN)] == list(BUILT_IN) == ["ttb", "2d20"]
    for name in BUILT_IN:
        assert family_named(name).name == name and name in FAMILIES
    assert family_named("nothing").name == DEFAULT and "nothing" not in FAMILIES


def test_a_built_in_familys_file_never_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken entry costs a built-in family's fight nothing: the variable is not even read for it."""
    monkeypatch.setenv(ENVIRONMENT, "no.such.module:FAMILY")
    s = session_from('[[combatants]]\nname = "Kit"\nkind = "fated"\nwounds = 6\n')
    s.execute("start")
    assert s.family.name == "ttb"


def test_a_broken_entry_is_one_line_when_the_families_are_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT, "no.such.module:FAMILY")
    with pytest.raises(Refusal, match=r"^TRACKER_FAMILIES: cannot load the rule family 'no.such.module:FAMILY'"):
        systems()
    monkeypatch.setenv(ENVIRONMENT, "tracker.families.registry:DEFAULT")
    with pytest.raises(Refusal, match="is not a rule family"):
        family_named("coin")


def test_an_unknown_system_is_one_problem_naming_the_known_ones() -> None:
    with pytest.raises(FileInvalid) as caught:
        text = '[encounter]\nname = "X"\nsystem = "dnd"\n[[combatants]]\nname = "Kit"\nkind = "fated"\nwounds = 6\n'
        parse_text(text, "x.toml")
    assert caught.value.lines() == ["x.toml:3:1: encounter.system: must be 'ttb' or '2d20'"]


def test_a_2d20_header_key_is_not_a_through_the_breach_key() -> None:
    """The header's own keys are the family's: a 2d20 profile in a Through the Breach file is an unknown key."""
    with pytest.raises(FileInvalid) as caught:
        parse_text('[encounter]\nname = "X"\nsystem = "ttb"\nprofile = "srd"\n', "x.toml")
    assert caught.value.lines() == ["x.toml:4:1: unknown key 'profile'"]
    assert (
        parse_text('[encounter]\nname = "X"\nsystem = "2d20"\nprofile = "srd"\n', "y.toml").encounter.system == "2d20"
    )
