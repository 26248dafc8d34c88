"""The command line with Avanti and For Sale: Autorama, the fallback drawing, and the plot."""

from __future__ import annotations

import io
import json
import random
import re
import sys
import types
from pathlib import Path
from typing import Any, BinaryIO

import pytest
from attrs import frozen
from rich.console import Console

import avanti
from avanti import autorama, mare
from avanti.autorama.terminal import draw as draw_autorama
from avanti.autorama.terminal import explain as explain_autorama
from avanti.autorama.terminal import header as autorama_header
from avanti.avanti.terminal import explain as explain_avanti
from avanti.catalog import GAMES, GameInfo
from avanti.cli import main
from avanti.cli import seat as cli
from avanti.cli.render import drawing_for
from avanti.core.errors import InvalidSetup
from tests.hardening.games_avanti import twin as avanti_twin


def run(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, inp=io.StringIO(stdin))
    return code, out.getvalue()


def test_demo_plays_avanti_by_default_and_draws_road_and_island() -> None:
    code, text = run("demo", "--seed", "7")
    assert code == 0
    assert text.startswith(
        "Avanti: Jack, Isabella, Tina, Steve (seed 7)\nBots: heuristic, heuristic"
    )
    assert "Jack is dealt cards 26, 17, 24." in text
    assert "toll    100   200   300  P200   400   500  1000  P400   100   200   300   400" in text
    assert (
        "price     -  1000  2000  2000  3000  3000  4000  4000  5000     -     -     -     -"
        in text
    )
    assert "Run 1, round 2, planning; event marker on space 6" in text
    assert "The game ends: Steve wins" in text


def test_demo_plays_autorama() -> None:
    code, text = run("demo", "--game", "autorama", "--seed", "3", "--players", "3")
    assert code == 0
    assert text.startswith("For Sale: Autorama: Isaac, Becky, Chloe (seed 3)\n")
    assert "On the table (advisors):" in text
    assert "On the table (checks):" in text
    assert text.rstrip().endswith("events.")


def test_demo_refuses_a_table_of_the_wrong_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("demo", "--players", "2")[0] == 1
    assert "Avanti takes 3 to 5 players, not 2" in capsys.readouterr().err


def test_play_avanti_shows_only_the_humans_cards(tmp_path: Path) -> None:
    code, text = run("play", "--human", "1", "--seed", "7", "--players", "3", stdin="1\n" * 400)
    assert code == 0
    assert "Isabella (seat 1), your move:" in text
    assert "Your hand: card" in text
    assert "(yellow: draw a card)" in text
    assert ". drive  (drive: reveal your card and move)" in text
    assert "You are dealt cards" in text  # the seat's own deal, spoken to it
    assert "Jack is dealt 3 cards." in text  # another seat's cards stay hidden (A30)
    assert "Jack is dealt cards" not in text
    assert "The game is over." in text


def test_play_autorama_lists_the_bids_as_one_line_with_their_range() -> None:
    """F2, F4: four players start with $28,000, so the first bid is $0 to $28,000, one line."""
    code, text = run("play", "--game", "autorama", "--human", "0", "--seed", "2", stdin="1\n" * 300)
    assert code == 0
    assert "  1. pass  (pass: take the lowest advisor and half your bid back)" in text
    assert "  2. bid <amount> (0-28000, in 1000s)  (your whole bid (F4): 2, then the amount" in text
    assert "  3. bid" not in text
    assert "Yours: cash $28,000;" in text  # money in dollars, as the bids are (F2)
    assert "The game is over." in text


def test_autorama_header_reads_well_in_every_phase() -> None:
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=5)
    headers = [autorama_header(game.view(None))]
    while not game.is_over:
        game = game.execute(game.legal_commands()[-1])
        headers.append(autorama_header(game.view(None)))
    seen = list(dict.fromkeys(headers))
    assert seen[0] == "Phase 1, round 1: hiring advisors"
    assert "Phase 2, round 1: buying vehicles" in seen
    assert "Phase 3, round 1: selling vehicles; offering vehicles face down" in seen
    assert seen[-1] == "The game is over: every vehicle is sold"
    assert not any(" of " in line for line in seen)  # no "Round 7 of over"


