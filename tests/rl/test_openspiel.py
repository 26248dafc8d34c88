"""OpenSpiel's own checks on every game and table size, its chance nodes against the library's
draws, and its algorithms on the games (IS-MCTS, MCTS, CFR against mare's exact odds)."""

from __future__ import annotations

import pickle
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, expected_game_score, ismcts, mcts

import avanti.rl as rl
from avanti import mare
from avanti.catalog import GAMES
from avanti.core.errors import DecodeError, InvalidArgument
from avanti.core.rng import Stream
from avanti.mare import FACES, Face, Options
from avanti.rl.openspiel import AvantiState
from avanti.rl.table import Table
from tests.rl.conftest import tables


@pytest.mark.parametrize(("name", "players"), tables())
def test_openspiel_random_sim_test_passes_with_serialization(name: str, players: int) -> None:
    game = rl.load_game(name, players)
    assert game.num_distinct_actions() == Table(name, players).encoding.num_actions
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", list(GAMES))
def test_games_and_states_pickle_and_serialize(name: str) -> None:
    game = rl.load_game(name)
    state = game.new_initial_state()
    stream = Stream(3, 0)
    for _ in range(40):  # through the opening's draws and a few commands
        actions = state.legal_actions()
        state.apply_action(actions[stream.below(len(actions))])
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    again_game, again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(again_game) == str(game)
    assert str(again) == str(state)
    assert again.history() == state.history()


def test_game_type_says_sequential_explicit_chance_and_each_games_facts() -> None:
    kind = rl.load_game("mare", 2).get_type()
    assert kind.short_name == "avanti_mare"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    # mare's table is public (M1, M2); a hand is its holder's alone (A8, F8)
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert (kind.min_num_players, kind.max_num_players) == (1, 6)  # M2
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM  # a side's seats all win (M8)
    for name in ("avanti", "autorama"):
        assert rl.load_game(name).get_type().information == (
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
        )
    avanti = rl.load_game("avanti", 4)
    assert avanti.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM  # one winner, A20
    assert avanti.utility_sum() == 1.0
    assert avanti.max_chance_outcomes() == 27  # the whole deck is shuffled (A3, A29)
    assert rl.load_game("autorama", 4).max_chance_outcomes() == 30  # 30 advisors (F1)
    assert rl.load_game("mare", 2).max_chance_outcomes() == 6  # the die (M3)


def test_the_longest_game_is_declared_where_the_rules_bound_it() -> None:
    """With the boat on red and green, a caught colour moving the boat and the free colour's
    move owed (M5-M7), every roll moves a fish or the boat: 24 fish moves and 11 boat moves,
    59 commands and 35 rolls at most; played explicitly, 94 actions. The rulebook's own reading
    lets a move be declined forever: no bound, OpenSpiel gets the library's cap."""
    from avanti.rl.openspiel import MAX_GAME_LENGTH

    owed = mare.new_game(["Ann", "Bob"], seed=1, options=Options(free_fish_move_owed=True))
    facts = mare.encoding(owed.public_setup).facts
    assert (facts.longest_game, facts.most_draws, facts.perfect_information) == (59, 35, True)
    assert rl.load_game("mare", 2, owed.dumps()).max_game_length() == 94
    assert rl.load_game("mare", 2, owed.dumps(), chance="sampled").max_game_length() == 59
    assert rl.load_game("mare", 2).max_game_length() == MAX_GAME_LENGTH
    longest = 0
    for seed in range(30):  # no random game is longer than the bound
        game = mare.new_game(["Ann", "Bob"], seed=seed, options=Options(free_fish_move_owed=True))
        picks = Stream(seed, 1 << 40)
        played = 0
        while not game.is_over:
            commands = game.legal_commands()
            game = game.execute(commands[picks.below(len(commands))])
            played += 1
        longest = max(longest, played)
    assert 20 < longest <= 59


def test_m3_a_roll_is_a_chance_node_of_six_faces_each_one_sixth() -> None:
    game = rl.load_game("mare", 2)
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert state.legal_actions() == [0]  # Roll
    state.apply_action(0)
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(k, 1 / 6) for k in range(6)]
    for k, face in enumerate(FACES):
        child = state.child(k)
        assert isinstance(child, AvantiState)
        assert child.position.game.events[0] == mare.DieRolled(0, face)


