"""The rules of Avanti mare!: start, decide, evolve, legal commands, outcome and cause.

``decide`` checks a command and works out every consequence as events; ``evolve`` only writes
those events into the state. Rule ids (M1-M9) are those of ``RULES-mare.md``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import Any

from avanti import core
from avanti.core import CoreReason, InvalidSetup, refuse
from avanti.core.limits import names_problem
from avanti.mare.commands import Command, MoveFish, Roll, SkipMove
from avanti.mare.events import (
    DieRolled,
    Event,
    FishCaught,
    FishChosen,
    FishFreed,
    FishSwam,
    GameEnded,
    MoveDeclined,
    MoveOffered,
    PieceRemoved,
    RollIgnored,
    TurnPassed,
)
from avanti.mare.scenario import check_scenario
from avanti.mare.setup import (
    CAUGHT,
    FACES,
    FISH,
    MAX_BOAT_FACES,
    MAX_PLAYERS,
    MAX_SEED,
    PIECES,
    SEA,
    START,
    CaughtFishRoll,
    Face,
    Fish,
    FreeFishRoll,
    Options,
    Setup,
    Side,
)
from avanti.mare.state import GameState, Outcome, Result, build_state

__all__ = [
    "MAX_PLAYERS",
    "Outcome",
    "Reason",
    "cause",
    "check_options",
    "check_setup",
    "decide",
    "evolve",
    "fold",
    "legal_commands",
    "outcome",
    "start",
    "waiting",
]


class Reason(enum.StrEnum):
    """Why a command of Avanti mare! was refused, beside the core's :class:`~avanti.CoreReason`."""

    FISH_NOT_IN_RIVER = "fish-not-in-river"
    """``MoveFish`` names a fish that is free or caught: only a fish in the river may move (M6)."""
    MOVE_OWED = "move-owed"
    """``SkipMove`` while the options make the move after a free fish's colour owed
    (:attr:`~avanti.mare.Options.free_fish_move_owed`): it must be made (M6, M9)."""


# -- setup ---------------------------------------------------------------------------------------


def _shown(value: object) -> str:
    """A number for a message: a small ``int`` as it is, anything else by its kind only.

    Setups come from untrusted documents: a message never repeats a long value (an ``int`` of
    thousands of digits cannot even be written out) or a text.
    """
    if type(value) is int:
        return str(value) if -1000 < value < 1000 else f"an int of {value.bit_length()} bits"
    return f"a {type(value).__name__}"


def check_setup(setup: Setup) -> None:
    """Raise :class:`InvalidSetup` naming the rule when ``setup`` does not fit M2, M3 or M9.

    M2: 1 to :data:`~avanti.mare.MAX_PLAYERS` players, whose names pass
    :func:`avanti.core.limits.names_problem` (1 to 40 printable characters, no space at either
    end, all different, compared exactly: ``"Ann"`` and ``"ann"`` are two players); one side each;
    a first seat at the table. M3: a seed strictly between ``-MAX_SEED`` and
    :data:`~avanti.mare.MAX_SEED`. M9: the options (:func:`check_options`).

    Every size is checked before anything is read item by item, and no message repeats a name,
    the seed or any other value given: it names the field, the seat and the kind of value.
    """
    if type(setup) is not Setup:
        raise InvalidSetup(
            f"a setup must be an avanti.mare.Setup, not {type(setup).__name__}", rule="M2"
        )
    players = setup.players
    if type(players) is tuple and not 1 <= len(players) <= MAX_PLAYERS:
        raise InvalidSetup(
            f"Avanti mare! takes 1 to {MAX_PLAYERS} players, got {len(players)}", rule="M2"
        )
    problem = names_problem(players)
    if problem is not None:
        raise InvalidSetup(problem, rule="M2")
    sides = setup.sides
    if type(sides) is not tuple:
        raise InvalidSetup(
            f"sides must be a tuple of Side values, not {type(sides).__name__}", rule="M2"
        )
    if len(sides) != len(players):
        raise InvalidSetup(
            f"each of the {len(players)} players needs a side, got {len(sides)} sides", rule="M2"
        )
    if not all(type(side) is Side for side in sides):
        raise InvalidSetup("sides must be a tuple of Side values", rule="M2")
    first = setup.first
    if type(first) is not int or not 0 <= first < len(players):
        raise InvalidSetup(
            f"the first seat must be from 0 to {len(players) - 1}, got {_shown(first)}", rule="M2"
        )
    seed = setup.seed
    if type(seed) is not int:
        raise InvalidSetup(f"the seed must be an int, not {type(seed).__name__}", rule="M3")
    if not -MAX_SEED < seed < MAX_SEED:
        raise InvalidSetup(
            "the seed must lie strictly between -2**128 and 2**128 (MAX_SEED)", rule="M3"
        )
    check_options(setup.options)


