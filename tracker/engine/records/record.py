"""Records: the encounter file's tables and the live state as plain Python objects, validated by pydantic
only when they are read from a file.

Why not pydantic models throughout: importing pydantic's model machinery and building the validators of
some thirty models costs about 80 ms at every start (issue 12), more than `tracker exec` may take in all,
while the engine only ever builds and mutates these objects itself. So a `Record` is a small class whose
fields are declared the way pydantic declares them (annotations, `Field` for defaults and constraints,
`field_validator` / `model_validator` for the checks), but whose class costs nothing to create and whose
instances are plain attribute bags. `Record.model_validate` is the one door in from a file: it builds a
pydantic twin of the record's classes on first use (`tracker.engine.records.schema`, the only module of the
rules that imports pydantic), validates there, and hands back records. A `ValidationMemo` the store
installs can remember what a given document validated to, so a file read again is not validated again.

The small API the code uses keeps pydantic's names (``model_validate``, ``model_copy``, ``model_dump``),
so the model modules read as pydantic models do, and the type checker sees each record's ``__init__``
through `dataclass_transform`.
"""

from __future__ import annotations

import copy
import marshal
import pickle

try:  # the BLAKE2 builtin alone: `hashlib` also loads OpenSSL's, ~3 ms of every start
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any, ClassVar, Literal, Protocol, Self, TypeVar, dataclass_transform

#: No default given: the field is required.
MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()

T = TypeVar("T")


class _StrictType:
    """Annotated metadata: no coercion for this type (pydantic's ``Strict()``; ``True`` is not an int)."""

    def __repr__(self) -> str:
        return "STRICT_TYPE"


STRICT_TYPE = _StrictType()
StrictInt = Annotated[int, STRICT_TYPE]
StrictBool = Annotated[bool, STRICT_TYPE]


class FieldSpec:
    """What `Field` declares: the default (or its factory) and pydantic's constraints (``ge``, ``min_length``,
    ``union_mode`` …), which only the validating twin reads."""

    __slots__ = ("constraints", "default", "default_factory")

    def __init__(self, default: Any, default_factory: Callable[[], Any] | None, constraints: dict[str, Any]) -> None:
        self.default = default
        self.default_factory = default_factory
        self.constraints = constraints

    def has_default(self) -> bool:
        return self.default is not MISSING or self.default_factory is not None

    def make_default(self) -> Any:
        return self.default_factory() if self.default_factory is not None else self.default


def Field(default: Any = MISSING, *, default_factory: Callable[[], Any] | None = None, **constraints: Any) -> Any:
    """A field's default and constraints, as pydantic's ``Field`` takes them (also as `Annotated` metadata)."""
    return FieldSpec(default, default_factory, constraints)


class Check:
    """A validator declared on a record (`field_validator` / `model_validator`): run by the pydantic twin only.

    `fields` are the field names of a field validator (empty for a model validator); `mode` is pydantic's.
    `func` is the plain function; a field or ``before`` model validator is called with the record class as
    ``cls``, an ``after`` model validator with the validated record as ``self``.
    """

    __slots__ = ("fields", "func", "mode")

    def __init__(self, fields: tuple[str, ...], mode: str, func: Callable[..., Any]) -> None:
        self.fields = fields
        self.mode = mode
        self.func = func


def field_validator(
    *fields: str, mode: Literal["after", "before"] = "after", check_fields: bool | None = None
) -> Callable[[T], T]:
    """pydantic's ``field_validator`` for a record: the decorated classmethod checks the named fields.

    (Typed as keeping the method, which is what the code around it sees; the class keeps a `Check` instead.)"""

    def mark(method: Any) -> Any:
        return Check(fields, mode, method.__func__ if isinstance(method, classmethod) else method)

    return mark


def model_validator(*, mode: Literal["after", "before"]) -> Callable[[T], T]:
    """pydantic's ``model_validator`` for a record: ``before`` gets the raw data (a classmethod), ``after`` the
    validated record."""

    def mark(method: Any) -> Any:
        return Check((), f"model-{mode}", method.__func__ if isinstance(method, classmethod) else method)

    return mark


class CheckInfo(Protocol):
    """What a field validator's second argument offers (pydantic's ``ValidationInfo``): the fields so far."""

    @property
    def data(self) -> dict[str, Any]: ...


class Invalid(ValueError):
    """A document that does not validate; `errors` lists pydantic's error dicts (``loc``, ``msg``, ``type``,
    ``input``, ``ctx``), which the store turns into positioned problems."""

    def __init__(self, title: str, errors: list[dict[str, Any]], text: str | None = None) -> None:
        super().__init__(
            text or f"{len(errors)} validation error(s) for {title}: " + "; ".join(e["msg"] for e in errors)
        )
        self.title = title
        self._errors = errors

    def errors(self) -> list[dict[str, Any]]:
        return list(self._errors)


