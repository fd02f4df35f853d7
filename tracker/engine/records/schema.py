"""The pydantic side of `tracker.engine.records.record`: a twin pydantic model for each record class, built on first
use, that validates a document and hands back records.

This is the only module of the rules that imports pydantic (an import-linter contract keeps it so), and only
a file that is read and not already remembered as valid brings it in: the engine, the screens and a cached
load never pay for pydantic's import and schema building (issue 12).

A twin has the record's fields with their types and constraints (record classes inside a type become their
twins), its ``extra`` setting, and its validators: a field validator and a ``before`` model validator are
called with the record class as ``cls`` (they may call its class methods), an ``after`` model validator with
the validated document converted to its record (so it may use the record's properties and methods).
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

import pydantic
from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from tracker.engine.records.record import STRICT_TYPE, Check, FieldSpec, Invalid, Record

R = TypeVar("R", bound=Record)

_twins: dict[type[Record], type[BaseModel]] = {}
_records: dict[type[BaseModel], type[Record]] = {}


def validate(cls: type[R], data: Any) -> R:
    """`data` validated by `cls`'s twin, as a `cls` record; `Invalid` with pydantic's errors when it is wrong."""
    try:
        model = twin_of(cls).model_validate(data)
    except ValidationError as exc:
        raise Invalid(exc.title, [dict(e) for e in exc.errors()], str(exc)) from None
    record = to_record(model)
    assert isinstance(record, cls)
    return record


def twin_of(cls: type[Record]) -> type[BaseModel]:
    """The pydantic model that validates documents of `cls` (built once per class)."""
    twin = _twins.get(cls)
    if twin is not None:
        return twin
    hints = get_type_hints(cls, include_extras=True)
    bound = _type_arguments(cls)
    fields: dict[str, Any] = {
        name: (_convert(hints[name], bound), _field_info(spec)) for name, spec in cls._record_fields.items()
    }
    validators = {name: _validator(cls, check) for name, check in cls._record_checks.items()}
    twin = create_model(
        cls.__name__,
        __config__=ConfigDict(extra=cls.extra),
        __validators__=validators,
        __module__=cls.__module__,
        **fields,
    )
    _twins[cls] = twin
    _records[twin] = cls
    return twin


def to_record(value: Any) -> Any:
    """A validated twin (and everything inside it) as records; other values as they are."""
    if isinstance(value, BaseModel):
        cls = _records[type(value)]
        record = cls.__new__(cls)
        values = record.__dict__
        for name, item in value.__dict__.items():
            values[name] = to_record(item)
        extra = value.__pydantic_extra__
        if extra:
            values["_extra"] = {k: to_record(v) for k, v in extra.items()}
        return record
    if isinstance(value, list):
        return [to_record(v) for v in value]
    if isinstance(value, dict):
        return {k: to_record(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(to_record(v) for v in value)
    return value


def _field_info(spec: FieldSpec) -> Any:
    if spec.default_factory is not None:
        return pydantic.Field(default_factory=spec.default_factory, **spec.constraints)
    if spec.has_default():
        return pydantic.Field(default=spec.default, **spec.constraints)
    return pydantic.Field(**spec.constraints)


def _type_arguments(cls: type) -> dict[Any, Any]:
    """What each type parameter of a generic base stands for in `cls` (``LiveState[Fighter]``: Fighter)."""
    bound: dict[Any, Any] = {}
    for klass in reversed(cls.__mro__):
        for base in getattr(klass, "__orig_bases__", ()):
            origin = get_origin(base)
            params = getattr(origin, "__parameters__", ())
            for param, arg in zip(params, get_args(base), strict=False):
                bound[param] = bound.get(arg, arg)
    return bound


def _convert(tp: Any, bound: dict[Any, Any]) -> Any:
    """A record field's type for pydantic: records become their twins, the record module's markers pydantic's."""
    if isinstance(tp, TypeVar):
        tp = bound.get(tp, Any)
    if isinstance(tp, type) and issubclass(tp, Record):
        return twin_of(tp)
    origin = get_origin(tp)
    if origin is None or origin is Literal:
        return tp
    args = get_args(tp)
    if origin is Annotated:
        base, *meta = args
        return Annotated[(_convert(base, bound), *[_metadata(m) for m in meta])]
    converted = tuple(_convert(a, bound) for a in args)
    if origin in (Union, types.UnionType):
        return Union[converted]  # noqa: UP007 - built from a tuple of types
    if converted == args:
        return tp
    return origin[converted]


def _metadata(meta: Any) -> Any:
    if isinstance(meta, FieldSpec):
        return pydantic.Field(**meta.constraints)
    if meta is STRICT_TYPE:
        return pydantic.Strict()
    return meta


def _validator(cls: type[Record], check: Check) -> Any:
    """pydantic's decorator around a record's check, calling it as the record class would."""
    func = check.func
    if check.mode == "model-after":

        def after(self: BaseModel) -> BaseModel:
            func(to_record(self))
            return self

        return pydantic.model_validator(mode="after")(after)
    if check.mode == "model-before":

        def before(_: type, data: Any) -> Any:
            return func(cls, data)

        return pydantic.model_validator(mode="before")(classmethod(before))  # type: ignore[arg-type]
    if func.__code__.co_argcount == 3:

        def with_info(_: type, value: Any, info: Any) -> Any:
            return func(cls, value, info)

        run: Any = with_info
    else:

        def plain(_: type, value: Any) -> Any:
            return func(cls, value)

        run = plain
    mode: Literal["after", "before"] = "before" if check.mode == "before" else "after"
    return pydantic.field_validator(*check.fields, mode=mode, check_fields=False)(classmethod(run))
