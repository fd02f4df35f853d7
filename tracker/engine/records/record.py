"""Records: the encounter file's tables and the live state as plain Python objects, validated by pydantic
only when they are read from a file.

A record is a standard-library dataclass (`record`, or ``@dataclass(kw_only=True)``, on a subclass of
`Record`): the engine builds and mutates records all the time, and a dataclass costs nothing to build and
checks nothing it is handed. `record` makes the dataclass without its own ``__repr__`` and ``__eq__``: the
`Record` base class has them once for every record, where the dataclass decorator would compile two
functions per class at every start (two thirds of what making a record class costs, a tenth of a
`tracker exec`) that most runs never call. Its annotations carry pydantic's own markers
(``Annotated[int, Field(ge=0)]``, ``Annotated[str, AfterValidator(check)]``, ``Strict()``) for the one
moment a record is read from a file:
`validate` hands the document to a ``pydantic.TypeAdapter`` of the record class, built on first use by
`tracker.engine.records.validation`, the only module of the rules that imports pydantic. The annotations are
strings (``from __future__ import annotations``) that name those markers for the type checker only, so
importing a record module loads no pydantic: the start of the tracker, and a file read before, never pay
for it.

What a record checks as a whole (pydantic's model validators) is its `Record.check` method, and how it reads
a document of another shape (the log's compact string) its `Record.read` class method: pydantic calls both
around the dataclass's own validation (`Record.__get_pydantic_core_schema__`, pydantic's hook for a type's
schema).

Beside validation this module gives what the rest of the code needs of records: `dump` (pydantic's
``model_dump`` options, byte for byte what saves have always written), `copied`, `default_of`, `extra_of`,
`fingerprint` and `SavedMembers` (what changed since the last save or frame), and the memo of validated
files (`text_key`, `recall`, `keep`, `rebuild`, `remember`), which keeps JSON data, never objects.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping
from reprlib import recursive_repr
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Protocol, TypeVar, dataclass_transform

try:  # the BLAKE2 builtin alone: `hashlib` also loads OpenSSL's, ~3 ms of every start
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema

R = TypeVar("R", bound="Record")
T = TypeVar("T")


@dataclass_transform(kw_only_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[T]) -> type[T]:
    """``@dataclass(kw_only=True)`` for a `Record` subclass, without the ``__repr__`` and ``__eq__`` the decorator
    would compile for it: the class takes `Record`'s, which do the same from its fields. They are set on the
    class itself (unless it writes its own): a base made by ``@dataclass`` has a repr and an equality of its
    own fields only, which the class would otherwise inherit."""
    made = dataclasses.dataclass(cls, kw_only=True, repr=False, eq=False)
    own = vars(made)
    if "__eq__" not in own:
        made.__eq__ = Record.__eq__  # type: ignore[method-assign,assignment]
        made.__hash__ = None  # type: ignore[method-assign,assignment]
    if "__repr__" not in own:
        made.__repr__ = Record.__repr__  # type: ignore[method-assign]
    return made


def _fields_of(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The names of `cls`'s fields that its repr shows, that its equality compares, and all of them, in their
    order (once a class)."""
    found = _shown_compared.get(cls)
    if found is None:
        fields = dataclasses.fields(cls)
        found = _shown_compared[cls] = (
            tuple(f.name for f in fields if f.repr),
            tuple(f.name for f in fields if f.compare),
            tuple(f.name for f in fields),
        )
    return found


_shown_compared: dict[type, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}


