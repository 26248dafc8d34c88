"""A request's fields as the protocol declares them: the check of each (its bounds, its
lengths, the values allowed), which refuses a value when the request is read and states the
same rule in JSON Schema, the checks of a whole request, and each field's type on the wire.

The requests (:mod:`avanti.server.protocol.requests`) declare their fields with these; the
schemas (:mod:`avanti.server.protocol.schema`) read the same declarations, so a request's reader
and its JSON Schema cannot say two things.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Callable
from typing import Any, get_type_hints

import attrs

from avanti.core.codec import JSONValue

__all__ = [
    "SERVER_ONLY",
    "WIRE",
    "Bounds",
    "Check",
    "ExactlyOne",
    "OneOf",
    "Text",
    "Unfit",
    "wire_fields",
]

WIRE = "avanti.wire"
"""A field's ``metadata`` key: the field's type on the wire, where it is not the field's own
(the class reads such a field in its ``from_wire``)."""

SERVER_ONLY = "avanti.server-only"
"""A field's ``metadata`` key: ``True`` for a field the server sets, never read from the wire
and left out of the schema."""


class Unfit(ValueError):
    """A field's value that its :class:`Check` refuses: ``name`` is the field's."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name!r} is out of its bounds")
        self.name = name


class Check(abc.ABC):
    """An attrs validator of a field that also states itself in JSON Schema.

    It refuses a value for which :meth:`holds` is false with :class:`Unfit` (``None``, the
    absence of an optional field, is never refused), and :attr:`keywords` are the JSON Schema
    keywords of the same rule, which a request's schema gives the field's (non-null) type.
    """

    def __call__(self, instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        """Refuse ``value`` (attrs calls this as the field's validator)."""
        if value is not None and not self.holds(value):
            raise Unfit(attribute.name)

    @abc.abstractmethod
    def holds(self, value: Any) -> bool:
        """Whether ``value`` keeps the rule."""

    @property
    @abc.abstractmethod
    def keywords(self) -> dict[str, JSONValue]:
        """The rule as JSON Schema keywords."""


@attrs.frozen
class Bounds(Check):
    """A number from ``minimum`` to ``maximum`` (both kept; ``None``: no bound)."""

    minimum: float | None = None
    """The least value allowed."""
    maximum: float | None = None
    """The greatest value allowed."""

    def holds(self, value: Any) -> bool:
        """Whether ``value`` is within the bounds (a NaN never is)."""
        low = self.minimum if self.minimum is not None else value
        high = self.maximum if self.maximum is not None else value
        return bool(low <= value <= high)

    @property
    def keywords(self) -> dict[str, JSONValue]:
        """``minimum`` and ``maximum``."""
        found: dict[str, JSONValue] = {}
        if self.minimum is not None:
            found["minimum"] = self.minimum
        if self.maximum is not None:
            found["maximum"] = self.maximum
        return found


@attrs.frozen
class Text(Check):
    """A string of ``minimum`` to ``maximum`` characters, printable ones only if ``printable``
    (:meth:`str.isprintable`: the schema states the part JSON Schema can, no control
    characters)."""

    minimum: int = 0
    """The fewest characters."""
    maximum: int | None = None
    """The most characters (``None``: no limit)."""
    printable: bool = False
    """Whether every character must be printable."""

    def holds(self, value: Any) -> bool:
        """Whether ``value`` has a length within the bounds (and only printable characters)."""
        most = len(value) if self.maximum is None else self.maximum
        return bool(
            self.minimum <= len(value) <= most and (not self.printable or value.isprintable())
        )

    @property
    def keywords(self) -> dict[str, JSONValue]:
        """``minLength``, ``maxLength`` and (printable) a ``pattern`` of no control character."""
        found: dict[str, JSONValue] = {}
        if self.minimum:
            found["minLength"] = self.minimum
        if self.maximum is not None:
            found["maxLength"] = self.maximum
        if self.printable:
            found["pattern"] = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
        return found


@attrs.frozen
class OneOf(Check):
    """One of the ``values``, or of those the callable ``values`` gives when it is asked (a
    catalog that grows)."""

    values: tuple[str, ...] | Callable[[], tuple[str, ...]]
    """The values allowed, or what gives them."""

    @property
    def allowed(self) -> tuple[str, ...]:
        """The values allowed now."""
        return self.values if isinstance(self.values, tuple) else self.values()

    def holds(self, value: Any) -> bool:
        """Whether ``value`` is one of the values allowed."""
        return value in self.allowed

    @property
    def keywords(self) -> dict[str, JSONValue]:
        """``enum``."""
        return {"enum": list(self.allowed)}


@attrs.frozen
class ExactlyOne:
    """A check of a whole request: exactly one of the fields ``names`` is given (not ``None``;
    a ``null`` on the wire is no value). A class lists its checks in its ``class_checks``."""

    names: tuple[str, ...]
    """The fields of which exactly one is given."""

    @property
    def message(self) -> str:
        """What a request that breaks the rule is told."""
        quoted = [f"'{name}'" for name in self.names]
        return f"send exactly one of {', '.join(quoted[:-1])} and {quoted[-1]}"

    def holds(self, instance: object) -> bool:
        """Whether exactly one of the fields of ``instance`` is given."""
        return sum(getattr(instance, name) is not None for name in self.names) == 1

    @property
    def keywords(self) -> dict[str, JSONValue]:
        """A ``oneOf`` with one branch per field: that field is there and not ``null``."""
        return {
            "oneOf": [
                {"required": [name], "properties": {name: {"not": {"type": "null"}}}}
                for name in self.names
            ]
        }


def wire_fields(t: type) -> tuple[tuple[attrs.Attribute[Any], Any], ...]:
    """The fields of the attrs class ``t`` that are on the wire, each with its wire type."""
    return _wire_fields(t)


@functools.cache
def _wire_fields(t: type) -> tuple[tuple[attrs.Attribute[Any], Any], ...]:
    hints = get_type_hints(t)
    return tuple(
        (field, field.metadata.get(WIRE, hints[field.name]))
        for field in attrs.fields(t)
        if not field.metadata.get(SERVER_ONLY)
    )
