"""Helpers for frozen attrs values on hot paths, each generated once from a class's fields.

- :class:`Replacer` copies a frozen value with some fields replaced.
- :class:`DraftOf` is the base of a game's ``Draft``: a mutable working copy of its frozen state
  class whose ``__slots__``, ``__init__`` and ``freeze`` are generated from that class's fields,
  so the field list is written only on the state class (and once more as the draft's
  annotations, which the type checker needs and class creation checks against the state's).
- :func:`builder` builds a value from keywords, faster than calling its class with keywords (or
  even by position), so that wide values need not be built by position on a hot path.
"""

from __future__ import annotations

import inspect
import linecache
import sys
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any, Generic, ParamSpec, TypeVar, cast, get_args, get_origin

import attrs

__all__ = ["DraftOf", "Replacer", "builder"]

T = TypeVar("T", bound=attrs.AttrsInstance)


class Replacer(Generic[T]):
    """Copies of a frozen attrs class with some fields replaced, checking nothing.

    It reads every field at once and calls the constructor positionally, several times cheaper
    than :func:`attrs.evolve`, which is what a ruleset's ``evolve`` wants for every event.
    """

    __slots__ = ("_cls", "_get", "_index", "names")

    def __init__(self, cls: type[T]) -> None:
        self._cls = cls
        self.names: tuple[str, ...] = tuple(a.name for a in attrs.fields(cls))
        """The field names, in constructor order."""
        self._index = {name: index for index, name in enumerate(self.names)}
        self._get = attrgetter(*self.names)

    def __call__(self, value: T, changes: Mapping[str, Any]) -> T:
        """``value`` with the named fields replaced by ``changes``."""
        values = list(self._get(value))
        for name, new in changes.items():
            values[self._index[name]] = new
        return self._cls(*values)


class _DraftMeta(type):
    """Builds each subclass of :class:`DraftOf` from the fields of its state class.

    The slots have to be in the class namespace before the class exists, hence a metaclass (attrs
    builds a second class instead, for the same reason).
    """

    def __new__(
        mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any
    ) -> _DraftMeta:
        if not any(isinstance(base, _DraftMeta) for base in bases):  # DraftOf itself
            return super().__new__(mcs, name, bases, namespace, **kwargs)
        state_cls = _state_class(namespace.get("__orig_bases__", ()))
        if state_cls is None:
            raise TypeError(
                f"draft class {name} must subclass DraftOf[StateClass] directly, "
                "naming the frozen class it drafts"
            )
        names = _check_state_class(state_cls)
        for taken in ("__slots__", "__init__", "freeze"):
            if taken in namespace:
                raise TypeError(
                    f"draft class {name} must not define {taken}: DraftOf generates it from the "
                    f"fields of {state_cls.__qualname__}"
                )
        namespace["__slots__"] = names
        qualname = namespace.get("__qualname__", name)
        namespace.update(_generate(namespace["__module__"], qualname, state_cls, names))
        cls = super().__new__(mcs, name, bases, namespace, **kwargs)
        _check_annotations(cls, state_cls, names)
        return cls


S = TypeVar("S", bound=attrs.AttrsInstance)
P = ParamSpec("P")
R = TypeVar("R")


class DraftOf(Generic[S], metaclass=_DraftMeta):
    """A working copy of a frozen attrs state, changed field by field and frozen once at the end.

    Subclass it as ``class Draft(DraftOf[GameState])`` and annotate the same fields, with the same
    types and in the same order, as the state class: the annotations are what the type checker
    reads, and class creation refuses a draft whose annotations differ from the state's fields.
    The subclass gets, generated once from the state's fields:

    - ``__slots__``: one per field, no ``__dict__``;
    - ``__init__(state)``: copies every field of ``state``;
    - ``freeze()``: a new state with the draft's values, built by filling the new state's slots
      directly (``object.__new__`` and each slot's ``__set__``), which skips the attrs
      ``__init__``. The state class must therefore be slotted and have no validators, converters
      or pre/post-init hooks, which class creation checks too.

    The generated methods are plain attribute copies, as fast as written by hand. A draft holds
    the same immutable values as a state (tuples, never lists), lives inside one call and is
    never shared. Game-specific methods (queries, a ``but`` that changes the draft in place) are
    written in the subclass as usual.
    """

    __slots__: tuple[str, ...] = ()

    def __init__(self, state: S) -> None:  # replaced in every subclass
        raise TypeError("DraftOf is a base class: subclass DraftOf[StateClass]")

    def freeze(self) -> S:  # replaced in every subclass
        """The frozen state with the draft's values."""
        raise TypeError("DraftOf is a base class: subclass DraftOf[StateClass]")