def test_autorama_shows_money_in_dollars_everywhere() -> None:
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=5)
    game = game.execute(autorama.Bid(0, 3))
    out = io.StringIO()
    Console(file=out, width=100).print(draw_autorama(game.setup, game.view(0)))
    text = out.getvalue()
    assert "Yours: cash $28,000;" in text
    assert "$3,000" in text  # Ann's bid in the table
    assert "Bid ($k)" not in text
    while game.view(None).phase is not autorama.Phase.SELLING:
        game = game.execute(game.legal_commands()[0])
    out = io.StringIO()
    Console(file=out, width=100).print(draw_autorama(game.setup, game.view(0)))
    table = next(line for line in out.getvalue().splitlines() if line.startswith("On the table"))
    checks = ", ".join(autorama.dollars(check) for check in game.view(None).table)
    assert table == f"On the table (checks): {checks}"
    with pytest.raises(autorama.IllegalCommand, match=r"cannot exceed your cash \(\$"):
        autorama.new_game(["Ann", "Bob", "Cy"], seed=5).execute(autorama.Bid(0, 29))


def test_replay_as_a_seat_hides_what_that_seat_did_not_see(tmp_path: Path) -> None:
    path = tmp_path / "avanti.json"
    assert run("demo", "--seed", "4", "--players", "3", "--save", str(path))[0] == 0
    code, everything = run("replay", str(path))
    assert code == 0
    assert "Tina is dealt cards" in everything
    code, seat0 = run("replay", str(path), "--seat", "0")
    assert code == 0
    assert "You are dealt cards" in seat0
    assert "Tina is dealt 3 cards." in seat0
    assert "Tina is dealt cards" not in seat0
    code, _ = run("validate", str(path))
    assert code == 0


def test_replay_refuses_a_seat_not_at_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "avanti.json"
    run("demo", "--players", "3", "--save", str(path))
    assert run("replay", str(path), "--seat", "3")[0] == 1
    assert "there is no seat 3: the seats are 0 to 2" in capsys.readouterr().err


def test_replay_of_an_unfinished_game_says_so(tmp_path: Path) -> None:
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=1)
    game = game.execute(game.legal_commands()[0])
    path = tmp_path / "early.json"
    path.write_text(game.dumps(), encoding="utf-8")
    code, text = run("replay", str(path))
    assert code == 0
    assert text.rstrip().endswith("The game is not over yet.")
    assert run("validate", str(path))[1].endswith("events, in progress.\n")


def test_validate_names_an_unknown_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "chess.json"
    path.write_text(json.dumps({"format": "chess", "events": []}), encoding="utf-8")
    assert run("validate", str(path))[0] == 1
    assert "'format' must be one of" in capsys.readouterr().err


def test_simulate_avanti_reports_runs_per_game() -> None:
    code, text = run(
        "simulate",
        "--game",
        "avanti",
        "--games",
        "3",
        "--bots",
        "heuristic,random,random",
        "--workers",
        "1",
    )
    assert code == 0
    assert "Avanti: 3 games, seed 0, bots heuristic, random, random (fixed seats)" in text
    assert "runs" in text
    code, data = run("simulate", "--game", "avanti", "--games", "2", "--players", "3", "--json")
    assert code == 0
    assert json.loads(data)["runs"]["mean"] >= 2


def test_simulate_refuses_players_beside_a_bot_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("simulate", "--bots", "random,random,random", "--players", "3")[0] == 1
    assert "either --players with one bot, or one bot per seat" in capsys.readouterr().err


class FakeAxes:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def bar(self, labels: list[str], heights: list[float], **options: Any) -> None:
        self.calls.append(("bar", (labels, heights, options["yerr"])))

    def set_title(self, title: str) -> None:
        self.calls.append(("title", title))

    def set_ylabel(self, label: str) -> None:
        self.calls.append(("ylabel", label))

    def set_ylim(self, low: float, high: float) -> None:
        self.calls.append(("ylim", (low, high)))


class FakeFigure:
    def tight_layout(self) -> None:
        pass

    def savefig(self, target: BinaryIO, format: str) -> None:
        assert format == "png"
        target.write(b"PNG")


def fake_matplotlib(monkeypatch: pytest.MonkeyPatch) -> FakeAxes:
    axes = FakeAxes()
    figure = FakeFigure()
    backends: list[str] = []
    matplotlib = types.ModuleType("matplotlib")
    vars(matplotlib).update(use=backends.append)
    pyplot = types.ModuleType("matplotlib.pyplot")
    vars(pyplot).update(subplots=lambda figsize: (figure, axes), close=lambda fig: None)
    monkeypatch.setitem(sys.modules, "matplotlib", matplotlib)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", pyplot)
    return axes


