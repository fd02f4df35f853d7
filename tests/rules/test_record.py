"""`tracker.engine.records.record`: plain records that pydantic validates only through their twin (issue 12).

The engine relies on records behaving as the pydantic models they replaced did for what it uses: defaults
(a fresh list per record), unknown keys refused, copies, dumps with pydantic's options, equality; and a file
relies on the twin checking every type, constraint and validator the models declared.
"""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

import pytest

from tracker.engine.records.record import CheckInfo, Field, Invalid, Record, StrictInt, field_validator, model_validator


class Blade(Record):
    name: str = Field(min_length=1)
    edge: int = Field(default=1, ge=0, le=3)
    at: tuple[int, int] | None = None


class Sheet(Record):
    name: str
    kind: Literal["fated", "fatemaster"] = "fatemaster"
    rank: int | None = None
    wounds: StrictInt = 4
    blades: list[Blade] = Field(default_factory=list)
    tags: dict[str, int] = Field(default_factory=dict)

    @classmethod
    def prefix(cls) -> str:
        return cls.__name__

    @field_validator("rank")
    @classmethod
    def _rank_needs_fatemaster(cls, value: int | None, info: CheckInfo) -> int | None:
        if value is not None and info.data.get("kind") == "fated":
            raise ValueError(f"{cls.prefix()}: Fated have no rank")
        return value

    @model_validator(mode="before")
    @classmethod
    def _bare_name(cls, data: object) -> object:
        return {"name": data} if isinstance(data, str) else data

    @model_validator(mode="after")
    def _blades_named_apart(self) -> Sheet:
        assert isinstance(self, Sheet)  # the record itself, with its methods
        names = [b.name for b in self.blades]
        if len(set(names)) < len(names):
            raise ValueError("two blades share a name")
        return self


class Loose(Record):
    extra = "allow"
    known: int = 0


T = TypeVar("T")


class Holder(Record, Generic[T]):
    items: dict[str, T] = Field(default_factory=dict)


class BladeHolder(Holder[Blade]):
    pass


def test_defaults_are_fresh_per_record_and_required_fields_are_required() -> None:
    a, b = Sheet(name="A"), Sheet(name="B")
    a.blades.append(Blade(name="Knife"))
    assert b.blades == [] and a.kind == "fatemaster" and a.wounds == 4
    with pytest.raises(TypeError, match="'name' is required"):
        Sheet()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unknown field"):
        Sheet(name="A", wonds=3)  # type: ignore[call-arg]


def test_copies_dumps_and_equality_behave_as_pydantics_did() -> None:
    s = Sheet(name="A", blades=[Blade(name="Knife", at=(1, 2))], tags={"x": 1})
    shallow = s.model_copy(update={"rank": 5})
    assert shallow.rank == 5 and s.rank is None and shallow.blades is s.blades
    deep = s.model_copy(deep=True)
    assert deep == s and deep.blades is not s.blades and deep is not s
    assert s.model_dump() == {
        "name": "A",
        "kind": "fatemaster",
        "rank": None,
        "wounds": 4,
        "blades": [{"name": "Knife", "edge": 1, "at": (1, 2)}],
        "tags": {"x": 1},
    }
    assert s.model_dump(mode="json", exclude_none=True, exclude_defaults=True, exclude={"tags"}) == {
        "name": "A",
        "blades": [{"name": "Knife", "at": [1, 2]}],
    }
    saved = {"name": "A", "blades": [{"name": "Knife", "at": [1, 2]}], "tags": {"x": 1}}
    assert s.model_dump(mode="json", exclude_none=True, exclude_defaults=True) == saved  # a save's own form
    assert Loose(known=0, shade=None).model_dump(mode="json", exclude_none=True, exclude_defaults=True) == {  # type: ignore[call-arg]
        "shade": None
    }
    assert s != Sheet(name="A") and s != "A"
    assert Sheet.default_of("blades") == [] and Sheet.default_of("blades") is not Sheet.default_of("blades")


def test_a_document_validates_into_records_with_every_check_the_class_declares() -> None:
    s = Sheet.model_validate({"name": "A", "blades": [{"name": "Knife", "edge": 2}], "rank": 3})
    assert type(s) is Sheet and type(s.blades[0]) is Blade and s.blades[0].edge == 2
    assert Sheet.model_validate("Bare") == Sheet(name="Bare")  # a before validator, called on the record class
    refused = {
        "fated rank": ({"name": "A", "kind": "fated", "rank": 3}, "Sheet: Fated have no rank"),
        "unknown key": ({"name": "A", "wonds": 3}, "Extra inputs are not permitted"),
        "constraint": ({"name": "A", "blades": [{"name": "K", "edge": 9}]}, "less than or equal to 3"),
        "empty name": ({"name": "A", "blades": [{"name": ""}]}, "at least 1 character"),
        "strict int": ({"name": "A", "wounds": True}, "valid integer"),
        "literal": ({"name": "A", "kind": "hero"}, "'fated' or 'fatemaster'"),
        "after check": ({"name": "A", "blades": [{"name": "K"}, {"name": "K"}]}, "two blades share a name"),
    }
    for case, (data, message) in refused.items():
        with pytest.raises(Invalid) as caught:
            Sheet.model_validate(data)
        assert any(message in str(e["msg"]) for e in caught.value.errors()), (case, caught.value.errors())


def test_errors_say_where_they_are() -> None:
    with pytest.raises(Invalid) as caught:
        Sheet.model_validate({"name": "A", "blades": [{"name": "K"}, {"name": "L", "edge": -1}]})
    assert [tuple(e["loc"]) for e in caught.value.errors()] == [("blades", 1, "edge")]


def test_extra_keys_are_kept_where_the_record_allows_them() -> None:
    loose = Loose.model_validate({"known": 2, "colour": "red"})
    assert loose.known == 2 and loose.model_extra == {"colour": "red"}
    assert loose.model_dump() == {"known": 2, "colour": "red"}
    assert Loose(known=1, shade="dark").model_extra == {"shade": "dark"}  # type: ignore[call-arg]


def test_a_generic_base_validates_with_its_subclass_type_argument() -> None:
    held = BladeHolder.model_validate({"items": {"a": {"name": "Axe"}}})
    assert type(held.items["a"]) is Blade
    with pytest.raises(Invalid):
        BladeHolder.model_validate({"items": {"a": {"name": ""}}})
