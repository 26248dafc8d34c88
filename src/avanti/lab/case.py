"""A rules question as a value: a game, a position, two readings and the commands to play.

A :class:`Case` is what the rules lab works on. Its position is written in the format the
library reads: ``setup`` holds the fields of the game's setup that differ from a fresh game's
(a ``scenario`` where the game has one, as its ``dumps`` writes it, and any other setup field,
such as whose turn is first), and each :class:`Reading` the fields of the game's options it
changes. The commands are in the game's notation, each optionally led by the number of the seat
that gives it (``"1: pass"``). ``outcomes`` names, for a random draw the game declares (its
:class:`~avanti.core.labform.Outcome`, such as a die), the results wanted next, in order: the
lab then plays the first seed from ``seed`` on whose generator gives them.

A case reads and writes itself as JSON (:meth:`Case.to_json`, :meth:`Case.from_json`) and as
a URL fragment (:meth:`Case.to_fragment`, :meth:`Case.from_fragment`: base64url of the compact
JSON, at most :data:`MAX_FRAGMENT` characters). Reading either is strict: a key that is not
known, a value of the wrong type or a case too large is refused with
:class:`~avanti.core.errors.DecodeError` naming its JSON path.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import field, frozen

from avanti.core.codec import JSONValue, parse_json
from avanti.core.errors import DecodeError

__all__ = ["MAX_COMMANDS", "MAX_FRAGMENT", "Case", "Reading"]

MAX_COMMANDS = 200
"""The most commands one case plays under each reading."""
MAX_FRAGMENT = 16_384
"""The longest URL fragment a case is read from or written to, in characters (a link must fit
in a browser's address bar and a forum post)."""
_MAX_TEXT = 200
"""The longest name, question or command text in a case."""
MAX_OUTCOMES = 20
"""The most results a case names for one random draw (a game's outcome may allow fewer)."""


def _frozen_json(value: Any) -> Any:
    """A JSON value with every list made a tuple, so that a case compares and hashes as a value."""
    if isinstance(value, list | tuple):
        return tuple(_frozen_json(item) for item in value)
    if isinstance(value, Mapping):
        return _Object((key, _frozen_json(item)) for key, item in value.items())
    return value


def _thawed(value: Any) -> JSONValue:
    """The plain JSON value (lists and dicts) of a frozen one."""
    if isinstance(value, tuple):
        return [_thawed(item) for item in value]
    if isinstance(value, _Object):
        return {key: _thawed(item) for key, item in value.items()}
    return value


class _Object(dict[str, Any]):
    """A JSON object that hashes (a case is a value); never changed after it is built."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]  # immutable by convention
        return hash(tuple(sorted(self.items())))


def _object(value: Mapping[str, Any]) -> Mapping[str, Any]:
    frozen_value: Mapping[str, Any] = _frozen_json(dict(value))
    return frozen_value


def _strings(values: Sequence[str]) -> tuple[str, ...]:
    return tuple(values)


@frozen
class Reading:
    """One reading of the rules: a name to show and the option fields it sets.

    ``options`` maps fields of the game's options (its setup's ``options``) to their JSON
    values; a field left out keeps the library's reading.
    """

    name: str
    options: Mapping[str, Any] = field(factory=dict, converter=_object)

    def to_data(self) -> dict[str, JSONValue]:
        """The reading as a JSON object."""
        return {"name": self.name, "options": _thawed(self.options)}


@frozen
class Case:
    """A rules question: ``game`` (its catalog name), the players, the seed, the position
    (``setup``: the setup fields that differ from a fresh game's), two readings, and the
    commands played under both, in the game's notation. ``question`` says in words what is
    asked; it names the test a case is written out as. ``outcomes`` maps a random draw of the
    game (an outcome its lab form declares) to the results wanted next, in order; the seed is
    then where the lab starts looking for a seed that gives them.
    """

    game: str
    players: tuple[str, ...] = field(converter=_strings)
    readings: tuple[Reading, Reading]
    commands: tuple[str, ...] = field(default=(), converter=_strings)
    setup: Mapping[str, Any] = field(factory=dict, converter=_object)
    seed: int = 1
    question: str = ""
    outcomes: Mapping[str, tuple[str, ...]] = field(factory=dict, converter=_object)

    def to_data(self) -> dict[str, JSONValue]:
        """The case as a JSON object (what :meth:`from_data` reads)."""
        return {
            "game": self.game,
            "question": self.question,
            "players": list(self.players),
            "seed": self.seed,
            "setup": _thawed(self.setup),
            "readings": [reading.to_data() for reading in self.readings],
            "commands": list(self.commands),
            **({"outcomes": _thawed(self.outcomes)} if self.outcomes else {}),
        }

    def to_json(self, *, indent: int | None = None) -> str:
        """The case as JSON text: compact, or indented by ``indent`` spaces."""
        separators = (",", ":") if indent is None else (",", ": ")
        return json.dumps(self.to_data(), indent=indent, separators=separators)

    def to_fragment(self) -> str:
        """The case as a URL fragment: base64url of its compact JSON, without padding.

        :raises DecodeError: the case is longer than ``MAX_FRAGMENT`` characters
            as a link.
        """
        text = base64.urlsafe_b64encode(self.to_json().encode()).decode().rstrip("=")
        if len(text) > MAX_FRAGMENT:
            raise DecodeError(
                (f"the case is {len(text)} characters as a link, more than {MAX_FRAGMENT} @ $",)
            )
        return text

    @classmethod
    def from_fragment(cls, fragment: str) -> Case:
        """Read a case from a URL fragment (a leading ``#`` is allowed).

        :raises DecodeError: the fragment is too long, not base64url, or not a case.
        """
        text = fragment.removeprefix("#")
        if len(text) > MAX_FRAGMENT:
            raise DecodeError((f"a case link holds at most {MAX_FRAGMENT} characters @ $",))
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        except (binascii.Error, ValueError):
            raise DecodeError(("the link's fragment is not base64url @ $",)) from None
        return cls.from_json(raw)

    @classmethod
    def from_json(cls, text: str | bytes) -> Case:
        """Read a case from JSON text.

        :raises DecodeError: the text is not JSON or not a case (every problem with its path).
        """
        return cls.from_data(parse_json(text))

    @classmethod
    def from_data(cls, data: JSONValue) -> Case:
        """Read a case from a JSON value; strict: unknown keys and wrong types are refused.

        :raises DecodeError: each problem found, with its JSON path.
        """
        problems: list[str] = []
        if not isinstance(data, dict):
            raise DecodeError(("a case must be a JSON object @ $",))
        known = {"game", "question", "players", "seed", "setup", "readings", "commands", "outcomes"}
        problems += [f"unknown key {key[:40]!r} @ $.{key[:40]}" for key in data if key not in known]
        game = _text(data.get("game"), "$.game", problems)
        question = _text(data.get("question", ""), "$.question", problems)
        players = _texts(data.get("players"), "$.players", 6, problems)
        seed = data.get("seed", 1)
        if type(seed) is not int or not -(2**127) < seed < 2**127:
            problems.append("the seed must be an integer of at most 127 bits @ $.seed")
        setup = data.get("setup", {})
        if not isinstance(setup, dict):
            problems.append("the setup must be a JSON object @ $.setup")
        commands = _texts(data.get("commands", []), "$.commands", MAX_COMMANDS, problems)
        outcomes = data.get("outcomes", {})
        if not isinstance(outcomes, dict) or len(outcomes) > 8:
            problems.append("the outcomes must be a JSON object of at most 8 draws @ $.outcomes")
            outcomes = {}
        wanted = {
            key[:40]: _texts(value, f"$.outcomes.{key[:40]}", MAX_OUTCOMES, problems)
            for key, value in outcomes.items()
        }
        readings = data.get("readings")
        pair: list[Reading] = []
        if not isinstance(readings, list) or len(readings) != 2:
            problems.append("a case has exactly two readings @ $.readings")
        else:
            for index, reading in enumerate(readings):
                path = f"$.readings[{index}]"
                if not isinstance(reading, dict) or set(reading) - {"name", "options"}:
                    problems.append(f"a reading is an object of name and options @ {path}")
                    continue
                name = _text(reading.get("name"), f"{path}.name", problems)
                options = reading.get("options", {})
                if not isinstance(options, dict):
                    problems.append(f"a reading's options must be a JSON object @ {path}.options")
                    continue
                pair.append(Reading(name, options))
        if problems:
            raise DecodeError(tuple(problems))
        return cls(
            game,
            players,
            (pair[0], pair[1]),
            commands,
            setup,
            seed,
            question,
            wanted,
        )


def _text(value: object, path: str, problems: list[str]) -> str:
    if not isinstance(value, str) or len(value) > _MAX_TEXT:
        problems.append(f"expected a text of at most {_MAX_TEXT} characters @ {path}")
        return ""
    return value


def _texts(value: object, path: str, most: int, problems: list[str]) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > most:
        problems.append(f"expected a list of at most {most} texts @ {path}")
        return ()
    return tuple(_text(item, f"{path}[{index}]", problems) for index, item in enumerate(value))
