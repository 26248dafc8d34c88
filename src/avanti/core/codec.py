"""JSON for setups, commands, events, views and whole games, strict on input.

Every game builds one :class:`Codec` from its setup class and the classes of its commands and
events. Commands and events are written as tagged unions (``{"type": "DieRolled", ...}``). Reading
is strict: unknown or missing keys, a string where a number belongs, ``true`` where a number
belongs, an unknown ``type``: each is reported with its JSON path (``$.events[3].face``) in one
:class:`~avanti.core.errors.DecodeError` that lists every problem found.

A game document names its format and format version::

    {"format": "<game>", "version": 1, "setup": {...}, "events": [...]}

Older versions are brought forward by the codec's upcasters before they are read.

Commands and events are read through a fast path first: a reader built once per class that accepts
only an object whose keys are exactly the class's fields and whose values have exactly the JSON
types the fields expect. Anything else, however slightly off, goes down the strict cattrs path,
which reads what is valid the same way and reports every problem with its path. The fast path reads
every class by its field types, as :func:`make_converter`'s converter does: a game that gave one of
its classes a structure hook of its own would have to keep that class off the fast path
(``tests/test_codec_fast_path.py`` reads every game's logs both ways and would show it).
"""

from __future__ import annotations

import enum
import functools
import json
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter, itemgetter
from typing import Any, Generic, TypeVar, Union, get_args, get_origin, get_type_hints

import attrs
import cattrs
from cattrs.cols import homogenous_tuple_structure_factory
from cattrs.gen import make_dict_unstructure_fn
from cattrs.v import format_exception

from avanti.core import limits
from avanti.core.errors import DecodeError

__all__ = ["Codec", "JSONValue", "make_converter"]

SetupT = TypeVar("SetupT")
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT")
T = TypeVar("T")

JSONValue = Any
"""Anything :func:`json.dumps` accepts (dicts, lists, strings, numbers, booleans, ``None``)."""

_TYPE_NAMES = {int: "an integer", str: "a string", bool: "a boolean"}
_KINDS = {
    type(None): "null",
    bool: "a boolean",
    int: "an integer",
    float: "a fractional number",
    str: "a string",
    list: "a list",
    dict: "an object",
}
_LONGEST_PROBLEM = 200
"""Each problem of a :class:`~avanti.core.errors.DecodeError` is cut to this many characters."""


def _kind(value: object) -> str:
    """The JSON kind of a value in words (``"a string"``, ``"an integer"``, ``"null"``): what a
    message says it found, never the value itself, which may be hidden or hostile."""
    return _KINDS.get(type(value), type(value).__name__)


def _other(value: object) -> str:
    """What a message says of a value that is none of those allowed."""
    return "another string" if type(value) is str else _kind(value)


def _exact(kind: type[T]) -> Callable[[object, type], T]:
    def hook(value: object, type_: type) -> T:
        if type_ is not kind and issubclass(type_, enum.Enum):
            # A class hook also catches subclasses: StrEnum and IntEnum members are read by value.
            return _structure_enum(value, type_)  # type: ignore[return-value]  # an Enum member
        if type(value) is not kind:
            raise TypeError(f"expected {_TYPE_NAMES[kind]}, got {_kind(value)}")
        return value

    return hook


def _structure_float(value: object, _: type) -> float:
    if type(value) not in (int, float):
        raise TypeError(f"expected a number, got {_kind(value)}")
    return float(value)  # type: ignore[arg-type]  # int or float, checked above


def _is_tuple(t: Any) -> bool:
    return get_origin(t) is tuple