def check_options(options: Options) -> None:
    """Raise :class:`InvalidSetup` naming M9 when ``options`` are not a reading of the rules.

    ``boat_faces`` is a tuple of at most :data:`~avanti.mare.MAX_BOAT_FACES` distinct fishers'
    faces (red, green; its length is checked first); the other fields hold members of their enums
    and a ``bool``. :func:`check_setup` calls it, and so do :func:`avanti.mare.odds`,
    :func:`avanti.mare.choose` and :func:`avanti.mare.simulate` before they build or cache
    anything for the options.
    """
    if type(options) is not Options:
        raise InvalidSetup(
            f"options must be an avanti.mare.Options, not {type(options).__name__}", rule="M9"
        )
    faces = options.boat_faces
    if type(faces) is not tuple:
        raise InvalidSetup(
            f"boat_faces must be a tuple of die faces, not {type(faces).__name__}", rule="M9"
        )
    if len(faces) > MAX_BOAT_FACES:
        raise InvalidSetup(
            f"boat_faces names at most {MAX_BOAT_FACES} faces (red, green), got {len(faces)}",
            rule="M9",
        )
    if not all(type(face) is Face for face in faces):
        raise InvalidSetup("boat_faces must be a tuple of die faces", rule="M9")
    if any(face.fish is not None for face in faces) or len(set(faces)) != len(faces):
        raise InvalidSetup("boat_faces must be distinct fishers' faces (red, green)", rule="M9")
    if type(options.caught_fish_roll) is not CaughtFishRoll:
        raise InvalidSetup("caught_fish_roll must be a CaughtFishRoll", rule="M9")
    if type(options.free_fish_roll) is not FreeFishRoll:
        raise InvalidSetup("free_fish_roll must be a FreeFishRoll", rule="M9")
    if type(options.free_fish_move_owed) is not bool:
        raise InvalidSetup("free_fish_move_owed must be True or False", rule="M9")


def start(setup: Setup) -> tuple[GameState, tuple[Event, ...]]:
    """The state before the first roll (M1: every fish on the middle piece, or the setup's
    :class:`~avanti.mare.Scenario`); no opening events."""
    check_setup(setup)
    scenario = setup.scenario
    if scenario is not None:
        check_scenario(scenario)
    state = GameState(
        sides=setup.sides,
        options=setup.options,
        boat=0 if scenario is None else scenario.boat,
        fish=(START,) * len(FISH) if scenario is None else scenario.fish,
        turn=setup.first,
        move_due=False,
        result=None,
        rng=core.Rng(setup.seed),
    )
    return state, ()


# -- decide --------------------------------------------------------------------------------------


def decide(state: GameState, command: Command) -> tuple[Event, ...]:
    """The events ``command`` causes in ``state``.

    The core has checked the command's form (a ``Roll``, ``MoveFish`` or ``SkipMove`` with an
    ``int`` seat, and a ``Fish``).

    :raises IllegalCommand: the game is over (M8), the seat is not at the table or not on turn
        (M2), a roll is made while a move is offered, or a ``MoveFish`` or ``SkipMove`` while none
        is (M6), the fish named is not in the river (M6), or a ``SkipMove`` declines a move the
        options make owed (M6, M9).
    """
    if state.result is not None:
        refuse(CoreReason.GAME_OVER, "the game is over: no fish is left in the river", rule="M8")
    seat = command.seat
    if not 0 <= seat < state.seats:
        message = f"there is no seat {seat!r}: the seats are 0 to {state.seats - 1}"
        refuse(CoreReason.NO_SUCH_SEAT, message, rule="M2", command=command)
    if seat != state.turn:
        message = f"it is seat {state.turn}'s turn, not {seat}'s"
        refuse(CoreReason.NOT_YOUR_TURN, message, rule="M2", command=command)
    if isinstance(command, Roll):
        if state.move_due:
            owed = state.options.free_fish_move_owed
            message = (
                f"seat {seat} rolled a free fish's colour and must first move another fish"
                + ("" if owed else " or decline the move")
            )
            refuse(CoreReason.WRONG_PHASE, message, rule="M6", command=command)
        face = FACES[state.rng.stream().below(len(FACES))]
        return (DieRolled(seat, face), *_roll_consequences(state, seat, face))
    if isinstance(command, SkipMove):
        return _decline(state, command)
    if not state.move_due:
        message = "a fish may be moved by choice only right after rolling a free fish's colour"
        refuse(CoreReason.WRONG_PHASE, message, rule="M6", command=command)
    fish = command.fish
    place = state.place(fish)
    if not CAUGHT < place < SEA:
        where = "free in the sea" if place == SEA else "caught"
        message = f"the {fish} fish is {where}; only a fish still in the river may be moved"
        refuse(Reason.FISH_NOT_IN_RIVER, message, rule="M6", command=command)
    return (FishChosen(seat, fish), *_swim(state, seat, fish))


