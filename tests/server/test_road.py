"""``benchmarks/road.py`` traces one WebSocket command of a real server through ``src/``: the
files it passes, counted, and the calls between them (no figure of it is a target here)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROAD = Path(__file__).resolve().parents[2] / "benchmarks" / "road.py"


def test_the_road_of_a_command_runs_from_the_socket_to_the_store_and_back() -> None:
    """The traced road holds what a command of Avanti does: read by the socket, decided by the
    table core on the game's rules (a card played, A8), appended by the SQLite writer, and each
    seat's update built by the push hub; the count in the header is the number of files listed
    (the page included), and every call between files it lists is between two of them."""
    done = subprocess.run(
        [sys.executable, str(ROAD)], capture_output=True, text=True, check=True, timeout=120
    )
    text = done.stdout
    found = re.search(r"files of src/avanti passed: (\d+) \((\d+) of the page", text)
    assert found is not None, text
    listed = re.findall(r"^    ([\w/]+\.(?:py|js)): ", text, flags=re.MULTILINE)
    assert int(found.group(1)) == len(listed) == len(set(listed))
    functions = dict(re.findall(r"^    ([\w/]+\.(?:py|js)): (.*)$", text, flags=re.MULTILINE))
    assert listed[0] == "server/web/play.js"
    assert "_serve" in functions["server/transport/socket.py"].split(", ")
    assert "act_soon" in functions["server/table/master.py"].split(", ")
    assert "_play_card" in functions["avanti/decide.py"].split(", ")
    assert "_at_once" in functions["store/sqlite.py"].split(", ")
    assert "build" in functions["server/transport/push.py"].split(", ")
    assert "update" in functions["server/protocol/wire.py"].split(", ")
    calls = re.findall(r"^  ([\w/]+\.py) -> ([\w/]+\.py): (\d+)$", text, flags=re.MULTILINE)
    edges = {(a, b) for a, b, _ in calls}
    assert ("server/transport/socket.py", "server/runtime.py") in edges
    assert all(a in listed and b in listed and int(n) > 0 for a, b, n in calls)
    # the runtime announces and the parts hear (the table core notes another process's
    # versions itself): no announcement calls back into the runtime
    assert ("server/runtime.py", "server/table/changes.py") in edges
    assert ("server/table/changes.py", "server/runtime.py") not in edges
    # one direction: the table master decides a held game's command itself and hands the
    # store its append (GameStore.turn); the store calls back into no caller, and the
    # SQLite store's own road needs no hook of the base class (EventStore._append_trusted)
    assert ("server/table/master.py", "store/games.py") in edges
    assert ("store/games.py", "server/table/master.py") not in edges
    assert ("store/games.py", "store/sqlite.py") in edges
    assert ("store/base.py", "store/sqlite.py") not in edges
    turning = re.search(r"the road turns back\): (\d+)", text)
    assert turning is not None, text
    assert turning.group(1) == "0", text