class Record:
    """Base of every file and state record; subclasses are ``@dataclass(kw_only=True)`` classes.

    ``__pydantic_config__`` is pydantic's configuration of a standard dataclass: unknown keys in a file are
    errors (``extra = "forbid"``), or kept as attributes beside the fields (``"allow"``, see `extra_of`).
    Construction does not validate: the engine builds records from values it already trusts.
    """

    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}
    #: Key the memo by the document's content whatever the order of its keys: set on the live tables, which
    #: the tracker writes itself and remembers as it saves them (`remember`), while TOML reads them back
    #: with its tables after its plain keys.
    canonical_key: ClassVar[bool] = False

    @classmethod
    def read(cls, data: Any) -> Any:
        """The document as this record's fields, before pydantic validates them (pydantic's ``before`` model
        validator): a record saved in another shape (the log's compact string) reads it here."""
        return data

    def check(self) -> None:
        """Raise when the validated record is wrong as a whole (pydantic's ``after`` model validator): a
        ``ValueError``, or `tracker.engine.records.model.located` problems at their keys."""

    def as_data(self) -> Any:
        """The record as plain data when it is not the table of its fields (`dump`): None for the table."""
        return None

    def __eq__(self, other: object) -> bool:
        """A dataclass's equality: the same class, and each compared field equal (the same object, or ``==``)."""
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine, theirs = vars(self), vars(other)
        return all(mine[n] is theirs[n] or mine[n] == theirs[n] for n in _fields_of(self.__class__)[1])

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass with equality is

    @recursive_repr()
    def __repr__(self) -> str:
        """A dataclass's repr: ``Class(field=value, …)``, its shown fields in their order."""
        values = vars(self)
        shown = ", ".join(f"{n}={values[n]!r}" for n in _fields_of(self.__class__)[0])
        return f"{self.__class__.__qualname__}({shown})"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        """pydantic's hook for a type's schema: the dataclass's own, with `read` before it and `check` after."""
        from tracker.engine.records.validation import record_schema

        return record_schema(cls, source, handler, Record)


def validate(cls: type[R], data: Any, *, memo: bool = True) -> R:
    """`data` (a parsed TOML table) validated into a `cls` record by pydantic (`Invalid` when wrong), unless
    the installed memo holds what this very document validated to (rebuilt without pydantic). `memo=False`
    for documents that are never read twice (what the table's socket brings): none is kept or looked up."""
    key = _memo_key(cls, data) if _memo is not None and memo else None
    found = thawed(recall(key), cls)
    if found is not None:
        return found
    from tracker.engine.records.validation import validated

    record = validated(cls, data)
    keep_record(key, record)
    return record


def prepare(*classes: type[Record]) -> None:
    """Build the validators of `classes` now (pydantic's import and schemas): a viewer does it after its first
    frame, so the first change it follows is not the one that waits for them."""
    from tracker.engine.records.validation import adapter

    for cls in classes:
        adapter(cls)


# --- what the code needs of a record -------------------------------------------------------------------


def _plan(cls: type) -> tuple[tuple[str, bool, Any], ...]:
    """(name, has a default, the default to compare with) per field, worked out once per class: a default
    factory is called once here, its value only ever compared, never handed out. Fields whose name starts
    with ``_`` are the record's own bookkeeping, never data."""
    plan = _plans.get(cls)
    if plan is None:
        rows = []
        for f in dataclasses.fields(cls):
            if f.name.startswith("_"):
                continue
            if f.default_factory is not dataclasses.MISSING:
                rows.append((f.name, True, f.default_factory()))
            else:
                rows.append((f.name, f.default is not dataclasses.MISSING, f.default))
        plan = _plans[cls] = tuple(rows)
    return plan


_plans: dict[type, tuple[tuple[str, bool, Any], ...]] = {}


def default_of(cls: type[Record], name: str) -> Any:
    """A fresh copy of the field's declared default (a new list for a list field)."""
    f = cls.__dataclass_fields__[name]  # type: ignore[attr-defined]
    return f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default


def extra_of(record: Record) -> dict[str, Any]:
    """Keys the file gave beyond the fields (a record whose ``extra`` is ``allow``), in the file's order."""
    fields = record.__dataclass_fields__  # type: ignore[attr-defined]
    return {k: v for k, v in vars(record).items() if k not in fields}


def copied(record: R, *, deep: bool = False, **changes: Any) -> R:
    """A copy of `record` (shallow unless `deep`) with `changes` made: every attribute is kept, the record's
    own bookkeeping too, which ``dataclasses.replace`` would set back to its default."""
    new = copy.deepcopy(record) if deep else copy.copy(record)
    for name, value in changes.items():
        setattr(new, name, value)
    return new


#: A save's dump options: JSON, no None, no default.
_SAVED = (True, True, True)

#: Values that dump as themselves (checked by exact type: a record or a container is never one of them).
_SCALARS = frozenset({str, int, bool, float, type(None)})


