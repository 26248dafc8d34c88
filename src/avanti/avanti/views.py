"""What a seat may see (A30): :func:`view` for a state and :func:`redact` for an event.

These are the only roads from the game to a player: another player's hand, a laid card and its
number before they are revealed, the draw pile's order and the generator never pass through them.
A spectator (seat ``None``) sees only what every player sees.
"""

from __future__ import annotations

from attrs import frozen

from avanti.avanti.events import CardDrawn, CardPlayed, CardsDealt, DeckShuffled, Event
from avanti.avanti.state import GameState, Laid, Phase
from avanti.core.errors import InvalidArgument

__all__ = ["View", "redact", "view", "waiting"]


@frozen
class View:
    """One seat's picture of the table (A30).

    Public to all: phase, run and round, the event marker (``None`` while it waits to be placed),
    every car's distance and road space, cash, island positions, who quit, hand sizes, who has
    laid a card, the size of the draw pile, the discard pile (top last), the driving order and
    whose turn it is, who has invested, the last run's ranking, the winner, and ``waiting``: the
    seats the game waits for now (the marker's placer, those yet to lay a card, the driver, or
    those yet to invest). Private to ``seat``: its own ``hand`` and its own ``laid`` card (both
    ``None`` for a spectator or a seat not at the table).
    """

    seat: int | None
    phase: Phase
    run: int
    round: int
    starting_seat: int
    marker: int | None
    distances: tuple[int, ...]
    road_spaces: tuple[int, ...]
    cash: tuple[int, ...]
    island: tuple[int, ...]
    quit: tuple[bool, ...]
    hand_sizes: tuple[int, ...]
    has_laid: tuple[bool, ...]
    draw_size: int
    discard: tuple[int, ...]
    order: tuple[int, ...]
    to_act: int | None
    invested: tuple[bool, ...]
    ranking: tuple[int, ...]
    winner: int | None
    waiting: tuple[int, ...]
    hand: tuple[int, ...] | None
    laid: Laid | None

    def _repr_svg_(self) -> str | None:
        """The view as a picture, for notebooks: :func:`avanti.avanti.svg.picture` on the
        default board and deck, seats named by number (a game draws itself on its own board).
        ``None`` (no picture) for a view that does not fit the default board."""
        from avanti.avanti.svg import picture  # here: the picture module imports this one

        try:
            return str(picture(self))
        except InvalidArgument:
            return None


def view(state: GameState, seat: int | None) -> View:
    """What ``seat`` may see of ``state``; ``None`` for a spectator (A30)."""
    players = range(state.table.players)
    own = seat is not None and 0 <= seat < state.table.players
    return View(
        seat=seat,
        phase=state.phase,
        run=state.run,
        round=state.round,
        starting_seat=state.starting_seat,
        marker=None if state.phase is Phase.MARKER else state.marker,
        distances=state.distances,
        road_spaces=tuple(state.road_space(s) for s in players),
        cash=state.cash,
        island=state.island,
        quit=state.quit,
        hand_sizes=tuple(len(hand) for hand in state.hands),
        has_laid=tuple(laid is not None for laid in state.laid),
        draw_size=len(state.draw),
        discard=state.discard,
        order=state.order,
        to_act=state.to_act(),
        invested=state.invested,
        ranking=state.ranking,
        winner=state.winner,
        waiting=waiting(state),
        hand=state.hands[seat] if own and seat is not None else None,
        laid=state.laid[seat] if own and seat is not None else None,
    )


def waiting(state: GameState) -> tuple[int, ...]:
    """The seats whose command the game waits for (A7, A8, A9, A22); none once it is over."""
    phase = state.phase
    players = range(state.table.players)
    if phase is Phase.PLANNING:
        return tuple(s for s in players if not state.quit[s] and state.laid[s] is None)
    if phase is Phase.DRIVING:
        return (state.order[state.turn],)
    if phase is Phase.INVESTING:
        return tuple(s for s in players if not state.invested[s])
    if phase is Phase.MARKER:
        return (state.starting_seat,)
    return ()


def redact(event: Event, seat: int | None) -> Event | None:
    """``event`` as ``seat`` may see it, hidden fields set to ``None`` (A30).

    Dealt, drawn and laid cards show only to their owner; a shuffle's order shows to nobody.
    No Avanti event is wholly private, so this never returns ``None``.
    """
    if isinstance(event, CardPlayed):
        return event if event.seat == seat else CardPlayed(event.seat, None, None)
    if isinstance(event, CardsDealt):
        return event if event.seat == seat else CardsDealt(event.seat, event.count, None)
    if isinstance(event, CardDrawn):
        return event if event.seat == seat else CardDrawn(event.seat, None)
    if isinstance(event, DeckShuffled):
        return DeckShuffled(event.pile, event.size, None)
    return event
