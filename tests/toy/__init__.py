"""A tiny race game, used to test the core apart from any real game.

It is also the shortest complete example of a ruleset: setup, state, commands, events, decide,
evolve, legal commands, views with a hidden fact, redaction, outcome, notation, cause and a codec.
With its ``bots`` module it is a whole game package: ``tests/test_fourth_game.py`` adds it to the
catalog with one entry and plays it through the command line and the bots.

Rules: each player is dealt a secret bonus of 0-2 at the start. On your turn, ``Roll`` a die and
advance that many spaces; the first player to reach ``goal`` wins. ``Wait`` passes the turn.
"""

from __future__ import annotations

import enum

from attrs import frozen

from avanti import core
from avanti.core.limits import names_problem


class Reason(enum.StrEnum):
    """Toy-specific reasons."""

    TOO_FAR = "too-far"


@frozen
class Setup:
    players: tuple[str, ...]
    seed: int
    goal: int = 10


@frozen
class State:
    goal: int
    positions: tuple[int, ...]
    bonuses: tuple[int | None, ...]
    turn: int
    winner: int | None
    rng: core.Rng


@frozen
class Roll:
    seat: int


@frozen
class Wait:
    seat: int


Command = Roll | Wait


@frozen
class BonusDealt:
    seat: int
    bonus: int | None


@frozen
class Rolled:
    seat: int
    pips: int


@frozen
class Waited:
    seat: int


@frozen
class Won:
    seat: int


Event = BonusDealt | Rolled | Waited | Won


@frozen
class View:
    seat: int | None
    positions: tuple[int, ...]
    bonus: int | None
    turn: int


@frozen
class Outcome:
    winner: int
    winners: tuple[int, ...]
    returns: tuple[float, ...]


COMMANDS = {"Roll": Roll, "Wait": Wait}
EVENTS = {"BonusDealt": BonusDealt, "Rolled": Rolled, "Waited": Waited, "Won": Won}

CODEC: core.Codec[Setup, Command, Event] = core.Codec(
    format="toy",
    version=1,
    setup_type=Setup,
    commands=COMMANDS,
    events=EVENTS,
)


@frozen
class PublicSetup:
    """What every seat may know of a race: the players and the goal (not the seed)."""

    players: tuple[str, ...]
    goal: int


def public_setup(setup: Setup) -> PublicSetup:
    return PublicSetup(setup.players, setup.goal)


def start(setup: Setup) -> tuple[State, tuple[Event, ...]]:
    if not 1 <= len(setup.players) <= 4:
        raise core.InvalidSetup("the race takes 1 to 4 players", rule="T1")
    problem = names_problem(setup.players)
    if problem is not None:
        raise core.InvalidSetup(problem, rule="T1")
    n = len(setup.players)
    state = State(setup.goal, (0,) * n, (None,) * n, 0, None, core.Rng(setup.seed))
    events: list[Event] = []
    rng = state.rng
    for seat in range(n):
        events.append(BonusDealt(seat, rng.stream().below(3)))
        rng = rng.advanced()
    return state, tuple(events)


def decide(state: State, command: Command) -> tuple[Event, ...]:
    if state.winner is not None:
        core.refuse(core.CoreReason.GAME_OVER, "the race is over", rule="T3")
    if command.seat != state.turn:
        raise core.IllegalCommand(
            core.CoreReason.NOT_YOUR_TURN, f"it is seat {state.turn}'s turn", rule="T2"
        )
    if isinstance(command, Wait):
        return (Waited(command.seat),)
    pips = state.rng.stream().below(6) + 1
    events: tuple[Event, ...] = (Rolled(command.seat, pips),)
    if state.positions[command.seat] + pips >= state.goal:
        events += (Won(command.seat),)
    return events


def evolve(state: State, event: Event) -> State:
    n = len(state.positions)
    if isinstance(event, BonusDealt):
        bonuses = list(state.bonuses)
        bonuses[event.seat] = event.bonus
        return State(state.goal, state.positions, tuple(bonuses), 0, None, state.rng.advanced())
    if isinstance(event, Rolled):
        positions = list(state.positions)
        positions[event.seat] += event.pips
        return State(
            state.goal,
            tuple(positions),
            state.bonuses,
            (event.seat + 1) % n,
            None,
            state.rng.advanced(),
        )
    if isinstance(event, Waited):
        turn = (event.seat + 1) % n
        return State(state.goal, state.positions, state.bonuses, turn, None, state.rng)
    return State(state.goal, state.positions, state.bonuses, state.turn, event.seat, state.rng)


def legal_commands(state: State) -> tuple[Command, ...]:
    if state.winner is not None:
        return ()
    return (Roll(state.turn), Wait(state.turn))


def view(state: State, seat: int | None) -> View:
    own = seat is not None and 0 <= seat < len(state.bonuses)  # others see no bonus
    bonus = state.bonuses[seat] if own and seat is not None else None
    return View(seat, state.positions, bonus, state.turn)


def redact(event: Event, seat: int | None) -> Event | None:
    if isinstance(event, BonusDealt) and event.seat != seat:
        return BonusDealt(event.seat, None)
    return event


def outcome(state: State) -> Outcome | None:
    if state.winner is None:
        return None
    returns = tuple(1.0 if s == state.winner else 0.0 for s in range(len(state.positions)))
    return Outcome(state.winner, (state.winner,), returns)


def notations(state: State, command: Command) -> tuple[str, ...]:
    return ("roll",) if isinstance(command, Roll) else ("wait",)


def cause(event: Event) -> Command | None:
    if isinstance(event, Rolled):
        return Roll(event.seat)
    if isinstance(event, Waited):
        return Wait(event.seat)
    return None


RULES: core.Ruleset[Setup, State, Command, Event, View, Outcome] = core.Ruleset(
    codec=CODEC,
    rule="T2",
    start=start,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    view=view,
    redact=redact,
    outcome=outcome,
    cause=cause,
    notations=notations,
    public=public_setup,
    setup_rule="T1",
)
"""The toy ruleset: its functions in one record (``waiting``, ``fold`` and ``execute`` default)."""


class Game(core.Game[Setup, State, Command, Event, View, Outcome], rules=RULES):
    """A toy race."""

    __slots__ = ()


def new_game(players: list[str], seed: int = 0, goal: int = 10) -> Game:
    return Game.new(Setup(tuple(players), seed, goal))


def replay(setup: Setup, events: tuple[Event, ...]) -> Game:
    return Game.replay(setup, events)


def dumps(game: Game) -> str:
    return game.dumps()


def loads(text: str | bytes) -> Game:
    return Game.loads(text)


def describe(event: Event, setup: Setup, *, seat: int | None = None) -> str:
    """One line of plain English for an event; this toy names every seat, the reader's too
    (``seat`` is the reader, which a game may speak to as "you")."""
    if isinstance(event, BonusDealt):
        bonus = "a secret bonus" if event.bonus is None else f"a bonus of {event.bonus}"
        return f"{setup.players[event.seat]} is dealt {bonus}."
    if isinstance(event, Rolled):
        return f"{setup.players[event.seat]} rolls {event.pips}."
    if isinstance(event, Waited):
        return f"{setup.players[event.seat]} waits."
    return f"{setup.players[event.seat]} wins the race."