def test_simulate_plots_win_rates_with_their_intervals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    axes = fake_matplotlib(monkeypatch)
    path = tmp_path / "rates.png"
    code, text = run(
        "simulate",
        "--game",
        "mare",
        "--games",
        "4",
        "--bots",
        "heuristic,random",
        "--workers",
        "1",
        "--plot",
        str(path),
    )
    assert code == 0
    assert path.read_bytes() == b"PNG"
    assert f"Plot written to {path}." in text
    (name, (labels, heights, (below, above))), *rest = axes.calls
    assert name == "bar"
    assert labels == ["heuristic", "random"]
    assert all(0 <= h <= 1 for h in heights)
    assert all(e >= 0 for e in (*below, *above))
    assert ("title", "Avanti mare!: win rate per seat held, 4 games") in rest
    code, text = run("simulate", "--game", "mare", "--games", "2", "--json", "--plot", str(path))
    assert code == 0
    assert json.loads(text)["games"] == 2


def test_odds_exact_writes_every_fraction() -> None:
    code, text = run("odds", "--policy", "closest-to-boat", "--exact")
    assert code == 0
    exact = text.splitlines()[-2]
    assert exact.startswith("rulebook, closest-to-boat: fish friends ")
    assert exact.count("/") == 4


@frozen
class TinyView:
    seat: int | None
    score: int


def test_a_game_without_a_drawing_gets_its_view_as_a_list() -> None:
    info = GameInfo(
        name="tiny",
        title="Tiny",
        package="json",
        min_players=1,
        max_players=2,
        default_players=("Ann",),
    )
    board = drawing_for(info)
    out = io.StringIO()
    Console(file=out, width=60).print(board.draw(None, TinyView(1, 42)))
    assert out.getvalue().split() == ["seat", "1", "score", "42"]
    assert board.after(("an event",))
    assert not board.after(())
    assert board.explain(None, mare.MoveFish(0, mare.Fish.BLUE), None) == ""
    assert board.confirm(None, mare.MoveFish(0, mare.Fish.BLUE)) == ""
    assert board.number(mare.MoveFish(0, mare.Fish.BLUE)) is None
    assert board.player(None, 0) == ""


def test_every_game_names_a_full_table_with_distinct_names() -> None:
    for info in GAMES.values():
        names = info.player_names(info.max_players)
        assert len(set(names)) == info.max_players
        assert names[: len(info.default_players)] == info.default_players
        with pytest.raises(ValueError, match=f"takes {info.min_players} to"):
            info.player_names(info.max_players + 1)
    assert GAMES["mare"].player_names(6) == ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def test_commands_are_explained_in_words_for_the_player() -> None:
    setup = avanti.new_game(["Ann", "Bob", "Cy"], seed=1).setup
    words = [
        explain_avanti(setup, c)
        for c in (
            avanti.PlaceEventMarker(0, 3),
            avanti.PlaceEventMarker(0, 6),
            avanti.PlayCard(0, 13, 5),
            avanti.Quit(0),
            avanti.Invest(0, 1),
            avanti.Invest(0, 2),
        )
    ]
    assert words == [
        "put the event marker on road space 3 (parking lot 200)",
        "put the event marker on road space 6 (toll 1000)",
        "lay card 13 (2/5/7) to drive 5 (red)",
        "quit this delivery run: your car stays and you lay no more cards this run (A14)",
        "invest in 1 island step",
        "invest in 2 island steps",
    ]
    sale = autorama.new_game(["Ann", "Bob", "Cy"], seed=1).setup
    words = [
        explain_autorama(sale, c)
        for c in (
            autorama.PlayAdvisor(0, 14, True),
            autorama.Offer(0, (12,)),
            autorama.Offer(0, (3, 25)),
            autorama.TakeBack(0, 3),
            autorama.UseMechanic(0),
            autorama.DeclineMechanic(0),
        )
    ]
    assert words == [
        "play Fleet Manager 14 with its boost (pays $3,000)",
        "offer vehicle 12",
        "offer vehicles 3 and 25 (with a Lawyer)",
        "take back vehicle 3",
        "use a Mechanic: take the second-lowest check",
        "keep your Mechanics: take the lowest check",
    ]


def test_play_avanti_reads_quit_as_the_a14_command_asks_first_and_leave_as_leaving() -> None:
    """A9, A14: in Avanti "quit" is a command (leave the run, which cannot be taken back), so the
    prompt asks before it plays it; "leave" leaves the game, as in every game."""
    code, text = run(
        "play",
        "--human",
        "0",
        "--seed",
        "1",
        "--players",
        "3",
        stdin="12\n1\nquit\nno\nquit\nyes\nleave\n",
    )
    assert code == 0
    assert "  2. quit  (quit this delivery run: your car stays and you lay no more" in text
    assert (
        "Type 'yes' to quit, anything else to choose again: no\nNot played; choose again." in text
    )
    assert "choose again: yes\nYou quit this run." in text
    assert text.count("You quit this run.") == 1
    assert text.rstrip().endswith("Jack> leave\nLeaving the game.")