def _tuple_factory(t: Any, converter: cattrs.Converter) -> Callable[[object, type], Any]:
    args = get_args(t)
    if len(args) == 2 and args[1] is Ellipsis:
        inner = homogenous_tuple_structure_factory(t, converter)

        def homogeneous(value: object, type_: type) -> Any:
            if not isinstance(value, list):
                raise TypeError(f"expected a list, got {_kind(value)}")
            return inner(value, type_)

        return homogeneous

    def heterogeneous(value: object, _: type) -> Any:
        if not isinstance(value, list) or len(value) != len(args):
            raise TypeError(f"expected a list of {len(args)} items")
        return tuple(converter.structure(item, arg) for item, arg in zip(value, args, strict=True))

    return heterogeneous


def _structure_enum(value: object, type_: type[enum.Enum]) -> enum.Enum:
    try:
        return type_(value)
    except ValueError:
        allowed = ", ".join(json.dumps(m.value) for m in type_)
        raise ValueError(f"expected one of {allowed}, got {_other(value)}") from None


def make_converter() -> cattrs.Converter:
    """A cattrs converter with the library's strict rules.

    Extra keys are forbidden; integers, strings and booleans must have exactly that JSON type
    (no ``"1"`` for ``1``, no ``true`` for ``1``); tuples are read from JSON lists only.
    """
    converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    for kind in (int, str, bool):
        converter.register_structure_hook(kind, _exact(kind))
    converter.register_structure_hook(float, _structure_float)
    converter.register_structure_hook_factory(_is_tuple, _tuple_factory)
    converter.register_structure_hook_func(
        lambda t: isinstance(t, type) and issubclass(t, enum.Enum), _structure_enum
    )
    return converter


def _register_tagged_union(
    converter: cattrs.Converter, union: Any, by_name: Mapping[str, type]
) -> Callable[[Any], dict[str, JSONValue]]:
    """Register the union's hooks; return its unstructure function, to call without dispatch.

    ``by_name`` maps each wire tag (the ``type`` field) to its class.
    """
    known = ", ".join(sorted(by_name))
    tag_of = {cls: tag for tag, cls in by_name.items()}
    plain: dict[type, Callable[[Any], dict[str, Any]]] = {
        cls: make_dict_unstructure_fn(cls, converter) for cls in by_name.values()
    }

    def unstructure(obj: Any) -> dict[str, JSONValue]:
        data: dict[str, JSONValue] = {"type": tag_of[type(obj)]}
        data.update(plain[type(obj)](obj))
        return data

    def structure(value: object, _: type) -> Any:
        if not isinstance(value, dict):
            raise TypeError(f"expected an object with a 'type' key, got {_kind(value)}")
        tag = value.get("type")
        if not isinstance(tag, str) or tag not in by_name:
            raise ValueError(f"'type' must be one of {known}, got {_other(tag)}")
        rest = {k: v for k, v in value.items() if k != "type"}
        return converter.structure(rest, by_name[tag])

    converter.register_structure_hook(union, structure)
    converter.register_unstructure_hook(union, unstructure)
    for cls in by_name.values():
        converter.register_unstructure_hook(cls, unstructure)
    return unstructure


class _Miss(Exception):
    """A value the fast path does not read: the strict path decides instead."""


_MISS: Any = object()
"""What a fast reader returns for a value it leaves to the strict path."""

_INTS = frozenset((int,))

Reader = Callable[[object], object]
"""A fast reading of one JSON value: the value read, or :class:`_Miss` raised."""


def _never(value: object) -> object:
    raise _Miss


