"""A text snapshot of the library's public surface: every public module, every name in its
``__all__``, and what kind of thing each is with its signature.

The snapshot is plain text, one module after another in name order and one name per line
(a class's constructor, fields and own members indented below it), so a change to the public
surface is a diff a reviewer reads line by line. A name re-exported from the module that
defines it is one line naming its home (``Game = avanti.avanti.game.Game``); its detail is
written once, at the home module.

``render(modules)`` writes the snapshot of any modules (the tests apply it to small made-up
modules too), ``public_modules()`` finds the library's, and ``compare(recorded, live)`` gives
the unified diff between two snapshots, empty when they agree.
"""

from __future__ import annotations

import difflib
import enum
import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType, UnionType
from typing import Any, ForwardRef

import attrs

import avanti

__all__ = ["compare", "public_module_names", "public_modules", "render"]

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
"""Memory addresses in a repr, which differ from run to run."""

_SCALARS = (bool, int, float, str, bytes, type(None))
"""The constant types whose value is written out (when short); other constants give their
type only."""

_LONGEST_VALUE = 80


def public_module_names(package: ModuleType = avanti) -> list[str]:
    """Every module of ``package`` whose dotted name has no part starting with ``_`` (so no
    ``__main__``), the package itself first, then in name order."""
    found = [
        info.name
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
        if not any(part.startswith("_") for part in info.name.split("."))
    ]
    return [package.__name__, *sorted(found)]


def public_modules(package: ModuleType = avanti) -> list[ModuleType]:
    """The public modules of ``package``, imported."""
    return [importlib.import_module(name) for name in public_module_names(package)]


def _clean(text: str) -> str:
    return _ADDRESS.sub("", text)


class _Plain:
    """An annotation written as plain text: ``int | None``, not ``'int | None'``."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _signature(target: Callable[..., Any]) -> str:
    """The signature with every annotation as plain text (string annotations unquoted), so it
    reads the same whether or not a module postpones its annotations."""
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):  # a builtin without a signature
        return "(...)"
    empty = inspect.Parameter.empty
    parameters = [
        p if p.annotation is empty else p.replace(annotation=_Plain(_annotation(p.annotation)))
        for p in signature.parameters.values()
    ]
    returned = signature.return_annotation
    plain = signature.replace(
        parameters=parameters,
        return_annotation=returned if returned is empty else _Plain(_annotation(returned)),
    )
    return _clean(str(plain))


def _home(value: object) -> str | None:
    """``module.qualname`` of a class or function, or ``None`` for other values."""
    module = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str):
        return f"{module}.{qualname}"
    return None


def _exported_at_home(value: object, exports: dict[str, set[str]]) -> str | None:
    """The home of a re-exported class or function, when its home module is one of those
    rendered and lists it in ``__all__``: the detail is written there."""
    home = _home(value)
    module = getattr(value, "__module__", "")
    qualname = getattr(value, "__qualname__", "")
    if home is None or "." in qualname or qualname not in exports.get(module, set()):
        return None
    return home


def _own_constructor(cls: type) -> bool:
    """Whether a class's ``__init__``/``__new__`` is written by the library (or generated for
    it by attrs) rather than inherited from Python itself, whose signatures differ between
    Python versions."""
    for klass in cls.__mro__:
        if "__init__" in vars(klass) or "__new__" in vars(klass):
            return klass.__module__.startswith(cls.__module__.split(".")[0])
    return False


def _member_lines(cls: type) -> list[str]:
    """The class's own public members (not inherited ones, which their own class lists)."""
    lines: list[str] = []
    fields = {field.name for field in attrs.fields(cls)} if attrs.has(cls) else set()
    if attrs.has(cls):
        for field in attrs.fields(cls):
            if field.name.startswith("_"):
                continue
            default = "" if field.default is attrs.NOTHING else f" = {_default(field.default)}"
            kind = " (keyword only)" if field.kw_only else ""
            written = _written_annotation(cls, field.name, field.type)
            lines.append(f"    field {field.name}: {_annotation(written)}{default}{kind}")
    if isinstance(cls, enum.EnumMeta):
        members: list[enum.Enum] = list(cls)
        lines += [f"    member {m.name} = {_clean(repr(m.value))}" for m in members]
    for name, value in sorted(vars(cls).items()):
        if (
            name.startswith("_")
            or name in fields
            or (isinstance(cls, enum.EnumMeta) and name in cls.__members__)
        ):
            continue
        lines.append("    " + _member(name, value))
    return lines


def _written_annotation(cls: type, name: str, resolved: object) -> object:
    """A field's annotation as its class wrote it: attrs (and cattrs, on first use) may resolve
    a field's ``type`` in place, so the snapshot would depend on what ran before it."""
    for klass in cls.__mro__:
        written = vars(klass).get("__annotations__", {}).get(name)
        if written is not None:
            return written
    return resolved