def _decline(state: GameState, command: SkipMove) -> tuple[Event, ...]:
    """M6: the roller "may" move another fish, so may also leave every fish where it is."""
    if not state.move_due:
        message = "a move may be declined only right after rolling a free fish's colour"
        refuse(CoreReason.WRONG_PHASE, message, rule="M6", command=command)
    if state.options.free_fish_move_owed:
        message = (
            f"the move is owed under these options (free_fish_move_owed): seat {command.seat} "
            "must move another fish"
        )
        refuse(Reason.MOVE_OWED, message, rule="M6", command=command)
    # A move is offered only while a fish is in the river (M8), so the game goes on.
    return (MoveDeclined(command.seat), TurnPassed((command.seat + 1) % state.seats))


def _roll_consequences(state: GameState, seat: int, face: Face) -> tuple[Event, ...]:
    """M4-M7, M9: the events a rolled face causes after the ``DieRolled``."""
    options = state.options
    fish = face.fish
    if fish is None:
        if face in options.boat_faces:
            return _remove_piece(state, seat)  # M5
        return _ignore(state, seat, face, again=False)  # M9
    place = state.place(fish)
    if CAUGHT < place < SEA:
        return _swim(state, seat, fish)  # M4
    if place == CAUGHT:  # M7
        if options.caught_fish_roll is CaughtFishRoll.BOAT:
            return _remove_piece(state, seat)
        again = options.caught_fish_roll is CaughtFishRoll.REROLL
        return _ignore(state, seat, face, again=again)
    if options.free_fish_roll is FreeFishRoll.OTHER_FISH:  # M6
        return (MoveOffered(seat, fish),)
    return _ignore(state, seat, face, again=options.free_fish_roll is FreeFishRoll.REROLL)


def _swim(state: GameState, seat: int, fish: Fish) -> tuple[Event, ...]:
    """M4: one piece toward the sea; from piece 11 into the sea."""
    place = state.place(fish)
    places = list(state.fish)
    places[fish.slot] = place + 1
    moved: Event = FishFreed(fish) if place == PIECES else FishSwam(fish, place + 1)
    return (moved, _close(state, seat, places))


def _remove_piece(state: GameState, seat: int) -> tuple[Event, ...]:
    """M5: take the piece in front of the boat; every fish on it is caught."""
    piece = state.boat + 1
    events: list[Event] = [PieceRemoved(piece)]
    places = list(state.fish)
    for index, place in enumerate(places):
        if place == piece:
            events.append(FishCaught(FISH[index], piece))
            places[index] = CAUGHT
    events.append(_close(state, seat, places))
    return tuple(events)


def _ignore(state: GameState, seat: int, face: Face, *, again: bool) -> tuple[Event, ...]:
    """M9: a face the options ignore; with ``again`` the roller rolls again, else play passes on."""
    ignored = RollIgnored(seat, face, again)
    return (ignored,) if again else (ignored, TurnPassed((seat + 1) % state.seats))


def _close(state: GameState, seat: int, places: list[int]) -> Event:
    """M8: the game ends once no fish is left in the river; otherwise the next seat rolls."""
    if any(CAUGHT < place < SEA for place in places):
        return TurnPassed((seat + 1) % state.seats)
    free = places.count(SEA)
    caught = places.count(CAUGHT)
    return GameEnded(Result.of(free, caught), free, caught)


# -- evolve --------------------------------------------------------------------------------------


def _with_fish(s: GameState, fish: Fish, place: int) -> GameState:
    places = list(s.fish)
    places[fish.slot] = place
    return build_state(
        sides=s.sides,
        options=s.options,
        boat=s.boat,
        fish=tuple(places),
        turn=s.turn,
        move_due=s.move_due,
        result=s.result,
        rng=s.rng,
    )


def _die_rolled(s: GameState, e: DieRolled) -> GameState:
    rng = s.rng.advanced()
    return build_state(
        sides=s.sides,
        options=s.options,
        boat=s.boat,
        fish=s.fish,
        turn=s.turn,
        move_due=False,
        result=s.result,
        rng=rng,
    )


def _fish_swam(s: GameState, e: FishSwam) -> GameState:
    return _with_fish(s, e.fish, e.piece)


