"""The scripted draws of :mod:`avanti.core.rng`: OpenSpiel's chance nodes choose each result."""

from __future__ import annotations

import pytest

from avanti import mare
from avanti.core.errors import InvalidArgument
from avanti.core.rng import DrawNeeded, Rng, ScriptedStream, Stream, scripted
from avanti.mare import FACES, Face, Roll


def test_outside_a_script_every_stream_draws_from_the_seed() -> None:
    with scripted((1, 2)):
        pass
    stream = Rng(7, 2).stream()
    plain = Stream(7, 2)
    assert type(stream) is Stream
    assert [stream.below(6) for _ in range(5)] == [plain.below(6) for _ in range(5)]


def test_m3_a_scripted_roll_shows_the_chosen_face_and_the_seed_does_not_matter() -> None:
    for seed in (1, 2, 3):
        game = mare.new_game(["Ann", "Bob"], seed=seed)
        with scripted((FACES.index(Face.PINK),)) as script:
            after = game.execute(Roll(0))
        assert after.events[0] == mare.DieRolled(0, Face.PINK)
        assert script.bounds == [6]  # one draw, of six equally likely faces (M3)


def test_a_used_up_script_asks_for_one_more_draw_and_changes_nothing() -> None:
    game = mare.new_game(["Ann", "Bob"], seed=1)
    with pytest.raises(DrawNeeded) as need, scripted(()):
        game.execute(Roll(0))
    assert need.value.bound == 6
    assert game.version == 0


def test_a_scripted_shuffle_is_fisher_yates_from_the_last_item() -> None:
    # bounds 4, 3, 2: swap item 3 with 0, item 2 with 2, item 1 with 0.
    with scripted((0, 2, 0)) as script:
        order = Rng(0).stream().shuffled("abcd")
    # abcd -> dbca (3 <-> 0) -> dbca (2 stays) -> bdca (1 <-> 0)
    assert order == ("b", "d", "c", "a")
    assert script.bounds == [4, 3, 2]


def test_a_result_out_of_range_is_refused() -> None:
    with pytest.raises(InvalidArgument, match="not in range"), scripted((6,)):
        Rng(0).stream().below(6)


def test_a_scripted_stream_gives_no_unbounded_bits() -> None:
    with scripted(()):
        stream = Rng(0).stream()
    assert isinstance(stream, ScriptedStream)
    with pytest.raises(TypeError):
        stream.bits64()


def test_a_shuffle_that_runs_out_asks_for_all_its_remaining_draws_at_once() -> None:
    """Five items need bounds 5, 4, 3, 2; given one result, the shuffle asks for the next
    three together: the tool chooses them all before the command runs again."""
    with pytest.raises(DrawNeeded) as need, scripted((4,)):
        Rng(0).stream().shuffled("abcde")
    assert (need.value.bound, need.value.ahead) == (4, (3, 2))
    with pytest.raises(DrawNeeded) as need, scripted(()):
        Rng(0).stream().shuffled("ab")
    assert (need.value.bound, need.value.ahead) == (2, ())
    with scripted(()) as script:
        assert Rng(0).stream().shuffled("a") == ("a",)  # one item: nothing to draw
    assert script.used == 0