def _fast_value(t: Any, building: frozenset[type] = frozenset()) -> Reader:
    """Read a JSON value of type ``t`` exactly as the strict path would, raising :class:`_Miss`
    for anything else, including every type this fast path does not know."""
    if t in (int, str, bool, float):

        def exact(value: object, kind: type = t) -> object:
            if type(value) is not kind:
                raise _Miss
            return value

        return exact
    if isinstance(t, type) and issubclass(t, enum.StrEnum):
        members = t._value2member_map_

        def member(value: object) -> object:
            if type(value) is not str:
                raise _Miss
            return members[value]  # a KeyError goes to the strict path too

        return member
    origin = get_origin(t)
    args = get_args(t)
    if origin in (Union, types.UnionType) and len(args) == 2 and type(None) in args:
        inner = _fast_value(next(a for a in args if a is not type(None)), building)

        def optional(value: object) -> object:
            return None if value is None else inner(value)

        return optional
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        if args[0] is int:

            def ints(value: object) -> object:
                if type(value) is not list or not _INTS.issuperset(map(type, value)):
                    raise _Miss
                return tuple(value)

            return ints
        item = _fast_value(args[0], building)

        def items(value: object) -> object:
            if type(value) is not list:
                raise _Miss
            return tuple([item(x) for x in value])

        return items
    if origin is tuple and args and Ellipsis not in args:
        parts = tuple(_fast_value(arg, building) for arg in args)

        def fixed(value: object) -> object:
            if type(value) is not list or len(value) != len(parts):
                raise _Miss
            return tuple([read(x) for read, x in zip(parts, value, strict=True)])

        return fixed
    if isinstance(t, type) and attrs.has(t) and t not in building:
        return _fast_reader(t, tagged=False, building=building)
    return _never


def _fast_reader(cls: type, *, tagged: bool, building: frozenset[type] = frozenset()) -> Reader:
    """Build ``cls`` from a JSON object with exactly its fields (and ``"type"`` if ``tagged``),
    each read by :func:`_fast_value`, calling the class as the strict path does."""
    fields = attrs.fields(cls)
    if any(not a.init or a.kw_only or (tagged and a.name == "type") for a in fields):
        return _never
    code = getattr(cls.__dict__.get("__init__"), "__code__", None)
    if code is None or not code.co_filename.startswith("<attrs generated"):
        return _never  # a hand-written __init__ may take its arguments in another order
    hints = get_type_hints(cls)
    names = tuple(a.name for a in fields)
    size = len(names) + tagged
    if names and all(hints[name] is int for name in names):
        values = itemgetter(*names, *names) if len(names) == 1 else itemgetter(*names)

        def ints(data: object) -> object:
            if type(data) is not dict or len(data) != size:
                raise _Miss
            read = values(data)  # a KeyError for a missing field goes to the strict path
            if not _INTS.issuperset(map(type, read)):
                raise _Miss
            return cls(*read[: len(names)])

        return ints
    inner = building | {cls}
    pairs = tuple((name, _fast_value(hints[name], inner)) for name in names)

    def general(data: object) -> object:
        if type(data) is not dict or len(data) != size:
            raise _Miss
        return cls(*[read(data[name]) for name, read in pairs])

    return general


def _fast(read: Reader) -> Callable[[object], Any]:
    """``read``, returning ``_MISS`` instead of failing in any way."""

    def fast(data: object) -> Any:
        try:
            return read(data)
        except Exception:  # a wrong type, key or value of any kind: the strict path decides
            return _MISS

    return fast


def _fast_union(classes: Mapping[str, type]) -> Callable[[object], Any]:
    """Read a tagged JSON object by the fast path, or return ``_MISS`` to leave it to cattrs."""
    by_tag = {tag: _fast_reader(cls, tagged=True) for tag, cls in classes.items()}

    def read(data: object) -> object:
        return by_tag[data["type"]](data)  # type: ignore[index]  # anything may fail here

    return _fast(read)


Form = Callable[[object], bool]
"""Whether a value has exactly a declared type (``True`` is no ``int``, ``1.0`` no ``int``)."""