@pytest.mark.parametrize(("name", "cards"), [("avanti", 27), ("autorama", 30)])
def test_a_shuffles_first_card_is_uniform(name: str, cards: int) -> None:
    """The start shuffles (A29, F3): the first chance node has one outcome per card, each
    ``1/cards``: each card is as likely to be placed first as any other (Fisher-Yates from the
    last card, see test_scripted_rng)."""
    state = rl.load_game(name).new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(j, 1 / cards) for j in range(cards)]
    state.apply_action(0)
    assert state.chance_outcomes() == [(j, 1 / (cards - 1)) for j in range(cards - 1)]


@pytest.mark.parametrize("name", list(GAMES))
def test_chance_outcomes_drawn_as_the_seed_draws_replay_the_seeded_game(name: str) -> None:
    """Answer every chance node with what the seeded generator draws there: the game is the
    one the library deals and plays from that seed, event for event."""
    seed = 2026
    table = Table(name, len(GAMES[name].default_players))
    position = table.start()
    seeded = table.new_game(seed)
    picks = Stream(seed, 1 << 40)
    streams: dict[int, Stream] = {}
    for _ in range(120):
        if position.is_over:
            break
        if position.bound:
            draws = 0 if position.game is None else position.game.state.rng.draws
            stream = streams.setdefault(draws, Stream(seed, draws))
            position = table.draw(position, stream.below(position.bound))
            continue
        streams.clear()
        commands = table.legal_commands(position)
        command = commands[picks.below(len(commands))]
        position = table.act(position, command)
        seeded = seeded.execute(command)
    assert position.game.events == seeded.events


@pytest.mark.parametrize(("name", "players"), [(n, GAMES[n].min_players) for n in GAMES])
def test_round_trips_and_mask_equal_legal_commands_over_random_games(
    name: str, players: int
) -> None:
    table = Table(name, players)
    enc = table.encoding
    for seed in (1, 2):
        game = table.new_game(seed)
        stream = Stream(seed, 1 << 40)
        steps = 0
        while not game.is_over and steps < 150:
            for seat in range(players):
                legal = game.legal_commands(seat)
                mask = enc.mask(legal)
                assert sorted(a for a in range(enc.num_actions) if mask[a]) == (
                    enc.legal_actions(legal)
                )
                assert all(enc.command(enc.action_id(c), seat) == c for c in legal)
                assert [enc.command(a, seat) in legal for a in range(enc.num_actions)] == mask
            commands = game.legal_commands()
            game = game.execute(commands[stream.below(len(commands))])
            steps += 1


def _play(game: Any, bots: dict[int, Any], seed: int, moves: int) -> Any:
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    made = 0
    while not state.is_terminal() and made < moves:
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        made += 1
    return state


@pytest.mark.parametrize("name", list(GAMES))
def test_openspiels_is_mcts_and_mcts_bots_play(name: str) -> None:
    game = rl.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    searcher = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=4,
        random_state=np.random.RandomState(1),
        allow_inconsistent_action_sets=True,
    )
    planner = mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=np.random.RandomState(2))
    if name == "mare":  # a public table: IS-MCTS refuses a game of perfect information
        searcher = planner
    seats = game.num_players()
    bots = {seat: searcher if seat % 2 == 0 else planner for seat in range(seats)}
    state = _play(game, bots, seed=3, moves=6 if name != "mare" else 500)
    if name == "mare":
        assert state.is_terminal()
        assert sorted(state.returns()) in ([0.0, 0.0, 1.0], [0.0, 1.0, 1.0], [0.0] * 3)


def _late_position() -> list[int]:
    """Action ids that lead, alone at the table, to boat 9 (pieces 10 and 11 left), the orange
    fish on 10, the pink on 11, blue and yellow free (M4, M5)."""
    history: list[int] = []
    for face, rolls in ((Face.BLUE, 6), (Face.YELLOW, 6), (Face.ORANGE, 4), (Face.PINK, 5)):
        history += [0, FACES.index(face)] * rolls
    return history + [0, FACES.index(Face.RED)] * 9