def dump(
    value: Any,
    *,
    mode: Literal["python", "json"] = "python",
    exclude_none: bool = False,
    exclude_defaults: bool = False,
    exclude: Iterable[str] | None = None,
) -> Any:
    """A record as plain data, as pydantic's ``model_dump`` gives it with these options: a dict of its fields
    in their order (nested records too; ``json`` turns tuples into lists), then any extra keys; or the
    record's own `Record.as_data` form (the log's compact string)."""
    return _dump(value, (mode == "json", exclude_none, exclude_defaults), frozenset(exclude or ()))


def saved(value: Record) -> Any:
    """`value` as a save writes it: ``dump(mode="json", exclude_none=True, exclude_defaults=True)``."""
    return _dump(value, _SAVED, frozenset())


def _dump(record: Any, options: tuple[bool, bool, bool], exclude: frozenset[str]) -> Any:
    own = record.as_data()
    if own is not None:
        return own
    _, exclude_none, exclude_defaults = options
    out: dict[str, Any] = {}
    values = vars(record)
    for name, has_default, default in _plan(type(record)):
        if name in exclude:
            continue
        value = values[name]
        if value is None and exclude_none:
            continue
        if exclude_defaults and has_default and value == default:
            continue
        out[name] = value if type(value) in _SCALARS else _plain(value, options)
    if record.__pydantic_config__.get("extra") == "allow":
        for k, v in extra_of(record).items():
            if k not in exclude:
                out[k] = _plain(v, options)
    return out


def _plain(value: Any, options: tuple[bool, bool, bool]) -> Any:
    """A field's value as plain data (see `dump`)."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, Record):
        return _dump(value, options, frozenset())
    if isinstance(value, list):
        return [v if type(v) in _SCALARS else _plain(v, options) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else _plain(v, options) for k, v in value.items()}
    if isinstance(value, tuple):
        items = [_plain(v, options) for v in value]
        return items if options[0] else tuple(items)
    return value


def saved_form(record: Record, kept: Mapping[str, SavedMembers]) -> dict[str, Any]:
    """`saved`, the same dict in the same order, where each field named in `kept` (a table of records) is
    dumped by its keeper (`SavedMembers`): only the members that changed since the last save are dumped again."""
    rest = _dump(record, _SAVED, frozenset(kept))
    values, out = vars(record), {}
    for name, has_default, default in _plan(type(record)):
        if name in kept:
            value = values[name]
            if not (value is None or (has_default and value == default)):
                out[name] = kept[name].dump(value)
        elif name in rest:
            out[name] = rest[name]
    out.update({k: v for k, v in rest.items() if k not in out})  # the extra keys, last as in `dump`
    return out


# --- what changed ----------------------------------------------------------------------------------------


def _fingerprint_part(value: Any) -> Any:
    """A record inside a record, for `fingerprint`: its class's name and its attributes' values."""
    if isinstance(value, Record):
        return [type(value).__qualname__, *vars(value).values()]
    raise TypeError(f"{type(value).__name__} is not data")


_encode: Callable[[Any], str] | None = None


def fingerprint(record: Record) -> str | None:
    """Text that changes whenever one of `record`'s values does, types included (None: a value is neither
    plain data nor a record; such a record is never taken as unchanged).

    Why: a `next` among hundreds of combatants changes two of them, and both the save (`SavedMembers`) and
    the order table (`tracker.present.view.RowKeeper`) ask after every command which of them changed. The
    record's own ``==`` cannot say: ``True == 1`` and ``1 == 1.0`` in Python, while the file writes ``true``,
    ``1`` and ``1.0``. The record as JSON text (its class's name, then its values in its fields' order,
    records inside it likewise) tells them apart, keeps the order of a table's keys, and is written by the
    JSON encoder's C code in a few microseconds a combatant."""
    global _encode
    if _encode is None:
        _encode = _json_writer(_fingerprint_part)
    try:
        return _encode([type(record).__qualname__, *vars(record).values()])
    except (TypeError, ValueError):
        return None


