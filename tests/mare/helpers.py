"""Built states and rigged dice for the Avanti mare! tests."""

from __future__ import annotations

from collections.abc import Callable

from avanti import core
from avanti.mare import (
    FACES,
    Face,
    Game,
    GameState,
    Options,
    Side,
    new_game,
)

DEFAULT = Options()


def rng_for(face: Face, seed: int = 0) -> core.Rng:
    """A generator whose next roll shows ``face`` (the first such draw of ``seed``)."""
    for draws in range(1000):
        rng = core.Rng(seed, draws)
        if FACES[rng.stream().below(len(FACES))] is face:
            return rng
    raise AssertionError(f"no draw of seed {seed} shows {face}")


def built(
    *,
    fish: tuple[int, int, int, int] = (6, 6, 6, 6),
    boat: int = 0,
    turn: int = 0,
    seats: int = 2,
    move_due: bool = False,
    face: Face = Face.RED,
    options: Options = DEFAULT,
) -> GameState:
    """A state with the given river, whose next roll shows ``face``."""
    sides = tuple(Side.FISH_FRIENDS if s % 2 == 0 else Side.FISHER_FANS for s in range(seats))
    return GameState(sides, options, boat, fish, turn, move_due, None, rng_for(face))


def play_until(
    found: Callable[[Game], bool], *, players: int = 2, options: Options = DEFAULT
) -> Game:
    """The first game (by seed, always taking the first legal command) that reaches ``found``."""
    names = [f"P{n}" for n in range(players)]
    for seed in range(2000):
        game = new_game(names, seed=seed, options=options)
        while True:
            if found(game):
                return game
            if game.is_over:
                break
            game = game.execute(game.legal_commands()[0])
    raise AssertionError("no seed reaches the situation")