def _form(t: Any) -> Form:
    """The exact-type test of a value declared as ``t``, as the strict decoder reads JSON."""
    if t is float:  # JSON reads a whole number into a float field
        return lambda value: type(value) is float or type(value) is int
    if t in (int, str, bool) or (isinstance(t, type) and issubclass(t, enum.Enum)):
        kind: type = t

        def exact(value: object) -> bool:
            return type(value) is kind

        return exact
    origin = get_origin(t)
    args = get_args(t)
    if origin in (Union, types.UnionType):
        parts = tuple(_form(arg) for arg in args if arg is not type(None))
        optional = type(None) in args
        return lambda value: (optional and value is None) or any(p(value) for p in parts)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _form(args[0])
        return lambda value: type(value) is tuple and all(item(x) for x in value)
    if origin is tuple:
        parts = tuple(_form(arg) for arg in args)
        return lambda value: (
            type(value) is tuple
            and len(value) == len(parts)
            and all(p(x) for p, x in zip(parts, value, strict=True))
        )
    if isinstance(t, type) and attrs.has(t):
        return _class_form(t)
    if isinstance(t, type) and t is not Any:  # Any is a class since Python 3.11
        other: type = t
        return lambda value: isinstance(value, other)
    return lambda value: True


def _class_form(cls: type) -> Form:
    """The exact-type test of every field of an attrs class, fastest where all are ints."""
    hints = get_type_hints(cls)
    names = tuple(a.name for a in attrs.fields(cls))
    if names and all(hints[name] is int for name in names):
        values = attrgetter(*names, *names)  # a tuple even for one field
        return lambda value: type(value) is cls and _INTS.issuperset(map(type, values(value)))
    tests = tuple((attrgetter(name), _form(hints[name])) for name in names)
    return lambda value: type(value) is cls and all(test(get(value)) for get, test in tests)


def _form_problem(command: object, classes: Mapping[type, str]) -> str | None:
    """What is wrong with the form of ``command``, in words, or ``None`` when nothing is."""
    kind = type(command)
    if kind not in classes:
        known = ", ".join(sorted(classes.values()))
        return f"{command!r} is not a command of this game (one of: {known})"
    hints = get_type_hints(kind)
    for a in attrs.fields(kind):  # type: ignore[arg-type]  # a command class is an attrs class
        value = getattr(command, a.name)
        if not _form(hints[a.name])(value):
            expected = getattr(hints[a.name], "__name__", None) or str(hints[a.name])
            return (
                f"{kind.__name__}.{a.name} must be {expected}, "
                f"not {value!r} ({type(value).__name__})"
            )
    return None


def _holds_more_than(data: JSONValue, most: int) -> bool:
    """Whether parsed JSON ``data`` holds more than ``most`` values, counting stops early."""
    count = 0
    stack = [data]
    while stack:
        value = stack.pop()
        count += 1
        if count > most:
            return True
        if type(value) is dict:
            stack.extend(value.values())
        elif type(value) is list:
            stack.extend(value)
    return False


def _type_name(t: Any) -> str:
    name = getattr(t, "__name__", None)
    if isinstance(name, str) and get_origin(t) is None:
        return name
    return str(t).replace("typing.", "")


@functools.lru_cache(maxsize=1024)
def _declared(cls: type) -> tuple[tuple[str, Any], ...]:
    """The fields of an attrs class with their declared types, worked out once per class."""
    hints = get_type_hints(cls)
    return tuple((a.name, hints[a.name]) for a in attrs.fields(cls))