def builder(cls: Callable[P, R]) -> Callable[P, R]:
    """A function that builds ``cls`` from keyword arguments, faster than calling the class.

    A call of a class with keywords packs them into a dict for its ``__init__``, which on a hot
    path costs more than the whole positional call (an 8-field state: about 40% more). The
    builder is generated once from ``cls``'s fields: a plain function taking every field as a
    keyword-only argument, named as ``cls.__init__`` names it, that fills the new value's slots
    directly, like a draft's ``freeze``. Called with keywords it is faster than the positional
    call of the class, and a reordering cannot swap two values. A type checker checks each call
    against ``cls``'s own signature. Like :class:`DraftOf` it needs a slotted attrs class without
    validators, converters or pre/post-init hooks; fields may have plain defaults, not factories.
    """
    if not isinstance(cls, type):
        raise TypeError(f"{cls!r} is not an attrs class")
    names = _check_state_class(cls)
    fields = attrs.fields(cls)
    factory: Any = attrs.Factory
    refused = [a.name for a in fields if not a.init or isinstance(a.default, factory)]
    if refused:
        raise TypeError(
            f"builder needs every field of {cls.__qualname__} set by keyword, with a plain "
            f"default if any: {refused} is not"
        )
    params = ", ".join(
        a.alias if a.default is attrs.NOTHING else f"{a.alias}=_default_{a.name}" for a in fields
    )
    source = "\n".join(
        [
            f"def build(*, {params}):",  # aliases never start with "_": no clash below
            "    _value = _new(_cls)",
            *(f"    _put_{a.name}(_value, {a.alias})" for a in fields),
            "    return _value",
            "",
        ]
    )
    defaults = {f"_default_{a.name}": a.default for a in fields if a.default is not attrs.NOTHING}
    doc = f"A new :class:`{cls.__name__}` from keyword arguments, one per field."
    name = f"build_{cls.__name__}"
    built = _compile(source, cls, names, defaults, cls.__module__, "", {"build": doc})["build"]
    built.__name__ = built.__qualname__ = name
    return cast("Callable[P, R]", built)


def _state_class(orig_bases: tuple[Any, ...]) -> type | None:
    """The ``X`` of a ``DraftOf[X]`` among a class statement's bases, if any."""
    for base in orig_bases:
        if isinstance(get_origin(base), _DraftMeta):
            (state_cls,) = get_args(base)
            if not isinstance(state_cls, type):
                raise TypeError(f"DraftOf needs a class, not {state_cls!r}")
            return state_cls
    return None


def _check_state_class(state_cls: type) -> tuple[str, ...]:
    """The field names of ``state_cls``, once it is checked that filling its slots directly
    (skipping its ``__init__``) builds the same value as calling it."""
    what = state_cls.__qualname__
    if not attrs.has(state_cls):
        raise TypeError(f"{what} is not an attrs class")
    fields = attrs.fields(state_cls)
    names = tuple(a.name for a in fields)
    steps = [
        f"{a.name} has a {kind}"
        for a in fields
        for kind, present in (("validator", a.validator), ("converter", a.converter))
        if present is not None
    ]
    steps += [
        hook for hook in ("__attrs_pre_init__", "__attrs_post_init__") if hasattr(state_cls, hook)
    ]
    if steps:
        raise TypeError(
            f"filling {what}'s slots directly skips {what}.__init__, but {what} has an init step: "
            + ", ".join(steps)
        )
    slots = {slot for c in state_cls.__mro__ for slot in c.__dict__.get("__slots__", ())}
    extra = slots - {*names, "__weakref__"}
    slotted = all(inspect.ismemberdescriptor(getattr(state_cls, n, None)) for n in names)
    if not slotted or extra:
        raise TypeError(
            f"filling {what}'s slots directly needs {what} slotted, with a slot for each field "
            f"and nothing else (extra: {sorted(extra)})"
        )
    return names