class ValidationMemo(Protocol):
    """Remembers validated documents (pickled records) by a key; the store gives one backed by a cache folder."""

    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, value: bytes) -> None: ...


_memo: ValidationMemo | None = None


def use_memo(memo: ValidationMemo | None) -> None:
    """Install (or remove) the memo `Record.model_validate` consults before validating."""
    global _memo
    _memo = memo


@dataclass_transform(kw_only_default=True, field_specifiers=(Field,))
class Record:
    """Base of every file and state record; see the module's docstring for why it is not a pydantic model.

    Subclasses declare fields by annotation (names starting with ``_`` are private attributes, not fields).
    ``extra`` says what the file may hold beyond the fields: ``forbid`` (an error) or ``allow`` (kept, see
    `model_extra`). Construction does not validate: the engine builds records from values it already trusts.
    """

    #: The fields in declaration order (a base's first), with their defaults and constraints.
    _record_fields: ClassVar[dict[str, FieldSpec]] = {}
    #: `_saved_form`'s function, per class.
    _record_saved: ClassVar[Callable[[dict[str, Any]], dict[str, Any]]]
    #: `_dump_plan`'s table, per class.
    _record_plan: ClassVar[tuple[tuple[str, bool, Any], ...]]
    #: The positions of the fields `fingerprint` has seen holding records, per class.
    _record_nested: ClassVar[tuple[int, ...]]
    #: The validators, by attribute name (a subclass's override one of the same name).
    _record_checks: ClassVar[dict[str, Check]] = {}
    #: pydantic's ``extra`` for the twin.
    extra: ClassVar[Literal["forbid", "allow"]] = "forbid"
    #: Key the memo by the document's content whatever the order of its keys: set on the live tables, which
    #: the tracker writes itself and remembers as it saves them (`remember`), while TOML reads them back
    #: with its tables after its plain keys.
    canonical_key: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = dict(cls._record_fields)
        checks = dict(cls._record_checks)
        own = cls.__dict__
        for name, hint in own.get("__annotations__", {}).items():
            if name.startswith("_") or _is_class_var(hint):
                continue
            raw = own.get(name, MISSING)
            spec = raw if isinstance(raw, FieldSpec) else FieldSpec(raw, None, {})
            if isinstance(raw, FieldSpec):
                if spec.default is MISSING:
                    delattr(cls, name)
                else:
                    setattr(cls, name, spec.default)
            fields[name] = spec
        for name, value in list(own.items()):
            if isinstance(value, Check):
                checks[name] = value
                delattr(cls, name)
        cls._record_fields = fields
        cls._record_checks = checks

    def __init__(self, **data: Any) -> None:
        values = self.__dict__
        fields = type(self)._record_fields
        for name, spec in fields.items():
            if name in data:
                values[name] = data[name]
            elif spec.default_factory is not None:
                values[name] = spec.default_factory()
            elif spec.default is not MISSING:
                values[name] = spec.default
            else:
                raise TypeError(f"{type(self).__name__}: '{name}' is required")
        if not data.keys() <= fields.keys():
            unknown = [k for k in data if k not in fields]
            if type(self).extra != "allow":
                raise TypeError(f"{type(self).__name__}: unknown field(s) {', '.join(unknown)}")
            values["_extra"] = {k: data[k] for k in unknown}

    # --- pydantic's names, for the little the code uses -------------------------------------------
    @classmethod
    def model_validate(cls, data: Any) -> Self:
        """`data` (a parsed TOML table) validated into this record: pydantic checks it (Invalid when wrong),
        unless the installed memo already holds what this very document validated to."""
        key = _memo_key(cls, data) if _memo is not None else None
        found = recall(key)
        if type(found) is cls:
            return found
        from tracker.engine.records.schema import validate

        record = validate(cls, data)
        keep(key, record)
        return record

    @classmethod
    def default_of(cls, name: str) -> Any:
        """A fresh copy of the field's declared default (a new list for a list field)."""
        return cls._record_fields[name].make_default()

    @property
    def model_extra(self) -> dict[str, Any] | None:
        """Keys the file gave beyond the fields (``extra = "allow"`` only)."""
        extra: dict[str, Any] | None = self.__dict__.get("_extra")
        return extra

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy (shallow unless `deep`), with `update`'s fields replaced, as pydantic's ``model_copy``."""
        new = copy.deepcopy(self) if deep else copy.copy(self)
        if update:
            new.__dict__.update(update)
        return new

    def model_dump(
        self,
        *,
        mode: Literal["python", "json"] = "python",
        exclude_none: bool = False,
        exclude_defaults: bool = False,
        exclude: Iterable[str] | None = None,
    ) -> Any:
        """The record as plain data, as pydantic's ``model_dump`` gives it with these options (nested records
        too; ``json`` turns tuples into lists): a dict of the fields, or the record's own `dump` form (the
        log's compact string)."""
        return self.dump((mode == "json", exclude_none, exclude_defaults), frozenset(exclude or ()))

    def dump(self, options: tuple[bool, bool, bool], exclude: frozenset[str] = frozenset()) -> Any:
        """This record as plain data (`model_dump`'s options as a tuple); a record with a compact saved form
        overrides it. Every save dumps the whole state, so the usual case (a save's options, nothing
        excluded) runs a function made for the class (`_saved_form`): at 500 combatants, half the time."""
        if not exclude and options == _SAVED:
            return type(self)._saved_form()(self.__dict__)
        _, exclude_none, exclude_defaults = options
        out: dict[str, Any] = {}
        values = self.__dict__
        for name, has_default, default in type(self)._dump_plan():
            if name in exclude:
                continue
            value = values[name]
            if value is None and exclude_none:
                continue
            if exclude_defaults and has_default and value == default:
                continue
            out[name] = value if type(value) in _SCALARS else _plain(value, options)
        extra = values.get("_extra")
        if extra:
            out.update({k: _plain(v, options) for k, v in extra.items() if k not in exclude})
        return out

    def saved_form(self, kept: Mapping[str, SavedMembers]) -> dict[str, Any]:
        """`dump` with a save's options (``model_dump(mode="json", exclude_none=True, exclude_defaults=True)``),
        the same dict in the same order, where each field named in `kept` (a table of records) is dumped by
        its keeper (`SavedMembers`): only the members that changed since the last save are dumped again."""
        rest = self.dump(_SAVED, frozenset(kept))
        values, out = self.__dict__, {}
        for name, has_default, default in type(self)._dump_plan():
            if name in kept:
                value = values[name]
                if not (value is None or (has_default and value == default)):
                    out[name] = kept[name].dump(value)
            elif name in rest:
                out[name] = rest[name]
        out.update({k: v for k, v in rest.items() if k not in out})  # the extra keys, last as in `dump`
        return out

    @classmethod
    def _saved_form(cls) -> Callable[[dict[str, Any]], dict[str, Any]]:
        """`dump` with a save's options (JSON, no None, no default), as straight-line code for this class's
        fields, made once per class the way `dataclasses` makes an ``__init__``."""
        made: Callable[[dict[str, Any]], dict[str, Any]] | None = cls.__dict__.get("_record_saved")
        if made is None:
            lines = ["def saved(v):", " out = {}"]
            scope: dict[str, Any] = {"S": _SCALARS, "P": _plain, "O": _SAVED}
            for n, (name, has_default, default) in enumerate(cls._dump_plan()):
                scope[f"d{n}"] = default
                skip = f"x is None or x == d{n}" if has_default else "x is None"
                keep = f"  out[{name!r}] = x if type(x) in S else P(x, O)"
                lines += [f" x = v[{name!r}]", f" if not ({skip}):", keep]
            lines += [" e = v.get('_extra')", " if e:", "  out.update({k: P(y, O) for k, y in e.items()})"]
            exec("\n".join([*lines, " return out"]), scope)  # code made from the class's own field names
            made = cls._record_saved = scope["saved"]
        return made

    @classmethod
    def _dump_plan(cls) -> tuple[tuple[str, bool, Any], ...]:
        """(name, has a default, the default to compare with) per field, worked out once per class: a default
        factory is called once here, its value only ever compared, never handed out."""
        plan: tuple[tuple[str, bool, Any], ...] | None = cls.__dict__.get("_record_plan")
        if plan is None:
            plan = tuple((n, s.has_default(), s.make_default()) for n, s in cls._record_fields.items())
            cls._record_plan = plan
        return plan

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # mutable, like a pydantic model

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items() if not k.startswith("_"))
        return f"{type(self).__name__}({shown})"