def test_cfr_finds_the_exact_odds_of_the_best_choice() -> None:
    """One player backs the fish; the move after a free fish's colour is owed (M6, M9). From
    the late position the best choice (mare.odds, "best-for-fish") frees a fish with chance
    22/27; CFR's policy, after two iterations, plays it exactly."""
    document = mare.new_game(["Ann"], seed=1, options=Options(free_fish_move_owed=True)).dumps()
    game = rl.load_game("mare", 1, document, _late_position())
    start = game.new_initial_state()
    assert isinstance(start, AvantiState)
    place = start.position.game.state
    assert (place.boat, place.fish) == (9, (12, 10, 12, 11))
    exact = mare.odds("best-for-fish", state=place)
    assert exact.fish == Fraction(22, 27)
    assert mare.odds("closest-to-boat", state=place).fish == Fraction(7, 9)  # the worse choice
    solver = cfr.CFRSolver(game)
    for _ in range(2):
        solver.evaluate_and_update_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [solver.current_policy()])
    assert value[0] == pytest.approx(22 / 27, abs=1e-12)


@pytest.mark.parametrize("name", list(GAMES))
def test_twins_that_differ_only_in_hidden_facts_look_the_same_to_the_seat(name: str) -> None:
    """A twin of a position: the same log and views, the hidden facts drawn afresh by the
    game's sampler (other hands, the draw pile, the generator). The seat to act gets the same
    tensors, strings and legal actions in both."""
    game = rl.load_game(name)
    state = game.new_initial_state()
    stream = Stream(9, 0)
    checked = 0
    while not state.is_terminal() and checked < 8:
        if state.is_chance_node():
            actions = state.legal_actions()
            state.apply_action(actions[stream.below(len(actions))])
            continue
        seat = state.current_player()
        twin = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert twin.position.game.state != state.position.game.state  # the generator, at least
        assert twin.observation_tensor(seat) == state.observation_tensor(seat)
        assert twin.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert twin.observation_string(seat) == state.observation_string(seat)
        assert twin.information_state_string(seat) == state.information_state_string(seat)
        assert twin.legal_actions() == state.legal_actions()
        actions = state.legal_actions()
        state.apply_action(actions[stream.below(len(actions))])
        checked += 1
    assert checked == 8


def test_a_document_of_another_table_or_game_is_refused() -> None:
    document = mare.new_game(["Ann", "Bob", "Cy"], seed=1).dumps()
    with pytest.raises(InvalidArgument, match="3 players, the table 2"):
        Table("mare", 2).start_from(document)
    with pytest.raises(DecodeError):
        Table("autorama", 3).start_from(document)
    position = Table("mare", 3).start_from(document)
    assert position.seat == 0
    assert position.game.version == 0


@pytest.mark.parametrize(("name", "players"), tables())
def test_openspiel_random_sim_test_passes_in_the_sampled_mode(name: str, players: int) -> None:
    """SAMPLED_STOCHASTIC: no chance node anywhere. (OpenSpiel cannot serialize a Python
    game's generator, so the check runs without serialization, as for every Python game.)"""
    game = rl.load_game(name, players, chance="sampled", seed=5)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_sampled_mode_plays_the_game_the_seed_deals(name: str) -> None:
    """Each new initial state is dealt from the next seed of the game's sequence, and every
    random result comes from that game's own generator: the same actions give, event for
    event, the game the library plays from that seed; the same seed gives the same games."""
    game = rl.load_game(name, chance="sampled", seed=11)
    twin = rl.load_game(name, chance="sampled", seed=11)
    seeds = [Stream(11, k).below(1 << 62) for k in range(2)]
    for seed in seeds:
        state = game.new_initial_state()
        assert not state.is_chance_node()
        library = state.position.game
        assert library.events == Table(name, game.num_players()).new_game(seed).events
        picks = Stream(seed, 1 << 40)
        for _ in range(60):
            if state.is_terminal():
                break
            assert not state.is_chance_node()
            actions = state.legal_actions()
            action = actions[picks.below(len(actions))]
            library = library.execute(state.table.command(state.position, action))
            state.apply_action(action)
        assert state.position.game.events == library.events
        assert (
            twin.new_initial_state().position.game.events[:3]
            == (Table(name, game.num_players()).new_game(seed).events[:3])
        )


def test_a_shuffle_is_one_run_of_the_start_for_all_its_chance_nodes() -> None:
    """Avanti's start shuffles 27 cards (A29): 26 chance nodes of 27, 26, ..., 2 outcomes,
    answered without running the start again until the last (the seed's own draws give the
    seeded deal)."""
    table = Table("avanti", 4)
    position = table.start()
    assert (position.bound, position.ahead) == (27, tuple(range(26, 1, -1)))
    stream = Stream(2026, 0)
    bounds = []
    while position.game is None:
        bounds.append(position.bound)
        position = table.draw(position, stream.below(position.bound))
    assert bounds == list(range(27, 1, -1))
    assert position.game.events == table.new_game(2026).events


