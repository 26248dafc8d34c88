"""Helpers for frozen attrs values on hot paths."""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import Any, Generic, TypeVar

import attrs

__all__ = ["Replacer"]

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