def _is_class_var(hint: object) -> bool:
    text = hint if isinstance(hint, str) else repr(hint)
    return text.startswith(("ClassVar", "typing.ClassVar"))


#: A save's dump options: JSON, no None, no default (`Record.dump`).
_SAVED = (True, True, True)

#: Values that dump as themselves (checked by exact type: a record or a container is never one of them).
_SCALARS = frozenset({str, int, bool, float, type(None)})


def _plain(value: Any, options: tuple[bool, bool, bool]) -> Any:
    """A field's value as plain data (see `Record.model_dump`)."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, Record):
        return value.dump(options)
    if isinstance(value, list):
        return [v if type(v) in _SCALARS else _plain(v, options) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else _plain(v, options) for k, v in value.items()}
    if isinstance(value, tuple):
        items = [_plain(v, options) for v in value]
        return items if options[0] else tuple(items)
    return value


def fingerprint(record: Record) -> bytes | None:
    """Bytes that change whenever one of `record`'s fields does, types included (None: a field holds a value
    that is neither plain data nor a record; such a record is never taken as unchanged).

    Why: a `next` among hundreds of combatants changes two of them, and both the save (`SavedMembers`) and
    the order table (`tracker.present.view.RowKeeper`) ask after every command which of them changed. Comparing
    fingerprints is the one exact way that needs no help from the rules that changed them: marshal keeps each
    value's type (``1``, ``True`` and ``1.0`` differ, as they do in the file) and the order of a table's
    keys, and costs under a microsecond a combatant. Only the class's name and the values are written: a
    record's fields are its class's keys in its class's order, and extra keys (``_extra``) are one more
    value. The fields that hold records (2d20 Persistent damage, TTB criticals) are written through
    `_marshallable`; the class learns which they are the first time, so the others are not looked into."""
    cls = type(record)
    values = (cls.__qualname__, *record.__dict__.values())  # the class too: its values read by its fields
    nested: tuple[int, ...] = cls.__dict__.get("_record_nested", ())  # fields seen holding records
    try:
        # Version 2: no back-references, half the cost. Records one level down (a list of flat records, as
        # Persistent damage is) are written by `_shallow`; anything deeper by `_marshallable`.
        return marshal.dumps(_converted(values, nested, _shallow) if nested else values, 2)
    except (ValueError, IndexError):  # IndexError: a position learnt from a record with more values
        pass
    found = tuple(i for i, v in enumerate(values) if type(v) not in _SCALARS and not _marshals(v))
    cls._record_nested = nested = tuple(sorted({*nested, *found}))  # learnt once per class, as `_record_plan`
    try:
        return marshal.dumps(_converted(values, nested, _marshallable), 2)
    except (ValueError, IndexError):
        return None


def _converted(values: tuple[Any, ...], positions: tuple[int, ...], convert: Callable[[Any], Any]) -> list[Any]:
    """`values` with those at `positions` converted."""
    parts = list(values)
    for i in positions:
        parts[i] = convert(parts[i])
    return parts


def _shallow(value: Any) -> Any:
    """`_marshallable` for a record or a list of records whose fields hold plain data: the same result, made
    faster (a record's values are taken as they are; if one is not plain data, marshal says so)."""
    if type(value) is list:
        return [(type(v).__qualname__, tuple(v.__dict__.values())) if isinstance(v, Record) else v for v in value]
    if isinstance(value, Record):
        return (type(value).__qualname__, tuple(value.__dict__.values()))
    return value


def _marshals(value: Any) -> bool:
    try:
        marshal.dumps(value, 2)
    except ValueError:
        return False
    return True


def _marshallable(value: Any) -> Any:
    """`value` with each record in it as its class's name and its values (what `fingerprint` needs of it)."""
    scalars = _SCALARS
    if isinstance(value, Record):
        values = value.__dict__.values()
        return (type(value).__qualname__, tuple(v if type(v) in scalars else _marshallable(v) for v in values))
    if type(value) is list:
        return [v if type(v) in scalars else _marshallable(v) for v in value]
    if type(value) is tuple:
        return tuple(v if type(v) in scalars else _marshallable(v) for v in value)
    if type(value) is dict:
        return {k: v if type(v) in scalars else _marshallable(v) for k, v in value.items()}
    return value


class SavedMembers:
    """The saved forms (`Record.dump` with a save's options) of a table of records, such as ``[state.fighters]``,
    each made again only when its record changed (`fingerprint`).

    A member left as it was is handed back as the very dict the last save made, so the TOML writer
    (`tracker.store.toml_cache`) can tell at a glance (``is``) that its text stands as well. Those dicts are
    shared from one save to the next: nothing may change them."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[bytes, Any]] = {}

    def dump(self, members: Mapping[str, Record]) -> dict[str, Any]:
        kept, out = self._kept, {}
        for key, member in members.items():
            mark = fingerprint(member)
            before = kept.get(key)
            if before is not None and before[0] == mark:
                out[key] = before[1]
                continue
            saved = out[key] = member.dump(_SAVED)
            if mark is not None:
                kept[key] = (mark, saved)
        return out


def prepare(*classes: type[Record]) -> None:
    """Build the validating twins of `classes` now (pydantic's import and schemas): a viewer does it after its
    first frame, so the first change it follows is not the one that waits for them."""
    from tracker.engine.records.schema import twin_of

    for cls in classes:
        twin_of(cls)


def remember(record: Record, data: Any) -> None:
    """Tell the memo that `data` validates to `record`: the store calls it with the live tables it has just
    written, so a file reopened mid-fight is not validated again. Sound because a record dumps to data that
    validates back to an equal record (the save/load property tests hold it)."""
    keep(_memo_key(type(record), data) if _memo is not None else None, record)


def text_key(kind: str, text: str, context: str = "") -> str | None:
    """The memo's key for what a whole file's `text` reads as (None: no memo installed), so a file read
    again is neither parsed nor validated again: `kind` names the reading (an encounter, a theme) and
    `context` anything else it depends on besides the code (the folder an encounter's paths start from).

    The file's own bytes are the key, not the data they parse to: TOML parsing is a pure function of them,
    and skipping it is the point. The code stamp covers the whole tracker package here, since the reading
    (the store's parsing and expansion, a theme's record) is not all in the rules. Only what a reading that
    succeeded gave is kept (`keep`), so a file with problems is read, and its problems positioned, every time.
    """
    if _memo is None:
        return None
    digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20)
    digest.update(repr((MEMO_FORMAT, "text", kind, context, _code_stamp())).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def recall(key: str | None) -> Any:
    """What the memo keeps under `key` (unpickled), or None: no memo, no entry, or one that does not unpickle.
    The caller checks what it got is what it kept."""
    if key is None or _memo is None:
        return None
    held = _memo.get(key)
    if held is None:
        return None
    try:
        return pickle.loads(held)
    except Exception:
        return None


def keep(key: str | None, value: object) -> None:
    """Put `value` (pickled now: later changes to it are not kept) in the memo under `key` (None: skipped)."""
    if key is not None and _memo is not None:
        _memo.put(key, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


#: Bumped when what a memo entry holds changes shape (the key also names the record's module files).
MEMO_FORMAT = 1


def _memo_key(cls: type[Record], data: Any) -> str | None:
    """What identifies one validation: the record class, its code, and the document (None: not memoised).

    The code is named by the size and modification time of every module that defines a record, so an
    edited or upgraded tracker never reads an entry an older one wrote.
    """
    import json  # here: a file read before is recalled by its bytes (`text_key`), and needs no JSON

    try:
        # JSON, not marshal: marshal's bytes depend on how often each object is referenced, not only on the data.
        document = json.dumps(data, sort_keys=cls.canonical_key, ensure_ascii=False, check_circular=False)
    except (ValueError, TypeError):  # a value JSON cannot write (a TOML date): validate every time
        return None
    digest = blake2b(document.encode(), digest_size=20)
    digest.update(f"{MEMO_FORMAT}|{cls.__module__}.{cls.__qualname__}|{_code_stamp()}".encode())
    return digest.hexdigest()


_stamp: str | None = None


def _code_stamp() -> str:
    """The tracker's code as of this process: the size and modification time of every module of the tracker
    package (validators call into the catalogues and card parsers, not only the record modules; the store
    parses and expands the files `text_key` keys; the UI declares the theme record), of the installed
    pydantic and pydantic-core, and Python's version (its `tomllib` parses the files)."""
    global _stamp
    if _stamp is None:
        import os

        parts: list[str] = []
        stack = [os.path.dirname(os.path.dirname(os.path.dirname(__file__)))]
        while stack:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False) and not entry.name.startswith(("_", ".")):
                        stack.append(entry.path)
                    elif entry.name.endswith(".py"):
                        st = entry.stat()
                        parts.append(f"{entry.path}:{st.st_size}:{st.st_mtime_ns}")
        import importlib.util
        import sys

        # The validator too: an upgraded pydantic (or Python) may read a document otherwise. Found, not imported.
        for package in ("pydantic", "pydantic_core"):
            spec = importlib.util.find_spec(package)
            if spec is not None and spec.origin:
                st = os.stat(spec.origin)
                parts.append(f"{spec.origin}:{st.st_size}:{st.st_mtime_ns}")
        parts.append(sys.version)
        _stamp = blake2b(";".join(sorted(parts)).encode(), digest_size=12).hexdigest()
    return _stamp
