"""The wire format is ready for stores that keep logs for years.

A command's or an event's ``type`` tag is written out explicitly per game, not taken from its
class name, so renaming a class leaves stored logs readable; and a single event type can change
shape from one format version to the next through its own upcaster.
"""

from __future__ import annotations

import json

import pytest
from attrs import frozen

from avanti import autorama, core, mare
from avanti.avanti.commands import COMMANDS as AVANTI_COMMANDS
from avanti.avanti.events import EVENTS as AVANTI_EVENTS
from avanti.core import DecodeError
from tests import toy


@frozen
class DieCast:
    """The toy's ``Rolled`` event under a new class name (a rename in a later release)."""

    seat: int
    pips: int


@frozen
class RolledWithDie:
    """The toy's ``Rolled`` event as a version 2 format has it: it names the die's size."""

    seat: int
    pips: int
    sides: int


def old_document() -> str:
    game = toy.new_game(["Ann", "Bob"], seed=3)
    for _ in range(4):
        game = game.execute(game.legal_commands()[0])
    return game.dumps()


def test_every_game_tags_its_commands_and_events_explicitly() -> None:
    for codec in (toy.CODEC, mare.CODEC, autorama.CODEC):
        assert set(codec.commands.values()) == set(codec.command_types)
        assert set(codec.events.values()) == set(codec.event_types)
    assert AVANTI_COMMANDS["PlayCard"].__name__ == "PlayCard"
    assert len(AVANTI_EVENTS) == 19
    # Today each tag is the class's name: documents written before tags were explicit load.
    for codec in (toy.CODEC, mare.CODEC, autorama.CODEC):
        for tag, cls in (*codec.commands.items(), *codec.events.items()):
            assert tag == cls.__name__


def test_a_renamed_event_class_still_reads_old_documents_through_its_tag() -> None:
    events = {**toy.EVENTS, "Rolled": DieCast}
    renamed: core.Codec[toy.Setup, toy.Command, object] = core.Codec(
        format="toy", version=1, setup_type=toy.Setup, commands=toy.COMMANDS, events=events
    )
    text = old_document()
    setup, read = renamed.loads(text)
    rolls = [e for e in read if isinstance(e, DieCast)]
    originals = [e for e in toy.loads(text).events if isinstance(e, toy.Rolled)]
    assert [(r.seat, r.pips) for r in rolls] == [(o.seat, o.pips) for o in originals]
    assert len(rolls) == 4  # the first legal command is always a roll
    # ... and writes the same tag back: the stored form does not change with the class name.
    assert json.loads(renamed.dumps(setup, read)) == json.loads(text)


def upgraded_codec() -> core.Codec[toy.Setup, toy.Command, object]:
    return core.Codec(
        format="toy",
        version=2,
        setup_type=toy.Setup,
        commands=toy.COMMANDS,
        events={**toy.EVENTS, "Rolled": RolledWithDie},
        event_upcasters={("Rolled", 1): lambda data: {**data, "sides": 6}},
    )


def test_a_per_event_upcaster_brings_one_event_type_forward() -> None:
    codec = upgraded_codec()
    text = old_document()
    _, read = codec.loads(text)
    rolls = [e for e in read if isinstance(e, RolledWithDie)]
    assert len(rolls) == 4  # the first legal command is always a roll
    assert {r.sides for r in rolls} == {6}
    other = [e for e in read if not isinstance(e, RolledWithDie)]
    assert other == [e for e in toy.loads(text).events if not isinstance(e, toy.Rolled)]
    # One event on its own (as an event store keeps them), with the version it was written at.
    assert codec.event_from_data({"type": "Rolled", "seat": 1, "pips": 4}, version=1) == (
        RolledWithDie(1, 4, 6)
    )
    assert codec.event_from_data({"type": "Rolled", "seat": 1, "pips": 4, "sides": 8}) == (
        RolledWithDie(1, 4, 8)
    )


def test_an_event_upcaster_that_fails_names_the_event() -> None:
    codec: core.Codec[toy.Setup, toy.Command, object] = core.Codec(
        format="toy",
        version=2,
        setup_type=toy.Setup,
        commands=toy.COMMANDS,
        events={**toy.EVENTS, "Rolled": RolledWithDie},
        event_upcasters={("Rolled", 1): lambda data: {**data, "sides": data["size"]}},
    )
    with pytest.raises(DecodeError) as refused:
        codec.loads(old_document())
    (message,) = refused.value.errors
    assert message.startswith(
        "cannot upgrade a version 1 Rolled event (missing key 'size') @ $.events["
    )
    with pytest.raises(DecodeError, match="'version' must be an integer from 1 to 2, got 3"):
        codec.event_from_data({"type": "Rolled", "seat": 1, "pips": 4}, version=3)
