"""The command line, driven in-process through ``main(argv, out=..., inp=...)`` and as a process."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from avanti import mare
from avanti.catalog import GAMES
from avanti.cli import _parser, main, watch
from avanti.cli.console import problems
from avanti.core.errors import DecodeError

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, inp=io.StringIO(stdin))
    return code, out.getvalue()


def saved_game(tmp_path: Path, seed: int = 7) -> Path:
    path = tmp_path / "game.json"
    code, _ = run("demo", "--game", "mare", "--seed", str(seed), "--save", str(path))
    assert code == 0
    return path


# -- demo ----------------------------------------------------------------------------------------


def test_demo_tells_every_event_and_draws_the_river() -> None:
    code, text = run("demo", "--game", "mare", "--seed", "7")
    assert code == 0
    assert text.startswith(
        "Avanti mare!: Ann, Bob, Cy (seed 7)\nBots: heuristic, heuristic, heuristic\n"
    )
    assert "Ann rolls orange." in text
    assert "[boat] 1:- 2:- 3:- 4:- 5:- 6:BOYP 7:- 8:- 9:- 10:- 11:-  ~sea~" in text
    assert "The game ends with" in text
    assert text.rstrip().endswith("events.")


def test_demo_is_reproducible_and_follows_the_seed() -> None:
    assert (
        run("demo", "--game", "mare", "--seed", "3")[1]
        == run("demo", "--game", "mare", "--seed", "3")[1]
    )
    assert (
        run("demo", "--game", "mare", "--seed", "3")[1]
        != run("demo", "--game", "mare", "--seed", "4")[1]
    )


def test_demo_takes_one_bot_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run(
        "demo", "--game", "mare", "--players", "2", "--bots", "random,search", "--iterations", "5"
    )
    assert code == 0
    assert "Bots: random, search" in text
    assert run("demo", "--game", "mare", "--players", "3", "--bots", "random,search")[0] == 1
    assert "one bot for every seat" in capsys.readouterr().err


def test_demo_and_play_seat_one_player_per_bot_named() -> None:
    # Avanti's usual table is four; three bots named make a table of three, as simulate does.
    code, text = run("demo", "--seed", "2", "--bots", "heuristic,random,random")
    assert code == 0
    assert text.startswith("Avanti: Jack, Isabella, Tina (seed 2)\n")
    assert "Bots: heuristic, random, random\n" in text
    code, text = run("play", "--game", "mare", "--human", "", "--bots", "random,random")
    assert code == 0
    assert "Avanti mare!: Ann (random, fish friends), Bob (random, fisher fans)\n" in text
    assert "The game is over." in text


def test_demo_names_the_seat_limits_for_too_many_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("demo", "--bots", ",".join(["random"] * 6))[0] == 1
    assert capsys.readouterr().err == "avanti: Avanti takes 3 to 5 players, not 6\n"


def test_demo_saves_a_game_that_validates(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    game = mare.loads(path.read_text(encoding="utf-8"))
    assert game.is_over
    code, text = run("validate", str(path))
    assert code == 0
    assert text == f"{path}: a valid Avanti mare! game, {len(game.events)} events, finished.\n"


def test_the_readme_command_runs_as_a_process() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "avanti", "demo", "--game", "mare", "--seed", "7"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Ann rolls orange." in done.stdout
    assert done.stderr == ""


# -- validate and replay -------------------------------------------------------------------------


def test_validate_rejects_a_broken_file_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = saved_game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["events"][0]["face"] = "purple"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run("validate", str(path))[0] == 1
    err = capsys.readouterr().err
    assert err.startswith(f"avanti: {path}: not a valid Avanti mare! game: the events do not fit")
    assert "$.events[0].face" in err
    assert err.count("\n") == 1
    assert run("validate", str(tmp_path / "missing.json"))[0] == 1
    assert "No such file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("demo", "label", "title"),
    [
        (["--game", "mare"], "autorama", "For Sale: Autorama"),
        (["--game", "autorama", "--players", "3"], "avanti", "Avanti"),
        (["--players", "3"], "mare", "Avanti mare!"),
    ],
)
def test_validate_says_in_one_line_that_a_document_is_of_another_game(
    demo: list[str],
    label: str,
    title: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "game.json"
    assert run("demo", *demo, "--save", str(path))[0] == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    data["format"] = label
    data["version"] = 1  # every game reads version 1 documents
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run("validate", str(path))[0] == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"avanti: {path}: not a valid {title} game: the setup ")
    assert "does not fit (" in err or "do not fit (" in err
    assert re.search(r"\) and \d+ more problems\n$", err)
    assert len(err) < 400


def test_replay_and_play_say_in_one_line_what_is_wrong_with_a_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text("[1, 2", encoding="utf-8")
    assert run("replay", str(path))[0] == 1
    assert capsys.readouterr().err.startswith(f"avanti: {path}: not a game document (not valid")
    path.write_text(json.dumps({"format": "avanti", "version": 1}), encoding="utf-8")
    assert run("play", "--resume", str(path))[0] == 1
    assert capsys.readouterr().err == (
        f"avanti: {path}: not a valid Avanti game: the setup and the events do not fit "
        "(required field missing @ $.setup) and 1 more problem\n"
    )


def test_a_decode_error_is_told_in_one_line_with_a_count_of_the_rest(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(args: object, out: object) -> int:
        raise DecodeError(("bad face @ $.events[0].face", "bad seat @ $.events[1].seat"))

    monkeypatch.setattr(watch, "validate", broken)
    assert run("validate", "game.json")[0] == 1
    assert capsys.readouterr().err == (
        "avanti: cannot decode document (bad face @ $.events[0].face) and 1 more problem\n"
    )
    long = "x" * 300
    assert problems(DecodeError((f"{long} @ $.setup",)), width=20) == f"({'x' * 17}... @ $.setup)"
    assert problems(DecodeError(("no path", "a", "b"))) == "(no path) and 2 more problems"
    assert problems(DecodeError(())) == "(no problem named)"


def test_validate_names_a_log_that_does_not_fit_its_setup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = saved_game(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["events"][0]["face"] = "green" if data["events"][0]["face"] != "green" else "red"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run("validate", str(path))[0] == 1
    assert capsys.readouterr().err.startswith("avanti: event 0:")


def test_replay_prints_each_command_and_its_events(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    code, text = run("replay", str(path))
    assert code == 0
    assert "1. Ann: roll ─" in text
    assert "Ann rolls orange." in text
    assert "The game ends with" in text.splitlines()[-1]


def test_replay_step_waits_for_enter_and_stops_on_q(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    code, text = run("replay", str(path), "--step", stdin="\n\nq\n")
    assert code == 0
    assert "2. Bob: roll ─" in text
    assert "3. Cy" not in text
    code, text = run("replay", str(path), "--step", stdin="\n")
    assert code == 0
    assert "1. Ann: roll ─" in text
    assert "2. Bob" not in text


# -- play ----------------------------------------------------------------------------------------


def test_play_refuses_bad_input_saves_and_leaves_at_end_of_input(tmp_path: Path) -> None:
    save = tmp_path / "mid.json"
    code, text = run(
        "play",
        "--game",
        "mare",
        "--human",
        "0",
        "--seed",
        "2",
        stdin=f"x\n9\n\nsave\nsave {save}\n1\n",
    )
    assert code == 0
    assert "'x' names no legal command of seat 0; legal now: 'roll'" in text
    assert "9 is not on the list: choose 1 to 1." in text
    assert "Type the number of a command" in text
    assert "Say where: save FILE" in text
    assert f"Saved to {save}" in text
    assert text.rstrip().endswith("End of input: leaving the game.")
    saved = mare.loads(save.read_text(encoding="utf-8"))
    assert saved.version == 0
    code, text = run("play", "--resume", str(save), "--human", "0", stdin="1\nleave\n")
    assert code == 0
    assert (
        "Ann (you, fish friends), Bob (heuristic, fisher fans), Cy (heuristic, fish friends)"
        in text
    )
    assert "Leaving the game." in text


def test_play_shows_the_humans_choices_and_plays_to_the_end() -> None:
    code, text = run(
        "play",
        "--game",
        "mare",
        "--players",
        "2",
        "--human",
        "0",
        "--seed",
        "7",
        "--bots",
        "random",
        stdin="1\n" * 200,
    )
    assert code == 0
    assert "Ann (seat 0, fish friends), your move:" in text
    assert "  1. roll  (roll the die)" in text
    assert "The game is over." in text


def test_play_offers_the_m6_choice_by_number() -> None:
    for seed in range(40):
        code, text = run(
            "play", "--game", "mare", "--players", "1", "--seed", str(seed), stdin="2\n1\n" * 100
        )
        if "2. move " in text:
            break
    assert code == 0
    assert re.search(
        r"1\. move (blue|orange|yellow|pink)  \(move the \1 fish one piece toward the sea \(M6\)\)",
        text,
    )
    assert "The game is over." in text


def test_play_with_only_bots_tells_the_game() -> None:
    code, text = run("play", "--game", "mare", "--human", "", "--seed", "7")
    assert code == 0
    assert "Ann rolls orange." in text
    assert "The game is over." in text


def test_play_refuses_a_number_too_long_or_not_written_in_ascii_digits() -> None:
    """A line of 5,000 digits made ``int()`` raise (Python's limit is 4,300 digits) and "²",
    a digit to ``str.isdigit`` but no number to ``int()``, did too: both ended the session with
    a traceback. Both are refused; a long number is not repeated back whole."""
    code, text = run(
        "play", "--game", "mare", "--human", "0", "--seed", "2", stdin=f"{'9' * 5000}\n²\n"
    )
    assert code == 0
    assert "99999999... is not on the list: choose 1 to 1." in text
    assert "9" * 9 not in text.replace("9" * 5000, "")  # only the echo of the input holds more
    assert "'²' names no legal command of seat 0; legal now: 'roll'" in text
    assert text.rstrip().endswith("End of input: leaving the game.")


def saved_seed(tmp_path: Path, name: str, *seed: str) -> tuple[int, str]:
    """The seed of a game ``avanti play`` saves at its first prompt, and what it printed."""
    path = tmp_path / name
    code, text = run("play", "--game", "mare", "--human", "0", *seed, stdin=f"save {path}\n")
    assert code == 0
    seed_: int = mare.loads(path.read_text(encoding="utf-8")).setup.seed
    return seed_, text


def test_play_deals_from_a_secret_seed_unless_one_is_given(tmp_path: Path) -> None:
    """Every session used seed 7 by default, so a person at the table could deal every hand and
    roll to come (M3, A30); now the default is a fresh secret seed, never printed."""
    first, text = saved_seed(tmp_path, "a.json")
    second, _ = saved_seed(tmp_path, "b.json")
    assert first != second  # two 64-bit secrets: equal once in 2**64
    assert 7 not in (first, second)
    assert str(first) not in text
    chosen, text = saved_seed(tmp_path, "c.json", "--seed", "123456789012345")
    assert chosen == 123456789012345
    assert "123456789012345" not in text  # a given seed is not shown to the seat either


def test_play_says_when_it_cannot_save(tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "game.json"
    code, text = run("play", "--game", "mare", stdin=f"save {target}\n")
    assert code == 0
    assert f"Could not save to {target}: No such file or directory" in text


def test_without_rich_the_command_line_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "rich", None)
    assert run("demo", "--game", "mare")[0] == 1
    err = capsys.readouterr().err
    assert "the command line needs rich: run python -m pip install '.[cli]' in a checkout" in err
    assert "avanti[cli]" not in err  # the package is on no index: install it from a checkout


def test_play_rejects_seats_that_are_not_at_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("play", "--game", "mare", "--human", "0,5")[0] == 1
    assert "--human takes seats from 0 to 2, got '5'" in capsys.readouterr().err


def interrupt(size: int | None = -1, /) -> str:
    raise KeyboardInterrupt


def test_play_exits_with_130_on_ctrl_c(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    inp = io.StringIO("1\n")
    monkeypatch.setattr(inp, "readline", interrupt)
    assert main(["play", "--game", "mare"], out=io.StringIO(), inp=inp) == 130
    assert capsys.readouterr().err == "\navanti: interrupted\n"


def test_play_as_a_process_ends_cleanly_at_end_of_input() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "avanti", "play", "--game", "mare"],
        input="abc\n1\n",
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0
    assert "Traceback" not in done.stderr
    assert "End of input" in done.stdout


# -- simulate ------------------------------------------------------------------------------------


def test_simulate_json_is_the_same_on_one_and_two_workers() -> None:
    argv = [
        "simulate",
        "--game",
        "mare",
        "--games",
        "6",
        "--bots",
        "heuristic,random",
        "--rotate",
        "--seed",
        "5",
        "--json",
    ]
    one = run(*argv, "--workers", "1")
    two = run(*argv, "--workers", "2")
    assert one == two
    data = json.loads(one[1])
    assert data["games"] == 6
    assert data["bots"] == ["heuristic", "random"]
    assert data["by_bot"]["heuristic"]["games"] == 6
    low, high = data["seats"][0]["ci95"]
    assert 0 <= low <= data["seats"][0]["rate"] <= high <= 1
    assert data["commands"]["mean"] < data["events"]["mean"]


def test_simulate_prints_tables_with_intervals() -> None:
    code, text = run(
        "simulate", "--game", "mare", "--games", "4", "--players", "2", "--workers", "1"
    )
    assert code == 0
    assert (
        "Avanti mare!: 4 games, seed 0, bots random, random (fixed seats), 1 worker (local)" in text
    )
    assert "Wins by seat (95% Wilson interval)" in text
    assert "Wins by bot" in text
    assert "commands" in text


def test_simulate_says_when_matplotlib_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _ = run("simulate", "--game", "mare", "--games", "2", "--plot", str(tmp_path / "p.png"))
    assert code == 1
    assert "--plot needs matplotlib" in capsys.readouterr().err
    assert not (tmp_path / "p.png").exists()


def test_simulate_says_how_to_install_matplotlib_from_a_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert run("simulate", "--game", "mare", "--plot", str(tmp_path / "p.png"))[0] == 1
    err = capsys.readouterr().err
    assert "python -m pip install '.[plot]' in a checkout of avanti" in err
    assert "avanti[plot]" not in err  # the package is on no index


def test_simulate_names_the_seat_limits(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("simulate", "--players", "9")[0] == 1
    assert capsys.readouterr().err == "avanti: Avanti takes 3 to 5 players, not 9\n"
    assert run("simulate", "--game", "mare", "--bots", ",".join(["random"] * 7))[0] == 1
    assert capsys.readouterr().err == "avanti: Avanti mare! takes 1 to 6 players, not 7\n"


def test_simulate_refuses_a_bad_plan(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("simulate", "--game", "mare", "--games", "0")[0] == 1
    assert "at least one game" in capsys.readouterr().err
    assert run("simulate", "--game", "mare", "--bots", "random,lucky")[0] == 1
    assert "unknown bot 'lucky'" in capsys.readouterr().err


# -- odds and arguments --------------------------------------------------------------------------


def test_odds_prints_the_exact_table() -> None:
    code, text = run("odds", "--game", "mare", "--policy", "closest-to-boat")
    assert code == 0
    assert "rulebook" in text
    assert "0.3570" in text
    assert "0.5295" in text
    code, text = run("odds", "--variant", "all", "--policy", "random")
    assert code == 0
    assert "red-only" in text


def test_odds_names_the_choices_for_a_bad_policy(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("odds", "--policy", "lucky")[0] == 1
    assert "closest-to-boat" in capsys.readouterr().err
    assert run("odds", "--variant", "wet")[0] == 1
    assert "red-only" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["demo", "play", "simulate", "odds"])
def test_game_has_help_and_shows_its_default(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(command, "--help")[0] == 0
    help = " ".join(capsys.readouterr().out.split())  # argparse wraps lines to the terminal
    default = "mare" if command == "odds" else "avanti"
    assert f"which game (default: {default})" in help


@pytest.mark.parametrize("command", ["demo", "play", "simulate", "replay", "validate", "odds"])
def test_each_command_help_ends_with_examples(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(command, "--help")[0] == 0
    examples = capsys.readouterr().out.split("\nexamples:\n")[1].splitlines()
    assert 1 <= len(examples) <= 2
    for line in examples:  # one example a line, line breaks kept; each one parses
        assert line.startswith(f"  avanti {command} ")
        assert _parser().parse_args(line.split()[1:]).command == command


def test_bad_arguments_exit_with_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("demo", "--game", "chess")[0] == 2
    assert "invalid choice: 'chess'" in capsys.readouterr().err
    assert run()[0] == 2


def test_the_command_line_reports_library_errors_in_one_line_and_bugs_in_full(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from avanti.cli import watch

    assert run("simulate", "--game", "mare", "--bots", "random,nonsense")[0] == 1
    assert (
        capsys.readouterr().err
        == "avanti: unknown bot 'nonsense'; choose from random, heuristic, search "
        "(or name a bot of your own as module:attribute)\n"
    )

    def broken(*args: object) -> int:
        raise RuntimeError("a bug in the library")

    monkeypatch.setattr(watch, "demo", broken)
    with pytest.raises(RuntimeError, match="a bug in the library"):
        run("demo", "--game", "mare")


def test_the_catalog_raises_library_errors() -> None:
    from avanti.catalog import game_info
    from avanti.core import AvantiError, InvalidSetup, UnknownGame

    with pytest.raises(UnknownGame) as unknown:
        game_info("chess")
    assert isinstance(unknown.value, AvantiError)
    assert isinstance(unknown.value, KeyError)
    assert str(unknown.value) == "unknown game 'chess'; known: autorama, avanti, mare"
    assert (unknown.value.name, unknown.value.known) == ("chess", ("autorama", "avanti", "mare"))
    with pytest.raises(InvalidSetup, match="Avanti takes 3 to 5 players, not 6"):
        game_info("avanti").player_names(6)


def test_play_lets_a_person_pick_the_side_they_back_and_shows_it_in_every_header(
    tmp_path: Path,
) -> None:
    """M2: a player sides with the fishers or with the fish; ``--side`` picks it for the human
    seats, the headers and the table say it, and ``--save`` keeps the game after every command."""
    save = tmp_path / "mare.json"
    code, text = run(
        "play",
        "--game",
        "mare",
        "--side",
        "fisher-fans",
        "--seed",
        "2",
        "--save",
        str(save),
        stdin="1\nleave\n",
    )
    assert code == 0
    assert text.startswith(
        "Avanti mare!: Ann (you, fisher fans), Bob (heuristic, fisher fans), "
        "Cy (heuristic, fish friends)\n"
    )
    assert "Ann (seat 0, fisher fans), your move:" in text
    assert "sides: Ann (you): fisher fans; Bob: fisher fans; Cy: fish friends" in text
    assert "(such as 'roll' or 'move orange')" in text
    saved = mare.loads(save.read_text(encoding="utf-8"))
    assert saved.setup.sides == (
        mare.Side.FISHER_FANS,
        mare.Side.FISHER_FANS,
        mare.Side.FISH_FRIENDS,
    )
    assert saved.version >= 1
    assert f"Saved to {save}; go on with: avanti play --resume {save}" in text


def test_side_is_refused_for_a_game_without_sides(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("play", "--game", "autorama", "--side", "fish-friends", stdin="")[0] == 1
    assert "--side: For Sale: Autorama has no sides to pick" in capsys.readouterr().err


def test_each_game_suggests_its_own_inputs() -> None:
    """The hint of ``avanti play`` names inputs of the game being played (A9, F4, M3)."""
    hints = {game: run("play", "--game", game, "--seed", "1", stdin="")[1] for game in GAMES}
    assert "(such as 'marker 12' or 'play 8 for 3')" in hints["avanti"]
    assert "(such as 'bid 5000' or 'pass')" in hints["autorama"]
    assert "(such as 'roll' or 'move orange')" in hints["mare"]
    assert all("'leave' leaves" in hint for hint in hints.values())


def test_odds_help_lists_every_policy_and_variant(capsys: pytest.CaptureFixture[str]) -> None:
    from avanti.cli.odds import VARIANTS

    assert run("odds", "--help")[0] == 0
    helptext = " ".join(capsys.readouterr().out.split())
    assert all(policy in helptext for policy in mare.POLICIES)
    assert all(variant in helptext for variant in VARIANTS)


class _Terminal(io.StringIO):
    """Input typed at a terminal: what ``avanti play`` asks a person, not a pipe."""

    def isatty(self) -> bool:
        return True


def test_play_offers_to_save_the_game_at_its_end(tmp_path: Path) -> None:
    """At a terminal, the end of a game asks for a file to save it to (Enter: none)."""
    path = tmp_path / "end.json"
    game, commands = mare.new_game(["Ann"], seed=2), 0
    while not game.is_over:  # the game the prompt plays when "1" (the first command) is typed
        game, commands = game.execute(game.legal_commands()[0]), commands + 1
    out = io.StringIO()
    typed = "1\n" * commands + f"{path}\n"
    code = main(["play", "--game", "mare", "--seed", "2", "--players", "1"], out, _Terminal(typed))
    assert code == 0
    assert "Save the game? Type a file name, or Enter to finish: " in out.getvalue()
    assert mare.loads(path.read_text(encoding="utf-8")) == game
    out = io.StringIO()
    code = main(
        ["play", "--game", "mare", "--seed", "2", "--players", "1"],
        out,
        _Terminal("1\n" * commands),
    )
    assert code == 0
    assert out.getvalue().rstrip().endswith("or Enter to finish:")


def test_a_side_of_no_game_is_refused_by_name() -> None:
    from avanti.cli.play import _sides
    from avanti.core.errors import InvalidSetup

    with pytest.raises(InvalidSetup, match="--side takes fish-friends or fisher-fans, not 'fish'"):
        _sides(GAMES["mare"], "fish", frozenset({0}), 2)
    assert _sides(GAMES["mare"], "fisher-fans", frozenset({1}), 3) == [
        "fish-friends",
        "fisher-fans",
        "fish-friends",
    ]