def _default(value: object) -> str:
    factory = getattr(value, "factory", None)
    if type(value).__name__ == "Factory" and callable(factory):
        return f"Factory({getattr(factory, '__qualname__', repr(factory))})"
    return _clean(repr(value))


def _annotation(annotation: object) -> str:
    if annotation is None or annotation is type(None):
        return "None"
    if isinstance(annotation, str):
        return annotation
    if isinstance(annotation, ForwardRef):
        return annotation.__forward_arg__
    if isinstance(annotation, type):
        return annotation.__qualname__
    return _clean(repr(annotation)).replace("typing.", "")


def _member(name: str, value: object) -> str:
    if isinstance(value, staticmethod):
        return f"staticmethod {name}{_signature(value.__func__)}"
    if isinstance(value, classmethod):
        return f"classmethod {name}{_signature(value.__func__)}"
    if isinstance(value, property):
        return f"property {name}" + (f" -> {_return(value.fget)}" if value.fget is not None else "")
    if inspect.isfunction(value):
        return f"method {name}{_signature(value)}"
    if isinstance(value, type):
        return f"class {name}"
    if inspect.ismemberdescriptor(value):
        return f"slot {name}"
    if type(value).__name__ == "_tuplegetter":  # a NamedTuple's field
        return f"field {name}"
    if callable(value):  # e.g. a functools.cached_property or a descriptor of attrs
        return f"attribute {name}: {type(value).__name__}"
    return f"attribute {name}: {_value(value)}"


def _return(function: Callable[..., Any]) -> str:
    annotation = inspect.signature(function).return_annotation
    return "?" if annotation is inspect.Signature.empty else _annotation(annotation)


def _value(value: object) -> str:
    """A constant: its type, and its value when it is short and plain."""
    kind = type(value).__name__
    if isinstance(value, _SCALARS) and not isinstance(value, enum.Enum):
        text = _clean(repr(value))
        if len(text) <= _LONGEST_VALUE:
            return f"{kind} = {text}"
    if isinstance(value, tuple | frozenset | dict | list):
        return f"{kind} of {len(value)}"
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}.{value.name}"
    return kind


def _class_line(name: str, cls: type) -> str:
    bases = ", ".join(
        base.__qualname__
        if base.__module__ == "builtins"
        else f"{base.__module__}.{base.__qualname__}"
        for base in cls.__bases__
        if base is not object
    )
    head = f"class {name}" + (f"({bases})" if bases else "")
    if _own_constructor(cls) and not isinstance(cls, enum.EnumMeta):
        head += f" {_signature(cls)}"
    return head


def _name_lines(name: str, value: object, exports: dict[str, set[str]], module: str) -> list[str]:
    if isinstance(value, ModuleType):
        return [f"  module {name} = {value.__name__}"]
    home = _exported_at_home(value, exports)
    if home is not None and home != f"{module}.{name}":
        return [f"  {'class' if isinstance(value, type) else 'function'} {name} = {home}"]
    if isinstance(value, type):
        return ["  " + _class_line(name, value), *_member_lines(value)]
    if inspect.isfunction(value) or inspect.isbuiltin(value):
        return [f"  function {name}{_signature(value)}"]
    if callable(value) and hasattr(value, "__wrapped__"):  # e.g. functools.singledispatch
        return [f"  function {name}{_signature(value)}"]
    if isinstance(value, UnionType) or getattr(value, "__module__", None) == "typing":
        return [f"  type {name} = {_annotation(value)}"]
    if name == "__version__":  # the release number changes at every release, not the API
        return [f"  value {name}: {type(value).__name__}"]
    return [f"  value {name}: {_value(value)}"]


def render(modules: Iterable[ModuleType]) -> str:
    """The snapshot text of ``modules``: each module's ``__all__`` in name order, the modules in
    name order. A module without ``__all__`` is written with the line ``  (no __all__)``, and a
    name in ``__all__`` that the module lacks with ``  MISSING name``, so that either shows in
    the diff."""
    listed = sorted(modules, key=lambda module: module.__name__)
    exports = {module.__name__: set(getattr(module, "__all__", ())) for module in listed}
    out: list[str] = []
    for module in listed:
        out.append(f"[{module.__name__}]")
        names: Sequence[str] | None = getattr(module, "__all__", None)
        if names is None:
            out.append("  (no __all__)")
            continue
        for name in sorted(set(names)):
            if not hasattr(module, name):
                out.append(f"  MISSING {name}")
                continue
            out.extend(_name_lines(name, getattr(module, name), exports, module.__name__))
    return "\n".join(out) + "\n"


def compare(recorded: str, live: str) -> list[str]:
    """The unified diff from the recorded snapshot to the live one (``-`` a line that went,
    ``+`` one that came); empty when they agree."""
    return list(
        difflib.unified_diff(
            recorded.splitlines(), live.splitlines(), "recorded", "live", lineterm="", n=1
        )
    )
