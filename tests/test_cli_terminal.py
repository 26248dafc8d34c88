"""The terminal of ``avanti play`` at its size: a long choice of one number (Avanti's event
marker, A7; Autorama's bids, F4) is one line with the legal range, so the board and the menu fit
a 45-line terminal; ``leave`` offers to save a game that is not over; Avanti's table has a key
and marks the dream island (A5)."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest

import avanti
from avanti import autorama, mare
from avanti.catalog import GAMES
from avanti.cli import main
from avanti.cli import seat as cli
from avanti.cli.console import WIDTH
from avanti.core.terminal import NumberChoice

TERMINAL_ROWS = 45
"""The height of the terminal everything up to the first prompt must fit in."""


def run(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, inp=io.StringIO(stdin))
    return code, out.getvalue()


class _Terminal(io.StringIO):
    """Input typed at a terminal (not a pipe): what ``avanti play`` asks a person."""

    def isatty(self) -> bool:
        return True


def at_a_terminal(*argv: str, typed: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, inp=_Terminal(typed))
    return code, out.getvalue()


def first_screen(text: str, name: str) -> list[str]:
    """The lines printed up to and including the first prompt, ``"Jack> "``."""
    prompt = f"{name}> "
    return text[: text.index(prompt) + len(prompt)].split("\n")


def rows(lines: list[str]) -> int:
    """The rows ``lines`` take on a terminal as wide as the console's fixed width (a line
    longer than it takes two rows or more)."""
    return sum(max(1, math.ceil(len(line) / WIDTH)) for line in lines)


# -- 1. a number chosen from a range is one line ------------------------------------------------


def test_span_says_the_numbers_in_a_few_characters() -> None:
    assert cli.span(range(34)) == "0-33"
    assert cli.span(range(0, 28_001, 1000)) == "0-28000, in 1000s"
    assert cli.span([1, 2, 3, 7, 9, 10, 11, 12]) == "1-3, 7, 9-12"
    assert cli.span([0, 2000, 4000, 10_000]) == "0-4000, 10000, in 2000s"
    assert cli.span([5]) == "5"


def test_the_avanti_marker_step_of_five_players_fits_a_45_line_terminal() -> None:
    """A7: 34 road spaces were 34 menu lines; now the marker is one line, ``0-33``."""
    code, text = run("play", "--seed", "1", "--players", "5", stdin="")
    assert code == 0
    screen = first_screen(text, "Jack")
    menu = screen[screen.index("Jack (seat 0), your move:") :]
    assert menu == [
        "Jack (seat 0), your move:",
        "  marker <space> (0-33)  (put the event marker on a road space: type the space, "
        "such as 17)",
        "Jack> ",
    ]
    assert any(line.startswith("toll   P500 ") for line in screen)  # the board is on it
    assert any(line.startswith("who   01234 ") for line in screen)
    # title 1, help 3 rows (207 characters), 7 events, table 20, key 6, menu 2, prompt 1
    assert rows(screen) == 40 <= TERMINAL_ROWS


@pytest.mark.parametrize(
    ("game", "players"),
    [("avanti", 5), ("autorama", 3), ("autorama", 6), ("mare", 6)],
)
def test_the_first_screen_of_every_game_fits_a_45_line_terminal(game: str, players: int) -> None:
    name = GAMES[game].player_names(players)[0]
    code, text = run("play", "--game", game, "--seed", "1", "--players", str(players), stdin="")
    assert code == 0
    assert rows(first_screen(text, name)) <= TERMINAL_ROWS


def test_the_autorama_auction_is_one_line_with_the_bids_range() -> None:
    """F2, F4: three players start with $28,000; the first bid may be $0 to $28,000, in whole
    thousands: 29 bids, one line."""
    code, text = run("play", "--game", "autorama", "--seed", "1", "--players", "3", stdin="")
    assert code == 0
    screen = first_screen(text, "Isaac")
    menu = screen[screen.index("Isaac (seat 0), your move:") :]
    assert menu == [
        "Isaac (seat 0), your move:",
        "  1. pass  (pass: take the lowest advisor and half your bid back)",
        "  2. bid <amount> (0-28000, in 1000s)  (your whole bid (F4): 2, then the amount, "
        "or 'bid 14000')",
        "Isaac> ",
    ]


def test_the_menu_gathers_only_commands_that_differ_in_their_number() -> None:
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=1)
    entries = cli.menu(GAMES["autorama"], game, 0)
    assert [number for number, _ in entries] == [1, 2]
    assert entries[0][1] == autorama.Pass(0)
    field = entries[1][1]
    assert isinstance(field, cli.Field)
    assert (field.form, field.span, len(field.commands)) == (
        "bid <amount>",
        "0-28000, in 1000s",
        29,
    )
    assert field.commands[5] == autorama.Bid(0, 5)  # typed as 5000
    assert field.values[5] == 5000
    avanti_game = avanti.new_game(["Ann", "Bob", "Cy"], seed=1)
    [(number, marker)] = cli.menu(GAMES["avanti"], avanti_game, 0)
    assert number is None  # its numbers are the road's own (A4)
    assert isinstance(marker, cli.Field)
    assert marker.values == tuple(range(34))


def test_a_number_typed_on_its_own_prompt_picks_the_bid() -> None:
    """F4: ``2`` opens the bid; $500 is no bid (whole thousands), Enter alone goes back, then
    ``bid`` opens it again and 5000 bids $5,000; ``bid 3000`` in one line works too."""
    typed = "2\n500\n\nbid\n5000\nleave\n"
    code, text = run("play", "--game", "autorama", "--seed", "1", "--players", "3", stdin=typed)
    assert code == 0
    ask = "bid <amount> (0-28000, in 1000s; Enter alone goes back): "
    assert (
        f"Isaac> 2\n{ask}500\n500 is not among the amounts to choose: 0-28000, in 1000s.\n" in text
    )
    assert f"{ask}\nNot played; choose again.\nIsaac> bid\n{ask}5000\nYou bid $5,000.\n" in text
    code, text = run(
        "play", "--game", "autorama", "--seed", "1", "--players", "3", stdin="bid 3000\nleave\n"
    )
    assert "Isaac> bid 3000\nYou bid $3,000.\n" in text


def test_a_marker_space_is_typed_alone_or_on_its_own_prompt() -> None:
    """A4, A7: ``12`` puts the marker on road space 12; ``marker`` asks for the space, and 34
    is off the road (spaces 0 to 33)."""
    code, text = run("play", "--seed", "1", "--players", "3", stdin="12\nleave\n")
    assert code == 0
    assert "You put the event marker on road space 12; every car starts there." in text
    code, text = run("play", "--seed", "1", "--players", "3", stdin="marker\n34\n5\nleave\n")
    assert code == 0
    ask = "marker <space> (0-33; Enter alone goes back): "
    assert f"Jack> marker\n{ask}34\n34 is not among the spaces to choose: 0-33.\n{ask}5\n" in text
    assert "You put the event marker on road space 5; every car starts there." in text


def test_the_number_of_a_range_line_alone_names_what_it_takes() -> None:
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=1)
    info = GAMES["autorama"]
    assert cli.opens(info, game, 0, "2") == cli.opens(info, game, 0, " BID ")
    assert cli.opens(info, game, 0, "1") is None
    assert cli.answer(game, 0, "2", info) == (
        None,
        "2 is bid <amount>: type the amount too, such as 'bid 14000' (0-28000, in 1000s)",
    )
    assert cli.answer(game, 0, "bid 14000", info) == (autorama.Bid(0, 14), "")


def test_a_game_places_only_its_number_commands_in_a_field() -> None:
    drawing = GAMES["avanti"].load_drawing()
    assert drawing is not None
    assert drawing.field(avanti.PlaceEventMarker(0, 7)) == NumberChoice(
        "marker", "space", 7, "put the event marker on a road space"
    )
    assert drawing.field(avanti.Invest(0, 2)) is None  # each step has its price (A22)


# -- 2. leave offers to save -------------------------------------------------------------------


def test_leave_offers_to_save_and_the_file_goes_on_where_it_left(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    code, text = at_a_terminal("play", "--seed", "1", "--players", "3", typed=f"7\nleave\n{path}\n")
    assert code == 0
    assert text.endswith(
        "Save the game before leaving? Type a file name, or Enter to leave without saving: "
        f"Saved to {path}; go on with: avanti play --resume {path}\nLeaving the game.\n"
    )
    saved = avanti.loads(path.read_text(encoding="utf-8"))
    assert not saved.is_over
    assert saved.view(0).marker == 7  # the one command Jack played
    code, text = run("play", "--resume", str(path), stdin="leave\n")
    assert code == 0
    assert "Run 1, round 1, planning; event marker on space 7" in text


def test_leave_asks_again_when_the_file_cannot_be_written_and_enter_leaves(
    tmp_path: Path,
) -> None:
    nowhere = tmp_path / "no" / "such" / "folder.json"
    code, text = at_a_terminal(
        "play", "--game", "mare", "--seed", "1", typed=f"leave\n{nowhere}\n\n"
    )
    assert code == 0
    assert text.count("Save the game before leaving?") == 2
    assert f"Could not save to {nowhere}: No such file or directory" in text
    assert text.endswith("leave without saving: Leaving the game.\n")
    assert list(tmp_path.iterdir()) == []


def test_leave_does_not_ask_with_save_given_nor_from_a_pipe(tmp_path: Path) -> None:
    path = tmp_path / "kept.json"
    code, text = at_a_terminal(
        "play", "--game", "mare", "--seed", "1", "--save", str(path), typed="1\nleave\n"
    )
    assert code == 0
    assert "Save the game before leaving?" not in text
    assert text.endswith(
        f"Leaving the game.\nSaved to {path}; go on with: avanti play --resume {path}\n"
    )
    kept = mare.loads(path.read_text(encoding="utf-8"))
    assert kept.version > 0  # Ann's roll, and the bots' turns after it
    assert not kept.is_over
    code, text = run("play", "--game", "mare", "--seed", "1", stdin="leave\n")
    assert "Save the game before leaving?" not in text
    assert text.endswith("Ann> leave\nLeaving the game.\n")


def test_a_finished_game_ends_without_the_leave_question() -> None:
    game, commands = mare.new_game(["Ann"], seed=2), 0
    while not game.is_over:  # what typing "1" (the first command) plays
        game, commands = game.execute(game.legal_commands()[0]), commands + 1
    code, text = at_a_terminal(
        "play", "--game", "mare", "--seed", "2", "--players", "1", typed="1\n" * commands + "\n"
    )
    assert code == 0
    assert "The game is over." in text
    assert "Save the game before leaving?" not in text


# -- 3. the key and the dream island -----------------------------------------------------------


def test_avanti_s_table_marks_the_dream_island_and_has_a_key() -> None:
    """A5: on the default board the dream island is spaces 10, 11 and 12; the first parking
    lot is space 3 with an ATM of 200 (A21) and space 0 is a toll of 100 (A15)."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=1)
    info = GAMES["avanti"]
    table = cli.text([cli.table(info, game, 0)]).splitlines()
    assert table[10] == (
        "island    0     1     2     3     4     5     6     7     8     9   *10   *11   *12 "
    )
    assert cli.text(cli.legend(info, game)).splitlines() == [
        "Key: M7 the event marker, on space 7 (A7) | . nobody there | Driven: this run (A12)",
        "     100 a toll: a car there pays it to the leader (A15)",
        "     P200 a parking lot: no toll; its ATM pays 200 between runs (A21)",
        "     cars: the seats whose car is there | who: the seats whose island figure is there",
        "     price: what a step onto that island space costs (A22), - not for sale",
        "     *10-*12 the dream island: a figure reaching it ends the game (A20)",
    ]
    assert all(len(line) <= WIDTH for line in cli.text(cli.legend(info, game)).splitlines())


def test_a_dream_island_of_one_space_is_marked_alone() -> None:
    board = avanti.Board(
        track=avanti.DEFAULT_BOARD.track, island=(None, 1000, 2000, None), island_depth=1
    )
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=1, board=board)
    info = GAMES["avanti"]
    assert "island    0     1     2    *3 " in cli.text([cli.table(info, game, 0)])
    assert "     *3 the dream island: a figure reaching it ends the game (A20)" in cli.text(
        cli.legend(info, game)
    )


def test_play_shows_the_key_every_turn_and_demo_once() -> None:
    code, text = run("play", "--seed", "1", "--players", "3", stdin="7\n1\nleave\n")
    # three turns: the marker's, the card's, and the drive's, at which Jack leaves
    assert text.count("Key: M7 the event marker") == 3
    assert text.count("Jack (seat 0), your move:") == 3
    code, text = run("demo", "--seed", "1", "--players", "3")
    assert code == 0
    assert text.count("Key: M7 the event marker") == 1
    assert text.count("who   ") > 1  # the table is drawn again and again
