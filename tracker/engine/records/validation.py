"""pydantic's side of records (`tracker.engine.records.record`): a ``TypeAdapter`` per record class, built on
first use, that validates a document into records.

This is the only module of the rules that imports pydantic, and only a file that is read and not already
remembered as valid brings it in (`record.validate` imports it then): the engine, the screens and a file
read before never pay for pydantic's import and schema building.

The record modules name pydantic's markers in their annotations (``Field``, ``Strict``, ``AfterValidator``,
``BeforeValidator``) for the type checker only, so that importing them loads no pydantic; pydantic reads the
annotations, which are strings, when it builds an adapter, and finds a name the record's module lacks in
the namespace of the frame that created the adapter (``TypeAdapter``'s parent frame): `_adapter_for` has
those markers as its own parameters for that.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import pydantic
from pydantic import GetCoreSchemaHandler, TypeAdapter, ValidationError
from pydantic_core import CoreSchema, core_schema

from tracker.engine.errors import Invalid

if TYPE_CHECKING:
    from tracker.engine.records.record import Record

R = TypeVar("R", bound="Record")

_adapters: dict[type[Record], TypeAdapter[Any]] = {}


def adapter(cls: type[Record]) -> TypeAdapter[Any]:
    """The adapter that validates documents of `cls` (built once per class)."""
    found = _adapters.get(cls)
    if found is None:
        found = _adapters[cls] = _adapter_for(cls)
    return found


def _adapter_for(
    cls: type[Record],
    Field: Any = pydantic.Field,
    Strict: Any = pydantic.Strict,
    AfterValidator: Any = pydantic.AfterValidator,
    BeforeValidator: Any = pydantic.BeforeValidator,
    StrictBool: Any = pydantic.StrictBool,
    StrictInt: Any = pydantic.StrictInt,
    Annotated: Any = Annotated,
) -> TypeAdapter[Any]:
    """A new adapter of `cls`; its parameters are the namespace the records' annotations are read in."""
    return TypeAdapter(cls)


def validated(cls: type[R], data: Any) -> R:
    """`data` validated by pydantic as a `cls` record; `Invalid` with pydantic's errors when it is wrong."""
    try:
        record: R = adapter(cls).validate_python(data)
    except ValidationError as exc:
        errors = [_as_table_error(dict(e)) for e in exc.errors()]
        raise Invalid(cls.__name__, errors, str(exc).replace(exc.title, cls.__name__, 1)) from None
    return record


def _as_table_error(error: dict[str, Any]) -> dict[str, Any]:
    """pydantic's error about a dataclass as it words it about a table of a model (what files have always been
    told, and `tracker.store.files` reads): an unknown key, or a value that is not a table."""
    kind = error["type"]
    if kind == "unexpected_keyword_argument":
        return {**error, "type": "extra_forbidden", "msg": "Extra inputs are not permitted"}
    if kind == "dataclass_type":
        name = error.get("ctx", {}).get("class_name", "")
        return {**error, "type": "model_type", "msg": f"Input should be a valid dictionary or instance of {name}"}
    return error


def record_schema(cls: type[Record], source: Any, handler: GetCoreSchemaHandler, base: type[Record]) -> CoreSchema:
    """The schema of record class `cls` (`Record.__get_pydantic_core_schema__`): pydantic's own for the
    dataclass, after the class's `Record.read` and before its `Record.check` when it overrides them (`base`:
    the `Record` class itself, handed over so this module never imports the one that imports it)."""
    schema = handler(source)
    if cls.check is not base.check:
        schema = core_schema.no_info_after_validator_function(_checked, schema)
    if cls.read.__func__ is not base.read.__func__:  # type: ignore[attr-defined]
        schema = core_schema.no_info_before_validator_function(cls.read, schema)
    return schema


def _checked(record: Record) -> Record:
    record.check()
    return record