def test_an_unknown_chance_mode_is_refused() -> None:
    with pytest.raises(InvalidArgument, match="'explicit' or 'sampled', not 'lazy'"):
        rl.load_game("mare", 2, chance="lazy")


@pytest.mark.parametrize("name", list(GAMES))
def test_no_draw_of_random_games_has_more_outcomes_than_the_game_declares(name: str) -> None:
    table = Table(name, len(GAMES[name].default_players))
    assert table.chance_bounds(games=2) == table.encoding.facts.max_chance_outcomes
    assert table.encoding.max_chance_outcomes == table.encoding.facts.max_chance_outcomes


def test_the_sampled_mode_starts_from_a_document_and_goes_on_with_its_seed() -> None:
    """From a document, the sampled mode goes on drawing from the document's own seed: the
    rolls after it are the seeded game's (M3), and a resampled twin stays sampled."""
    seeded = mare.new_game(["Ann", "Bob"], seed=21)
    opening = seeded.execute(mare.Roll(0))
    game = rl.load_game("mare", 2, opening.dumps(), chance="sampled")
    state = game.new_initial_state()
    assert state.position.game.events == opening.events
    while state.legal_actions() != [0]:  # through a move the roll offers, if any (M6)
        state.apply_action(state.legal_actions()[-1])
    seat = state.current_player()
    twin = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert twin.position.seeded
    assert not twin.is_chance_node()
    before = state.position.game
    state.apply_action(0)
    assert state.position.game.events == before.execute(mare.Roll(seat)).events


def test_m3_the_first_roll_is_numbered_once_and_kept_on_the_position() -> None:
    game = rl.load_game("mare", 2)
    position = game.table.start()  # a fresh position (the game's own start is shared)
    state = AvantiState(game, position)
    before = position.moves
    assert before is None  # nothing numbered before a tool asks
    assert state.legal_actions() == [0]  # the only command: seat 0 rolls (M3)
    moves = position.moves
    assert moves == {0: mare.Roll(0)}
    assert state.table.moves(position) is moves  # worked out once
    assert state.table.legal_actions(position) == [0]
    enc = state.table.encoding
    assert state.table.command(position, 0) is moves[0]
    assert state.table.command(position, 1) == enc.command(1, 0)  # not legal now, decoded
    assert state.legal_actions(1) == []
    assert state.legal_actions(0) == [0]
    assert pyspiel.State.legal_actions(state) == [0]  # the path through OpenSpiel's C++
    state.apply_action(0)
    assert state.is_chance_node()
    assert pyspiel.State.is_chance_node(state)
    assert state.legal_actions() == [0, 1, 2, 3, 4, 5]  # six faces, as OpenSpiel gives them
    assert state.chance_outcomes() == [(face, 1 / 6) for face in range(6)]


@pytest.mark.parametrize(("name", "players"), [(n, GAMES[n].max_players) for n in GAMES])
@pytest.mark.parametrize("chance", ["explicit", "sampled"])
def test_the_cached_moves_equal_the_numbering_worked_out_afresh(
    name: str, players: int, chance: str
) -> None:
    game = rl.load_game(name, players, chance=chance, seed=5)
    enc = game.table.encoding
    rng = np.random.RandomState(3)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                assert pyspiel.State.is_chance_node(state)
                assert state.legal_actions() == pyspiel.State.legal_actions(state)
                state.apply_action(int(rng.randint(state.position.bound)))
                continue
            assert not pyspiel.State.is_chance_node(state)
            seat = state.current_player()
            legal = state.position.game.legal_commands(seat)
            fresh = enc.legal_actions(legal)
            assert state.legal_actions() == fresh == pyspiel.State.legal_actions(state)
            assert state.legal_actions(seat) == fresh
            for other in range(players):
                if other != seat:
                    assert state.legal_actions(other) == []
            for action in fresh:
                assert state.table.command(state.position, action) == enc.command(action, seat)
            state.apply_action(fresh[rng.randint(len(fresh))])
        assert state.legal_actions() == pyspiel.State.legal_actions(state) == []