class SavedMembers:
    """The saved forms (`saved`) of a table of records, such as ``[state.fighters]``, each made again only
    when its record changed (`fingerprint`).

    A member left as it was is handed back as the very dict the last save made, so the TOML writer
    (`tracker.store.toml_cache`) can tell at a glance (``is``) that its text stands as well. Those dicts are
    shared from one save to the next: nothing may change them."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[str, Any]] = {}

    def dump(self, members: Mapping[str, Record]) -> dict[str, Any]:
        kept, out = self._kept, {}
        for key, member in members.items():
            mark = fingerprint(member)
            before = kept.get(key)
            if before is not None and before[0] == mark:
                out[key] = before[1]
                continue
            made = out[key] = _dump(member, _SAVED, frozenset())
            if mark is not None:
                kept[key] = (mark, made)
        return out


# --- the memo of validated files ----------------------------------------------------------------------------


class ValidationMemo(Protocol):
    """Remembers validated documents (their JSON text) by a key; the store gives one backed by a cache folder."""

    def get(self, key: str) -> str | None: ...

    def put(self, key: str, value: str) -> None: ...


_memo: ValidationMemo | None = None


def use_memo(memo: ValidationMemo | None) -> None:
    """Install (or remove) the memo `validate` and the readers of whole files consult."""
    global _memo
    _memo = memo


#: Bumped when what a memo entry holds changes shape (3: records as `frozen` writes them).
MEMO_FORMAT = 3


def text_key(kind: str, text: str, context: str = "") -> str | None:
    """The memo's key for what a whole file's `text` reads as (None: no memo installed), so a file read
    again is neither parsed nor validated again: `kind` names the reading (an encounter, a theme) and
    `context` anything else it depends on besides the code (the folder an encounter's paths start from).

    The file's own bytes are the key, not the data they parse to: TOML parsing is a pure function of them,
    and skipping it is the point. Only what a reading that succeeded gave is kept (`keep`), so a file with
    problems is read, and its problems positioned, every time.
    """
    if _memo is None:
        return None
    digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20)
    digest.update(repr((MEMO_FORMAT, "text", kind, context, versions())).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def recall(key: str | None) -> Any:
    """The data the memo keeps under `key` (parsed from its JSON), or None: no memo, no entry, or one that does
    not parse. The caller checks what it got has the shape it kept."""
    if key is None or _memo is None:
        return None
    held = _memo.get(key)
    if held is None:
        return None
    try:
        return _json_reader()(held)
    except (ValueError, RecursionError):
        return None


def keep(key: str | None, data: Any) -> None:
    """Put `data` (plain data, written as JSON now: later changes to it are not kept) in the memo under `key`
    (None: skipped; so is data JSON cannot write, such as a TOML date)."""
    if key is None or _memo is None:
        return
    try:
        text = _json_writer()(data)
    except (TypeError, ValueError, RecursionError):
        return
    _memo.put(key, text)


def keep_record(key: str | None, record: Record) -> None:
    """`keep` the record as `frozen` writes it (None: skipped; so is a record holding what JSON cannot write,
    such as a TOML date among a sheet's extra keys: it is validated again each time)."""
    if key is None or _memo is None:
        return
    try:
        data = frozen(record)
    except (TypeError, RecursionError):
        return
    keep(key, data)


def remember(record: Record, data: Any) -> None:
    """Tell the memo that `data` validates to `record`: the store calls it with the live tables it has just
    written, so a file reopened mid-fight is not validated again. Sound because a record dumps to data that
    validates back to an equal record (the save/load property tests hold it)."""
    keep_record(_memo_key(type(record), data) if _memo is not None else None, record)


def _memo_key(cls: type[Record], data: Any) -> str | None:
    """What identifies one validation: the record class, the installed versions, and the document (None: not
    memoised)."""
    try:
        document = _json_writer(sort_keys=cls.canonical_key)(data)
    except (ValueError, TypeError, RecursionError):  # a value JSON cannot write (a TOML date): validate every time
        return None
    digest = blake2b(document.encode("utf-8", "surrogatepass"), digest_size=20)
    digest.update(f"{MEMO_FORMAT}|{cls.__module__}.{cls.__qualname__}|{versions()}".encode())
    return digest.hexdigest()


_versions: str | None = None


def versions() -> str:
    """The installed versions a validation depends on: the tracker's, pydantic's and pydantic-core's and
    Python's (its `tomllib` parses the files). Worked out once per process."""
    global _versions
    if _versions is None:
        import sys

        names = ("tracker", "pydantic", "pydantic_core")
        found = installed_versions(names)
        _versions = ";".join([*(f"{name}={found[name]}" for name in names), sys.version])
    return _versions


def installed_version(name: str) -> str:
    """The version of distribution `name` installed where imports find it (`installed_versions`)."""
    return installed_versions((name,))[name]


def installed_versions(names: Iterable[str]) -> dict[str, str]:
    """The version of each distribution in `names` installed where imports find it, as
    `importlib.metadata.version` gives it ("?" when it is not installed).

    Read off the name of its metadata folder (``pydantic_core-2.33.2.dist-info``: the version is part of the
    name the packaging standards give that folder), first on `sys.path` as an import would, every name in
    one walk of the folders that stops once all are found (a walk per name was some 5 % of a `tracker exec`);
    only where the name does not say is `importlib.metadata` asked, whose import alone costs a start some 20 ms."""
    import os
    import sys

    prefixes = {name.replace("-", "_").lower() + "-": name for name in names}
    found: dict[str, str] = {}
    for folder in sys.path:
        if len(found) == len(prefixes):
            break
        try:
            with os.scandir(folder or ".") as entries:
                for entry in entries:
                    seen = entry.name
                    if not seen.endswith(".dist-info"):
                        continue
                    low = seen.lower()
                    for prefix, name in prefixes.items():
                        if name not in found and low.startswith(prefix):
                            found[name] = seen[len(prefix) : -len(".dist-info")]
        except OSError:
            continue
    for name in prefixes.values():
        if name not in found:
            from importlib.metadata import PackageNotFoundError, version

            try:
                found[name] = version(name)
            except PackageNotFoundError:
                found[name] = "?"
    return found


# --- records again from a memo's data ------------------------------------------------------------------

#: The keys `frozen` marks its own tables with: a record (its class, then its attributes), a tuple, and a
#: plain table that holds one of these keys itself (so data can never pass for a record).
_RECORD, _ATTRIBUTES, _TUPLE, _TABLE = "@record", "@attributes", "@tuple", "@table"
_MARKS = frozenset({_RECORD, _TUPLE, _TABLE})


def frozen(value: Any) -> Any:
    """`value` as JSON data the memo keeps and `thawed` turns back into the very same value: a record is
    its class's name with every attribute it holds (its bookkeeping too), a tuple is marked as one.

    Why not `dump`: a record again from dumped data must read each field's type from its annotations
    (`rebuild`), and evaluating the annotations of some thirty records was a tenth of a `tracker exec` on a
    file read before. TypeError for what JSON cannot hold as it is (a table with keys other than text):
    such a value is not kept, and is validated again each time."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if isinstance(value, Record):
        attributes = {k: frozen(v) for k, v in vars(value).items()}
        return {_RECORD: f"{kind.__module__}:{kind.__qualname__}", _ATTRIBUTES: attributes}
    if kind is list:
        return [frozen(v) for v in value]
    if kind is tuple:
        return {_TUPLE: [frozen(v) for v in value]}
    if kind is dict:
        if not all(type(k) is str for k in value):
            raise TypeError("a table whose keys are not all text")
        table = {k: frozen(v) for k, v in value.items()}
        return {_TABLE: table} if _MARKS.intersection(value) else table
    raise TypeError(f"{kind.__name__} is not kept")


def thawed(data: Any, cls: type[R]) -> R | None:
    """The `cls` record that `frozen` data stands for, built without pydantic or annotations (None when the
    data is not one: no entry, an entry of another shape, or a class that is not a record the tracker
    has loaded; nothing is imported for an entry)."""
    if data is None:
        return None
    try:
        found = _thaw(data)
    except (TypeError, ValueError, KeyError, AttributeError):
        return None
    return found if type(found) is cls else None


def _thaw(data: Any) -> Any:
    kind = type(data)
    if kind is list:
        return [_thaw(v) for v in data]
    if kind is not dict:
        return data
    if _RECORD in data:
        cls = _record_class(data[_RECORD])
        attributes = data[_ATTRIBUTES]
        if not all(name in attributes for name in _fields_of(cls)[2]):
            # Kept before the record gained a field (same version numbers, newer code): a miss, validated
            # again, never a record without the field.
            raise ValueError(f"{cls.__qualname__}: an entry from before a field")
        made = object.__new__(cls)
        made.__dict__.update({k: _thaw(v) for k, v in attributes.items()})
        return made
    if _TUPLE in data:
        return tuple(_thaw(v) for v in data[_TUPLE])
    if _TABLE in data:
        data = data[_TABLE]
    return {k: _thaw(v) for k, v in data.items()}


def _record_class(name: str) -> type[Record]:
    """The record class a `frozen` entry names: one of the tracker's, already imported (ValueError otherwise:
    an entry never makes anything be imported)."""
    import sys

    module, _, qualname = name.partition(":")
    loaded = sys.modules.get(module) if module.startswith("tracker.") else None
    found: Any = loaded
    for part in qualname.split("."):
        found = getattr(found, part, None)
    if not (isinstance(found, type) and issubclass(found, Record)):
        raise ValueError(name)
    return found


def rebuild(cls: type[R], data: Any) -> R:
    """The `cls` record that JSON `data` (a `dump` in ``json`` mode of one) stands for, built without pydantic:
    the data was validated when it was kept, so only its shape is restored (records, tuples) by the types
    of the fields, read once per class."""
    return _structure(cls, data)  # type: ignore[no-any-return]


def _hints(cls: type) -> dict[str, Any]:
    found = _hint_cache.get(cls)
    if found is None:
        from typing import get_type_hints

        found = _hint_cache[cls] = get_type_hints(cls, localns=_SHAPE_NAMES)
    return found


class _Marker:
    """Stands for pydantic's markers in an annotation while `rebuild` reads it (only the types matter there)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass


#: The names the records' annotations take from pydantic, for reading them without it.
_SHAPE_NAMES: dict[str, Any] = {
    **{name: _Marker for name in ("Field", "Strict", "AfterValidator", "BeforeValidator")},
    "StrictBool": bool,
    "StrictInt": int,
    "Annotated": Annotated,
}
_hint_cache: dict[type, dict[str, Any]] = {}


def _structure(tp: Any, data: Any) -> Any:
    import types
    import typing

    if data is None:
        return None
    if isinstance(tp, type):
        if issubclass(tp, Record):
            data = tp.read(data)
            hints = _hints(tp)
            fields = tp.__dataclass_fields__  # type: ignore[attr-defined]
            values = {k: _structure(hints[k], v) for k, v in data.items() if k in fields and fields[k].init}
            made = tp(**values)
            for k, v in data.items():
                if k not in fields:
                    setattr(made, k, v)
            return made
        if tp is tuple:
            return tuple(data)
        if tp is int and type(data) is str:  # a number a record's `read` took from text (the log's round)
            return int(data)
        return data
    origin = typing.get_origin(tp)
    if origin is None:
        return data
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        return _structure(args[0], data)
    if origin is list:
        item = args[0] if args else Any
        return [_structure(item, v) for v in data]
    if origin is dict:
        item = args[1] if len(args) == 2 else Any
        return {k: _structure(item, v) for k, v in data.items()}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_structure(args[0], v) for v in data)
        return tuple(_structure(a, v) for a, v in zip(args, data, strict=True))
    if origin in (typing.Union, types.UnionType):
        for arg in args:
            base = typing.get_args(arg)[0] if typing.get_origin(arg) is typing.Annotated else arg
            shape = typing.get_origin(base) or base
            if isinstance(data, dict) and isinstance(shape, type) and (issubclass(shape, Record) or shape is dict):
                return _structure(arg, data)
            if isinstance(data, list) and shape in (list, tuple):
                return _structure(arg, data)
        return data
    return data


def _refuse(value: object) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON data")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON data")


@functools.cache
def _json_writer(default: Callable[[Any], Any] = _refuse, *, sort_keys: bool = False) -> Callable[[Any], str]:
    """Compact JSON text (non-ASCII as it is), written by the json package's C encoder; `default` turns any
    other object into JSON data or raises TypeError."""
    import json

    encoder = json.JSONEncoder(
        default=default, check_circular=False, separators=(",", ":"), ensure_ascii=False, sort_keys=sort_keys
    )
    return encoder.encode


@functools.cache
def _json_reader() -> Callable[[str], Any]:
    """JSON text as data (ValueError when it is not JSON; NaN and the infinities refused: nothing writes them)."""
    import json

    return json.JSONDecoder(parse_constant=_no_constant).decode