@pytest.mark.parametrize("game", ["mare", "autorama"])
def test_quit_is_no_command_elsewhere_and_the_answer_names_leave(game: str) -> None:
    """One word leaves every game: "quit" and "exit" are answered with "leave" (M2, F4)."""
    code, text = run("play", "--game", game, "--seed", "1", stdin="quit\nexit\nleave\n")
    assert code == 0
    assert text.count("To leave the game, type 'leave'.") == 2
    assert text.rstrip().endswith("leave\nLeaving the game.")


def test_the_marker_menu_is_typed_by_road_space() -> None:
    """A4, A7: the list of marker spaces is numbered as the board numbers the road, from 0, so
    typing 7 puts the marker on road space 7 (not on space 6)."""
    code, text = run("play", "--seed", "1", "--players", "3", stdin="7\nleave\n")
    assert code == 0
    assert "  marker <space> (0-33)  (put the event marker on a road space: type the space" in text
    assert "marker 0" not in text
    assert "You put the event marker on road space 7; every car starts there." in text
    code, text = run("play", "--seed", "1", "--players", "3", stdin="34\nleave\n")
    assert "34 is not on the list: choose 0 to 33." in text


def test_the_invest_menu_shows_each_price_before_the_choice() -> None:
    """A22: island spaces 1, 2, 3 cost 1,000, 2,000 and 2,000 on the default board, so three
    steps from the start cost 5,000."""
    game = avanti.new_game(["Jack", "Isabella", "Tina"], seed=1)
    while game.state.phase is not avanti.Phase.INVESTING:
        game = game.execute(game.legal_commands()[0])
    seat = game.waiting[0]
    lines = cli.text(cli.choices(GAMES["avanti"], game, seat))
    start = game.view(seat).island[seat]
    assert start == 0
    assert "1. invest 0  (invest nothing)" in lines
    assert "(invest 1: 1,000 for island space 1)" in lines
    assert "(invest 3: 5,000 for island spaces 1-3)" in lines


def test_replay_for_a_seat_heads_others_hidden_commands_without_their_notation(
    tmp_path: Path,
) -> None:
    """A30: seat 2 replaying an Avanti game does not learn which card another seat laid."""
    path = tmp_path / "avanti.json"
    assert run("demo", "--seed", "7", "--players", "3", "--save", str(path))[0] == 0
    game = avanti.loads(path.read_text(encoding="utf-8"))
    code, text = run("replay", str(path), "--seat", "2")
    assert code == 0
    others = [
        game.setup.players[e.seat]
        for e in game.events
        if isinstance(e, avanti.CardPlayed) and e.seat != 2
    ]
    assert others
    for line in text.splitlines():
        for name in set(others):
            assert not re.search(rf"\d+\. {name}: play \d+ for \d+", line), line
    assert re.search(r"\d+\. Tina: play \d+ for \d+", text)  # its own commands in full
    assert re.search(r"\d+\. Jack: drive", text)  # public commands too
    full = run("replay", str(path))[1]
    assert re.search(r"\d+\. Jack: play \d+ for \d+", full)  # the whole game for no seat


def test_replay_prints_the_text_the_seat_functions_render_from_the_game(tmp_path: Path) -> None:
    """The file road (``avanti replay FILE --seat N``) prints what
    :func:`avanti.cli.seat.replay_text` renders from the game itself, which a server can call
    without a file."""
    path = tmp_path / "avanti.json"
    assert run("demo", "--seed", "7", "--players", "3", "--save", str(path))[0] == 0
    game = avanti.loads(path.read_text(encoding="utf-8"))
    info = GAMES["avanti"]
    for seat in range(3):
        assert run("replay", str(path), "--seat", str(seat))[1] == cli.replay_text(info, game, seat)
    assert run("replay", str(path))[1] == cli.replay_text(info, game, None, whole=True)