def _check_annotations(cls: type, state_cls: type, names: tuple[str, ...]) -> None:
    """Refuse a draft whose annotations are not the state's fields with the same types."""
    what, state = cls.__qualname__, state_cls.__qualname__
    annotations = inspect.get_annotations(cls)
    if tuple(annotations) != names:
        missing = [n for n in names if n not in annotations]
        extra = [n for n in annotations if n not in names]
        raise TypeError(
            f"the annotations of draft {what} must name the fields of {state}, in order: "
            f"missing {missing}, not fields {extra}"
            + ("" if missing or extra else ", names in another order")
        )
    types = {a.name: a.type for a in attrs.fields(state_cls)}
    wrong = [
        f"{n}: {annotations[n]} (the state has {types[n]})"
        for n in names
        if not _same_type(annotations[n], cls.__module__, types[n], state_cls.__module__)
    ]
    if wrong:
        raise TypeError(
            f"draft {what} annotates fields with other types than {state}: " + "; ".join(wrong)
        )


def _same_type(one: Any, one_module: str, other: Any, other_module: str) -> bool:
    """Whether two annotations, either possibly a string, name the same type."""
    if one == other:
        return True
    try:
        return bool(_resolved(one, one_module) == _resolved(other, other_module))
    except Exception:  # a name only the type checker sees: judged by the text alone
        return False


def _resolved(annotation: Any, module: str) -> Any:
    if not isinstance(annotation, str):
        return annotation
    return eval(annotation, dict(vars(sys.modules[module])))


def _generate(
    module: str, qualname: str, state_cls: type, names: tuple[str, ...]
) -> dict[str, Any]:
    """``__init__`` and ``freeze`` for a draft of ``state_cls``."""
    source = "\n".join(
        [
            "def __init__(self, state):",
            *(f"    self.{n} = state.{n}" for n in names),
            "",
            "def freeze(self):",
            "    state = _new(_cls)",
            *(f"    _put_{n}(state, self.{n})" for n in names),
            "    return state",
            "",
        ]
    )
    state = state_cls.__name__
    docs = {
        "__init__": f"A draft with every field of ``state``, a :class:`{state}`.",
        "freeze": f"A new frozen :class:`{state}` with the draft's values.",
    }
    return _compile(source, state_cls, names, {}, module, qualname, docs)


def _compile(
    source: str,
    cls: type,
    names: tuple[str, ...],
    extra: dict[str, Any],
    module: str,
    qualname: str,
    docs: dict[str, str],
) -> dict[str, Any]:
    """The functions named in ``docs``, compiled from ``source`` as attrs compiles its methods.

    The source may use ``_new`` (``object.__new__``), ``_cls`` (``cls``) and ``_put_<name>``
    (the ``__set__`` of the slot of each field in ``names``), besides the names in ``extra``.
    Compiled once, the functions run exactly as fast as the same lines written by hand, and
    tracebacks and ``inspect.getsource`` show their source.
    """
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, **extra}
    namespace.update({f"_put_{n}": getattr(cls, n).__set__ for n in names})
    filename = f"<generated {module}.{qualname}>"
    exec(compile(source, filename, "exec"), namespace)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    functions = {}
    for name, doc in docs.items():
        function = namespace[name]
        function.__module__ = module
        function.__qualname__ = f"{qualname}.{name}" if qualname else name
        function.__doc__ = doc
        functions[name] = function
    return functions
