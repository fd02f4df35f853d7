"""`tracker.engine.records.record`: records are standard dataclasses, validated by pydantic itself (a
``TypeAdapter`` of the record class) only when a file is read.

The engine relies on records behaving as the pydantic models they replaced did for what it uses: defaults
(a fresh list per record), unknown keys refused, copies, dumps with pydantic's options, equality; and a file
relies on pydantic checking every type, constraint and validator the records declare, with the error at
its key (``loc``).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Literal

import pytest

from tracker.engine.errors import Invalid
from tracker.engine.records import record
from tracker.engine.records.record import Record, copied, default_of, dump, extra_of, validate

if TYPE_CHECKING:
    from pydantic import AfterValidator, Field, StrictInt, ValidationInfo


def _no_fated_rank(value: int | None, info: ValidationInfo) -> int | None:
    if value is not None and info.data.get("kind") == "fated":
        raise ValueError("Sheet: Fated have no rank")
    return value


@dataclass(kw_only=True)
class Blade(Record):
    name: Annotated[str, Field(min_length=1)]
    edge: Annotated[int, Field(ge=0, le=3)] = 1
    at: tuple[int, int] | None = None


@dataclass(kw_only=True)
class Sheet(Record):
    name: str
    kind: Literal["fated", "fatemaster"] = "fatemaster"
    rank: Annotated[int | None, AfterValidator(_no_fated_rank)] = None
    wounds: StrictInt = 4
    blades: list[Blade] = field(default_factory=list)
    tags: dict[str, int] = field(default_factory=dict)

    @classmethod
    def read(cls, data: object) -> object:
        return {"name": data} if isinstance(data, str) else data

    def check(self) -> None:
        assert isinstance(self, Sheet)  # the record itself, with its methods
        names = [b.name for b in self.blades]
        if len(set(names)) < len(names):
            raise ValueError("two blades share a name")


@dataclass(kw_only=True)
class Loose(Record):
    __pydantic_config__ = {"extra": "allow"}
    known: int = 0


def test_defaults_are_fresh_per_record_and_required_fields_are_required() -> None:
    a, b = Sheet(name="A"), Sheet(name="B")
    a.blades.append(Blade(name="Knife"))
    assert b.blades == [] and a.kind == "fatemaster" and a.wounds == 4
    with pytest.raises(TypeError, match="'name'"):
        Sheet()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="wonds"):
        Sheet(name="A", wonds=3)  # type: ignore[call-arg]


def test_construction_does_not_validate() -> None:
    assert Blade(name="", edge=99).edge == 99  # the engine's own values are trusted as they are


def test_copies_dumps_and_equality_behave_as_pydantics_did() -> None:
    s = Sheet(name="A", blades=[Blade(name="Knife", at=(1, 2))], tags={"x": 1})
    shallow = copied(s, rank=5)
    assert shallow.rank == 5 and s.rank is None and shallow.blades is s.blades
    deep = copied(s, deep=True)
    assert deep == s and deep.blades is not s.blades and deep is not s
    assert dump(s) == {
        "name": "A",
        "kind": "fatemaster",
        "rank": None,
        "wounds": 4,
        "blades": [{"name": "Knife", "edge": 1, "at": (1, 2)}],
        "tags": {"x": 1},
    }
    assert dump(s, mode="json", exclude_none=True, exclude_defaults=True, exclude={"tags"}) == {
        "name": "A",
        "blades": [{"name": "Knife", "at": [1, 2]}],
    }
    saved = {"name": "A", "blades": [{"name": "Knife", "at": [1, 2]}], "tags": {"x": 1}}
    assert dump(s, mode="json", exclude_none=True, exclude_defaults=True) == saved == record.saved(s)
    assert s != Sheet(name="A") and s != object()
    assert default_of(Sheet, "blades") == [] and default_of(Sheet, "blades") is not default_of(Sheet, "blades")


def test_a_document_validates_into_records_with_every_check_the_class_declares() -> None:
    s = validate(Sheet, {"name": "A", "blades": [{"name": "Knife", "edge": 2}], "rank": 3})
    assert type(s) is Sheet and type(s.blades[0]) is Blade and s.blades[0].edge == 2
    assert validate(Sheet, "Bare") == Sheet(name="Bare")  # `read`, called on the record class first
    refused = {
        "fated rank": ({"name": "A", "kind": "fated", "rank": 3}, "Sheet: Fated have no rank"),
        "unknown key": ({"name": "A", "wonds": 3}, "Extra inputs are not permitted"),
        "constraint": ({"name": "A", "blades": [{"name": "K", "edge": 9}]}, "less than or equal to 3"),
        "empty name": ({"name": "A", "blades": [{"name": ""}]}, "at least 1 character"),
        "strict int": ({"name": "A", "wounds": True}, "valid integer"),
        "literal": ({"name": "A", "kind": "hero"}, "'fated' or 'fatemaster'"),
        "after check": ({"name": "A", "blades": [{"name": "K"}, {"name": "K"}]}, "two blades share a name"),
        "not a table": ({"name": "A", "blades": ["K"]}, "Input should be a valid dictionary or instance of Blade"),
    }
    for case, (data, message) in refused.items():
        with pytest.raises(Invalid) as caught:
            validate(Sheet, data)
        assert any(message in str(e["msg"]) for e in caught.value.errors()), (case, caught.value.errors())


def test_errors_keep_pydantics_loc() -> None:
    with pytest.raises(Invalid) as caught:
        validate(Sheet, {"name": "A", "blades": [{"name": "K"}, {"name": "L", "edge": -1}], "wonds": 1})
    errors = caught.value.errors()
    assert [(tuple(e["loc"]), e["type"]) for e in errors] == [
        (("blades", 1, "edge"), "greater_than_equal"),
        (("wonds",), "extra_forbidden"),
    ]
    with pytest.raises(Invalid) as caught:
        validate(Sheet, {"name": "A", "blades": [{"name": "K"}, {"name": "K"}]})
    assert [tuple(e["loc"]) for e in caught.value.errors()] == [()]  # a whole-record check: at the record


def test_extra_keys_are_kept_where_the_record_allows_them() -> None:
    loose = validate(Loose, {"known": 2, "colour": "red"})
    assert loose.known == 2 and extra_of(loose) == {"colour": "red"}
    assert dump(loose) == {"known": 2, "colour": "red"}


def test_a_memo_entry_rebuilds_the_same_records_without_pydantic() -> None:
    s = validate(Sheet, {"name": "A", "blades": [{"name": "Knife", "edge": 2, "at": [1, 2]}], "rank": 3})
    again = record.rebuild(Sheet, dump(s, mode="json"))
    assert again == s and type(again.blades[0]) is Blade and again.blades[0].at == (1, 2)
    assert record.rebuild(Loose, {"known": 2, "colour": "red"}).__dict__ == {"known": 2, "colour": "red"}


def test_importing_the_records_loads_no_pydantic() -> None:
    code = (
        "import sys, tracker.cli.main, tracker.families.ttb.records.file, tracker.families.twod20.records.file\n"
        "from tracker.store import save\n"
        "assert not [m for m in sys.modules if m.startswith('pydantic')], sorted(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- `record`: a dataclass whose repr and equality are `Record`'s ----------------------------------------


@dataclass(kw_only=True)
class _Base(Record):
    kind: str = "base"


@dataclass(kw_only=True)
class _Plain(_Base):
    name: str
    wounds: int = 0
    tags: list[str] = field(default_factory=list)
    note: str = field(default="", repr=False)
    cache: int = field(default=0, compare=False)


@record.record
class _Made(_Base):
    name: str
    wounds: int = 0
    tags: list[str] = field(default_factory=list)
    note: str = field(default="", repr=False)
    cache: int = field(default=0, compare=False)


def test_a_record_made_by_record_reprs_and_compares_as_the_dataclass_decorator_would() -> None:
    """`record.record` leaves out the dataclass's own ``__repr__`` and ``__eq__`` (compiled per class at every
    start) for `Record`'s: the same text, the same equality (fields marked ``compare=False`` or ``repr=False``
    kept out), unhashable, and never its ``@dataclass`` base's repr and equality of the base's fields only."""
    for values in ({"name": "Ann"}, {"name": "Bo", "wounds": 3, "tags": ["x"], "note": "n", "cache": 2}):
        plain, made = _Plain(**values), _Made(**values)
        assert repr(made) == repr(plain).replace("_Plain", "_Made")
        assert made == _Made(**values) and plain == _Plain(**values)
    assert _Made(name="a") != _Made(name="b")
    assert _Made(name="a", wounds=1) != _Made(name="a")
    assert _Made(name="a", cache=1) == _Made(name="a", cache=2)  # compare=False, as the dataclass has it
    assert _Made(name="a", note="x") != _Made(name="a")  # repr=False still compares
    assert _Made(name="a") != _Plain(name="a")  # another class: never equal
    with pytest.raises(TypeError):
        hash(_Made(name="a"))
    looped = _Made(name="loop")
    looped.tags.append(looped)  # type: ignore[arg-type]
    assert "..." in repr(looped)