def _fish_freed(s: GameState, e: FishFreed) -> GameState:
    return _with_fish(s, e.fish, SEA)


def _fish_caught(s: GameState, e: FishCaught) -> GameState:
    return _with_fish(s, e.fish, CAUGHT)


def _piece_removed(s: GameState, e: PieceRemoved) -> GameState:
    return build_state(
        sides=s.sides,
        options=s.options,
        boat=e.piece,
        fish=s.fish,
        turn=s.turn,
        move_due=s.move_due,
        result=s.result,
        rng=s.rng,
    )


def _move_offered(s: GameState, e: MoveOffered) -> GameState:
    return build_state(
        sides=s.sides,
        options=s.options,
        boat=s.boat,
        fish=s.fish,
        turn=e.seat,
        move_due=True,
        result=s.result,
        rng=s.rng,
    )


def _move_settled(s: GameState, e: FishChosen | MoveDeclined) -> GameState:
    """The M6 choice is made (a fish chosen, or the move declined): no move is due any more."""
    return build_state(
        sides=s.sides,
        options=s.options,
        boat=s.boat,
        fish=s.fish,
        turn=s.turn,
        move_due=False,
        result=s.result,
        rng=s.rng,
    )


def _turn_passed(s: GameState, e: TurnPassed) -> GameState:
    return build_state(
        sides=s.sides,
        options=s.options,
        boat=s.boat,
        fish=s.fish,
        turn=e.seat,
        move_due=False,
        result=s.result,
        rng=s.rng,
    )


def _game_ended(s: GameState, e: GameEnded) -> GameState:
    return build_state(
        sides=s.sides,
        options=s.options,
        boat=s.boat,
        fish=s.fish,
        turn=s.turn,
        move_due=False,
        result=e.result,
        rng=s.rng,
    )


def _roll_ignored(s: GameState, e: RollIgnored) -> GameState:
    return s


_EVOLVERS: dict[type, Callable[[GameState, Any], GameState]] = {
    DieRolled: _die_rolled,
    FishSwam: _fish_swam,
    FishFreed: _fish_freed,
    FishCaught: _fish_caught,
    PieceRemoved: _piece_removed,
    MoveOffered: _move_offered,
    FishChosen: _move_settled,
    MoveDeclined: _move_settled,
    TurnPassed: _turn_passed,
    GameEnded: _game_ended,
    RollIgnored: _roll_ignored,
}
"""One function per event type: a dictionary lookup instead of a ``match`` that tries each class
pattern in turn."""


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``. Trusts the event: checks nothing, draws nothing."""
    return _EVOLVERS[type(event)](state, event)


def fold(state: GameState, events: Iterable[Event]) -> GameState:
    """The state after every event in turn (``evolve`` over a log)."""
    evolvers = _EVOLVERS
    for event in events:
        state = evolvers[type(event)](state, event)
    return state


# -- queries -------------------------------------------------------------------------------------


def legal_commands(state: GameState) -> tuple[Command, ...]:
    """Every command ``decide`` accepts now: a ``Roll``; or, after a free fish's colour, a
    ``MoveFish`` per fish in the river and then ``SkipMove`` unless the move is owed (M6)."""
    if state.result is not None:
        return ()
    if state.move_due:
        seat = state.turn
        moves = tuple(MoveFish(seat, fish) for fish in state.in_river())
        return moves if state.options.free_fish_move_owed else (*moves, SkipMove(seat))
    return (Roll(state.turn),)


def waiting(state: GameState) -> tuple[int, ...]:
    """The seat on turn (M2), to roll or to move a fish (or decline); nobody once the game is over
    (M8)."""
    return () if state.result is not None else (state.turn,)


def outcome(state: GameState) -> Outcome | None:
    """The result of a finished game (M8), or ``None`` while fish still swim."""
    result = state.result
    if result is None:
        return None
    winner = result.winner
    winners = tuple(seat for seat, side in enumerate(state.sides) if side is winner)
    returns = tuple(1.0 if side is winner else 0.0 for side in state.sides)
    return Outcome(
        free=len(state.free()),
        caught=len(state.caught()),
        result=result,
        winner=winner,
        winners=winners,
        returns=returns,
    )


def cause(event: Event) -> Command | None:
    """The command ``event`` begins (``DieRolled``: a roll; ``FishChosen``: a move;
    ``MoveDeclined``: a declined move), else None."""
    if isinstance(event, DieRolled):
        return Roll(event.seat)
    if isinstance(event, FishChosen):
        return MoveFish(event.seat, event.fish)
    if isinstance(event, MoveDeclined):
        return SkipMove(event.seat)
    return None