def test_a_spectator_replay_shows_no_hand_and_no_laid_card() -> None:
    """A30: a spectator reads every deal as a count and every laid card as its player's name."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=3)
    while not any(isinstance(e, avanti.CarMoved) for e in game.events):
        game = game.execute(game.legal_commands()[0])
    text = cli.replay_text(GAMES["avanti"], game, None)
    assert [line for line in text.splitlines() if "is dealt" in line] == [
        "Ann is dealt 3 cards.",
        "Bob is dealt 3 cards.",
        "Cy is dealt 3 cards.",
    ]
    assert not re.search(r"\d+\. \w+: play \d+ for \d+", text)
    assert re.search(r"\d+\. Ann ─", text)  # the laid card is headed by the name alone
    assert re.search(r"\d+\. Ann: play \d+ for \d+", cli.replay_text(GAMES["avanti"], game, 0))


def test_play_shows_a_seat_the_turn_the_seat_functions_render() -> None:
    """The first prompt of ``avanti play`` is :func:`avanti.cli.seat.turn` of the new game."""
    code, text = run("play", "--human", "0", "--seed", "7", "--players", "3", stdin="")
    assert code == 0
    game = avanti.new_game(["Jack", "Isabella", "Tina"], seed=7)
    prompt = cli.text(cli.turn(GAMES["avanti"], game, 0))
    assert prompt.startswith("Delivery run 1 begins; you are the starting player.\n")
    assert "\nYou are dealt cards " in prompt
    assert "\nIsabella is dealt 3 cards.\n" in prompt
    assert "Jack (seat 0), your move:\n  marker <space> (0-33)  (put the event marker on" in prompt
    assert f"{prompt}Jack> " in text


def test_an_avanti_twin_shows_a_seat_the_same_command_line() -> None:
    """Relabel every card seat 1 may not know and change the number Ann laid face down (A30):
    the whole log changes, seat 1's replay, table and prompt do not."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=5)
    while not any(isinstance(e, avanti.CarMoved) for e in game.events):
        game = game.execute(game.legal_commands()[0])
    while not game.view(1).has_laid[0]:  # Ann lays a card face down; Bob looks on
        game = game.execute(game.legal_commands()[0])
    twin = avanti_twin(game, 1, random.Random(3))
    info = GAMES["avanti"]
    assert twin.events != game.events
    assert cli.replay_text(info, twin, None, whole=True) != cli.replay_text(
        info, game, None, whole=True
    )
    assert cli.replay_text(info, twin, 1) == cli.replay_text(info, game, 1)
    assert cli.text(cli.turn(info, twin, 1)) == cli.text(cli.turn(info, game, 1))
    assert cli.answer(twin, 1, "play 1 for 1") == cli.answer(game, 1, "play 1 for 1")


def test_the_catalog_starts_a_game_with_the_sides_named() -> None:
    """M2: a tool starts Avanti mare! with the sides it was given; a game without sides, or a
    name that is no side, is refused with the names it takes."""
    info = GAMES["mare"]
    assert info.sides == ("fish-friends", "fisher-fans")
    game = info.new_game(["Ann", "Bob"], seed=1, sides=["fisher-fans", "fish-friends"])
    assert game.setup.sides == (mare.Side.FISHER_FANS, mare.Side.FISH_FRIENDS)
    with pytest.raises(InvalidSetup, match="'fish' is no side of Avanti mare!: pick one of"):
        info.new_game(["Ann", "Bob"], seed=1, sides=["fish", "fish-friends"])
    with pytest.raises(InvalidSetup, match="Avanti has no sides to pick"):
        GAMES["avanti"].new_game(["Ann", "Bob", "Cy"], seed=1, sides=["fish-friends"] * 3)
    assert GAMES["autorama"].narrate([], None, seat=0) == ()


def test_f1_the_catalog_lists_autorama_s_box_by_kind_and_no_box_for_the_board_games() -> None:
    """F1: 30 advisors (F4-F19 kinds), 30 vehicles numbered 1-30, and 30 checks ($0 and $2,000
    to $15,000, two of each); Avanti and Avanti mare! are set on the board, so they have none."""
    box = GAMES["autorama"].box()
    assert box is not None
    assert set(box) == {"advisor", "vehicle", "check"}
    assert [card for card, _ in box["advisor"]] == list(range(1, 31))
    assert box["advisor"][0] == (1, "Sales Associate 1")
    assert box["vehicle"][29] == (30, "vehicle 30")
    checks = [card for card, _ in box["check"]]
    assert len(checks) == 30
    assert sorted(set(checks)) == [0, *range(2, 16)]
    assert all(checks.count(value) == 2 for value in set(checks))
    assert box["check"][0] == (0, "a check of $0")
    assert GAMES["avanti"].box() is None
    assert GAMES["mare"].box() is None
