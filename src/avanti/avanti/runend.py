"""The end of a delivery run and the start of the next (A19-A21, A24-A28)."""

from __future__ import annotations

from avanti.avanti.events import (
    AtmWithdrawn,
    CardsDealt,
    DeckShuffled,
    EventMarkerPlaced,
    FigureAdvanced,
    GameEnded,
    Pile,
    RunEnded,
    RunStarted,
)
from avanti.avanti.evolve import Log
from avanti.avanti.positions import atm_owners, standings
from avanti.avanti.state import StateLike

__all__ = ["HAND_SIZE", "deal", "end_run", "final_ranking", "next_run", "reached_dream_island"]

HAND_SIZE = 3
"""Cards dealt to each player at the start of a run (A6, A27)."""


def end_run(log: Log) -> None:
    """Rank the cars, advance the figures (A19), end the game (A20) or pay out the ATMs (A21)."""
    state = log.state
    ranking = standings(state)
    log.add(RunEnded(state.run, ranking))
    places = 2 if state.table.players == 3 else 3
    last = state.table.island_length
    for place, seat in enumerate(ranking[:places]):
        start = log.state.island[seat]
        to = min(start + 3 - place, last)
        if to > start:
            log.add(FigureAdvanced(seat, place + 1, start, to))
    if reached_dream_island(log.state):
        end_game(log)
        return
    for seat, space, amount in atm_owners(log.state):
        if amount > 0:
            log.add(AtmWithdrawn(seat, space, amount))


def reached_dream_island(state: StateLike) -> bool:
    """Whether any figure stands on the dream island (A20, A24)."""
    start = state.table.dream_island_start
    return any(space >= start for space in state.island)


def final_ranking(state: StateLike) -> tuple[int, ...]:
    """Every seat by island position, ties to the better rank in the last run (A20)."""
    last_run = {seat: place for place, seat in enumerate(state.ranking)}
    island = state.island
    return tuple(sorted(range(state.table.players), key=lambda s: (-island[s], last_run[s])))


def end_game(log: Log) -> None:
    """The game ends; the figure furthest ahead wins (A20)."""
    ranking = final_ranking(log.state)
    log.add(GameEnded(ranking[0], ranking))


def next_run(log: Log) -> None:
    """Start the next run (A25-A28).

    The previous run's leader starts (A26); the marker goes to the road space of its last car
    and every car moves there (A25); all the cards are reshuffled and dealt again (A27).
    """
    state = log.state
    marker = state.road_space(state.ranking[-1])
    log.add(RunStarted(state.run + 1, state.ranking[0]))
    deal(log)
    log.add(EventMarkerPlaced(None, marker))


def deal(log: Log) -> None:
    """Gather every card, shuffle (A29) and deal three to each player, from the starting player."""
    state = log.state
    order = state.rng.stream().shuffled(range(len(state.table.deck.cards)))
    seats = state.table.rotations[state.starting_seat]
    log.add(DeckShuffled(Pile.ALL, len(order), order))
    for seat in seats:
        count = min(HAND_SIZE, len(log.state.draw))
        log.add(CardsDealt(seat, count, log.state.draw[:count]))