def value_problem(value: object, t: Any, path: str) -> str | None:
    """What is wrong with the form of ``value`` declared as ``t`` (exact types through attrs
    classes, tuples and optionals, as :meth:`Codec.well_formed` checks commands), naming the
    first bad field by ``path``; ``None`` if nothing is. Values are named by type, never quoted.
    """
    if t is float:
        if type(value) in (int, float):
            return None
        return f"{path} must be a number, not {type(value).__name__}"
    if t in (int, str, bool) or (isinstance(t, type) and issubclass(t, enum.Enum)):
        if type(value) is t:
            return None
        return f"{path} must be {_type_name(t)}, not {type(value).__name__}"
    origin = get_origin(t)
    args = get_args(t)
    if origin in (Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [arg for arg in args if arg is not type(None)]
        problems = [value_problem(value, arg, path) for arg in options]
        if any(problem is None for problem in problems):
            return None
        return (
            problems[0]
            if len(problems) == 1
            else (f"{path} must be {_type_name(t)}, not {type(value).__name__}")
        )
    if origin is tuple:
        if type(value) is not tuple:
            return f"{path} must be a tuple, not {type(value).__name__}"
        if len(args) == 2 and args[1] is Ellipsis:
            for index, item in enumerate(value):
                problem = value_problem(item, args[0], f"{path}[{index}]")
                if problem is not None:
                    return problem
            return None
        if len(value) != len(args):
            return f"{path} must be a tuple of {len(args)} items, not {len(value)}"
        for index, (item, arg) in enumerate(zip(value, args, strict=True)):
            problem = value_problem(item, arg, f"{path}[{index}]")
            if problem is not None:
                return problem
        return None
    if isinstance(t, type) and attrs.has(t):
        if type(value) is not t:
            return f"{path} must be {t.__name__}, not {type(value).__name__}"
        for name, hint in _declared(t):
            problem = value_problem(getattr(value, name), hint, f"{path}.{name}")
            if problem is not None:
                return problem
        return None
    if isinstance(t, type) and t is not Any and not isinstance(value, t):
        return f"{path} must be {t.__name__}, not {type(value).__name__}"
    return None


def _union_of(classes: Sequence[type]) -> Any:
    # A sentinel class stands for the union: a real typing.Union of one class collapses into it.
    return type("Union", (), {"__members__": tuple(classes)})


def _format(error: BaseException, type_: type | None) -> str:
    """Our hooks' own messages ("expected one of ...") read better than cattrs' generic ones.

    Messages that are not ours (a class's own validator, an unknown key) may quote the input:
    they are cut short, so a hostile document cannot make a long message.
    """
    if isinstance(error, (TypeError, ValueError)) and str(error).startswith("expected"):
        return str(error)
    return _cut(format_exception(error, type_))


def _why(error: BaseException) -> str:
    """An upcaster's failure in words that quote no value of the document: the kind of error,
    and for a missing key its name."""
    if type(error) is KeyError and error.args and isinstance(error.args[0], str):
        return f"missing key {_cut(repr(error.args[0]))}"
    return type(error).__name__


def _cut(message: str) -> str:
    if len(message) <= _LONGEST_PROBLEM:
        return message
    return message[: _LONGEST_PROBLEM - 3] + "..."


def _messages(error: Exception, path: str) -> tuple[str, ...]:
    if isinstance(error, cattrs.BaseValidationError):
        found = cattrs.transform_error(error, path=path, format_exception=_format)
        return tuple(_cut(problem) for problem in found)
    return (f"{_cut(str(error))} @ {path}",)


class _Problems:
    """The problems of one document, up to :data:`~avanti.core.limits.MAX_PROBLEMS` of them."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.more = 0
        self.rest = 0

    @property
    def full(self) -> bool:
        return len(self.found) >= limits.MAX_PROBLEMS

    def append(self, problem: str) -> None:
        self.extend((problem,))

    def extend(self, problems: Iterable[str]) -> None:
        for problem in problems:
            if self.full:
                self.more += 1
            else:
                self.found.append(problem)

    def unchecked(self, events: int) -> None:
        """Stop reading: ``events`` more events were not checked."""
        self.rest = events

    def raise_any(self) -> None:
        if not self.found:
            return
        found = list(self.found)
        if self.more:
            found.append(f"... and {self.more:,} more problems")
        if self.rest:
            found.append(f"... and {self.rest:,} later events not checked")
        raise DecodeError(tuple(found))


class Codec(Generic[SetupT, CommandT, EventT]):
    """Reads and writes one game's setups, commands, events, views and game documents.

    ``format`` names the document kind (the game's one name, as in :mod:`avanti.catalog`) and
    ``version`` its current format version; ``formats`` lists older names of the kind that are
    still read (a document is always written under ``format``).

    ``commands`` and ``events`` map each wire tag (the ``type`` field of a command's or an
    event's JSON) to its class. The tags are part of the stored format: they are written out
    explicitly, never taken from class names, so a class may be renamed without touching a
    stored log.

    Two kinds of upcaster bring older data forward. ``upcasters`` maps an older document version
    ``v`` to a function that turns a whole version ``v`` document into a version ``v + 1`` one;
    ``event_upcasters`` maps ``(tag, v)`` to a function that turns one event of that tag, as
    written at version ``v``, into its version ``v + 1`` form (it may change the tag too). For
    each step from ``v`` to ``v + 1`` the document's upcaster runs first (where there is one),
    then each event's. A step with neither leaves the data as it is.
    """

    def __init__(
        self,
        *,
        format: str,
        version: int,
        setup_type: type[SetupT],
        commands: Mapping[str, type],
        events: Mapping[str, type],
        upcasters: Mapping[int, Callable[[dict[str, JSONValue]], dict[str, JSONValue]]] = {},
        event_upcasters: Mapping[
            tuple[str, int], Callable[[dict[str, JSONValue]], dict[str, JSONValue]]
        ] = {},
        formats: Sequence[str] = (),
    ) -> None:
        self.format = format
        self.formats = (format, *formats)
        self.version = version
        self.setup_type = setup_type
        self.commands = dict(commands)
        self.events = dict(events)
        self.command_types = tuple(self.commands.values())
        self.event_types = tuple(self.events.values())
        self.upcasters = dict(upcasters)
        self.event_upcasters = dict(event_upcasters)
        self.converter = make_converter()
        self._command = _union_of(self.command_types)
        self._event = _union_of(self.event_types)
        self._command_data = _register_tagged_union(self.converter, self._command, self.commands)
        self._event_data = _register_tagged_union(self.converter, self._event, self.events)
        self.command_classes = frozenset(self.command_types)
        self._forms: dict[type, Form] = {cls: _class_form(cls) for cls in self.command_types}
        self._setup_form = _form(setup_type)
        self._has_seed = any(a.name == "seed" for a in attrs.fields(setup_type))  # type: ignore[arg-type]  # an attrs class
        self._fast: dict[Any, Callable[[object], Any]] = {
            self._command: _fast_union(self.commands),
            self._event: _fast_union(self.events),
            setup_type: _fast(_fast_reader(setup_type, tagged=False)),
        }

    # -- the form of a command ---------------------------------------------------------------

    def well_formed(self, command: object) -> bool:
        """Whether ``command`` is one of this game's commands with every field of its exact
        declared type (``True`` is no card number, ``1.0`` no seat): what reading its JSON would
        demand. The core checks this before a game's ``decide`` sees a command."""
        form = self._forms.get(type(command))
        return form is not None and form(command)

    def setup_problem(self, setup: object) -> str | None:
        """What is wrong with the form of ``setup``, in words; ``None`` if every field holds
        exactly its declared type, as a setup read from JSON always does (a ``list`` is no
        ``tuple``, ``True`` no ``int``; an ``int`` may stand for a ``float``)."""
        if self._setup_form(setup):  # the quick test; the walk below finds the path
            return None
        return value_problem(setup, self.setup_type, "setup")

    def form_problem(self, command: object) -> str | None:
        """What is wrong with the form of ``command``, in words; ``None`` if it is well formed."""
        return _form_problem(command, {cls: tag for tag, cls in self.commands.items()})

    # -- plain data --------------------------------------------------------------------------

    def unstructure(self, obj: object) -> JSONValue:
        """Turn any attrs value of this game (a view, a setup, an outcome, ...) into plain data."""
        return self.converter.unstructure(obj)

    def structure(self, data: JSONValue, type_: type[T], *, path: str = "$") -> T:
        """Read plain data as ``type_``; raises :class:`DecodeError` listing every bad field."""
        fast = self._fast.get(type_)
        if fast is not None:
            result = fast(data)
            if result is not _MISS:
                return result  # type: ignore[no-any-return]  # read as type_ by its class
        return self._strict(data, type_, path)

    def _strict(self, data: JSONValue, type_: type[T], path: str) -> T:
        try:
            return self.converter.structure(data, type_)
        except Exception as error:  # cattrs reports problems as many exception kinds
            raise DecodeError(_messages(error, path)) from error

    def command_to_data(self, command: CommandT) -> dict[str, JSONValue]:
        """A command as a tagged JSON object."""
        return self._command_data(command)

    def command_from_data(self, data: JSONValue) -> CommandT:
        """Read a tagged JSON object as one of this game's commands."""
        result: CommandT = self.structure(data, self._command)
        return result

    def event_to_data(self, event: EventT) -> dict[str, JSONValue]:
        """An event as a tagged JSON object."""
        return self._event_data(event)

    def event_from_data(self, data: JSONValue, *, version: int | None = None) -> EventT:
        """Read a tagged JSON object as one of this game's events.

        ``version`` is the format version the event was written at (default: the current one);
        an older event is brought forward by ``event_upcasters`` first.
        """
        if version is not None and version != self.version:
            data = self._upcast_event(data, version, "$")
        result: EventT = self.structure(data, self._event)
        return result

    def _upcast_event(self, data: JSONValue, version: int, path: str) -> JSONValue:
        """One event written at ``version``, brought forward to the current version."""
        if type(version) is not int or not 1 <= version <= self.version:
            message = f"'version' must be an integer from 1 to {self.version}, got {version!r}"
            raise DecodeError((f"{message} @ {path}",))
        for old in range(version, self.version):
            data = self._upcast_event_step(data, old, path)
        return data

    def _upcast_event_step(self, data: JSONValue, old: int, path: str) -> JSONValue:
        """One event of version ``old`` as version ``old + 1`` (unchanged without an upcaster)."""
        tag = data.get("type") if isinstance(data, dict) else None
        upcast = self.event_upcasters.get((tag, old)) if isinstance(tag, str) else None
        if upcast is None or not isinstance(data, dict):
            return data
        try:
            return upcast(data)
        except Exception as error:
            message = f"cannot upgrade a version {old} {_cut(str(tag))} event ({_why(error)})"
            raise DecodeError((f"{message} @ {path}",)) from error

    # -- documents ---------------------------------------------------------------------------

    def document(self, setup: SetupT, events: Iterable[EventT]) -> dict[str, JSONValue]:
        """The game document for a setup and its event log, as plain data."""
        return {
            "format": self.format,
            "version": self.version,
            "setup": self.converter.unstructure(setup, self.setup_type),
            "events": list(map(self._event_data, events)),
        }

    def read_document(self, data: JSONValue) -> tuple[SetupT, tuple[EventT, ...]]:
        """Check a game document's envelope, upcast it, and read its setup and events."""
        if not isinstance(data, dict):
            raise DecodeError((f"expected a JSON object, got {type(data).__name__} @ $",))
        envelope_errors = []
        if data.get("format") not in self.formats:
            envelope_errors.append(
                f"'format' must be {json.dumps(self.format)}, "
                f"got {_other(data.get('format'))} @ $.format"
            )
        version = data.get("version")
        if type(version) is not int or not 1 <= version <= self.version:
            envelope_errors.append(
                f"'version' must be an integer from 1 to {self.version}, "
                f"got {version if type(version) is int else _kind(version)} @ $.version"
            )
        extra = sorted(set(data) - {"format", "version", "setup", "events"})
        if extra:
            envelope_errors.append(_cut(f"extra keys {extra}") + " @ $")
        if envelope_errors:
            raise DecodeError(tuple(envelope_errors))
        assert isinstance(version, int)
        raw_events = data.get("events")
        if isinstance(raw_events, list) and len(raw_events) > limits.MAX_EVENTS:
            raise DecodeError(
                (
                    f"a game document holds at most {limits.MAX_EVENTS:,} events, "
                    f"not {len(raw_events):,} @ $.events",
                )
            )
        for old in range(version, self.version):
            upcast = self.upcasters.get(old)
            if upcast is not None:
                try:
                    data = upcast(data)
                except Exception as error:
                    message = f"cannot upgrade a version {old} document ({_why(error)}) @ $"
                    raise DecodeError((message,)) from error
            raw = data.get("events")
            if self.event_upcasters and isinstance(raw, list):
                data = {
                    **data,
                    "events": [
                        self._upcast_event_step(item, old, f"$.events[{index}]")
                        for index, item in enumerate(raw)
                    ],
                }
        errors = _Problems()
        setup: Any = None
        events: tuple[EventT, ...] = ()
        if "setup" not in data:
            errors.append("required field missing @ $.setup")
        elif self._has_seed and isinstance(data["setup"], dict) and "seed" not in data["setup"]:
            # A setup class may draw a fresh seed by default; a document must name its own.
            errors.append("required field missing @ $.setup.seed")
        elif _holds_more_than(data["setup"], limits.MAX_SETUP_VALUES):
            errors.append(
                f"a setup holds at most {limits.MAX_SETUP_VALUES:,} JSON values "
                "(numbers, strings, lists, objects) @ $.setup"
            )
        else:
            try:
                setup = self.structure(data["setup"], self.setup_type, path="$.setup")
            except DecodeError as error:
                errors.extend(error.errors)
        raw_events = data.get("events")
        if not isinstance(raw_events, list):
            got = _kind(raw_events)
            errors.append(f"expected a list of events, got {got} @ $.events")
        else:
            decoded = []
            fast = self._fast[self._event]
            for index, raw in enumerate(raw_events):
                event = fast(raw)
                if event is _MISS:
                    try:
                        event = self._strict(raw, self._event, f"$.events[{index}]")
                    except DecodeError as error:
                        errors.extend(error.errors)
                        if errors.full:
                            errors.unchecked(len(raw_events) - index - 1)
                            break
                        continue
                decoded.append(event)
            events = tuple(decoded)
        errors.raise_any()
        return setup, events

    def dumps(self, setup: SetupT, events: Iterable[EventT], *, indent: int | None = None) -> str:
        """The game document as JSON text."""
        return json.dumps(self.document(setup, events), indent=indent, ensure_ascii=False)

    def loads(self, text: str | bytes) -> tuple[SetupT, tuple[EventT, ...]]:
        """Parse JSON text into a setup and an event log (not yet replayed)."""
        return self.read_document(parse_json(text))


def parse_json(text: str | bytes) -> JSONValue:
    """Parse JSON text, strictly.

    :raises DecodeError: the text is longer than :data:`~avanti.core.limits.MAX_DOCUMENT_BYTES`
        (checked before anything is parsed), is not JSON, nests too deep, or repeats a key
        within one object (where plain :func:`json.loads` would keep the last one silently).
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise DecodeError((f"expected JSON text, got {type(text).__name__} @ $",))
    if len(text) > limits.MAX_DOCUMENT_BYTES:
        raise DecodeError(
            (
                f"a document may be at most {limits.MAX_DOCUMENT_BYTES:,} bytes long, "
                f"not {len(text):,} @ $",
            )
        )
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKey as error:
        raise DecodeError((f"{error} @ $",)) from None
    except (ValueError, RecursionError) as error:
        raise DecodeError((f"not valid JSON: {_cut(str(error))} @ $",)) from None


class _DuplicateKey(Exception):
    """A JSON object names one key twice."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise _DuplicateKey(f"an object repeats the key {_cut(json.dumps(twice))}")
    return data
