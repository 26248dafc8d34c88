"""``avanti lab``: the lab alone, on a store in memory, on the loopback address.

The command runs in this test's own process (in the main thread, where uvicorn takes SIGTERM),
while a helper thread asks the lab a question over real HTTP and then sends the signal."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from avanti.cli import _parser, main
from tests.server.support import PATIENCE, wait_for
from tests.server.test_serve import free_port, quiet_root

__all__ = ["quiet_root"]  # the fixture, used by name below

A21 = json.loads((Path(__file__).parents[2] / "docs/lab/avanti-a21-last-car.json").read_text())


def test_lab_serves_the_page_and_answers_a_case_until_stopped(quiet_root: None) -> None:
    port = free_port()
    seen: dict[str, Any] = {}

    def client() -> None:
        started = False
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=PATIENCE) as http:

                def up() -> bool:
                    try:
                        return http.get("/health").status_code == 200
                    except httpx.TransportError:
                        return False

                wait_for(up, "avanti lab to answer")
                started = True
                seen["page"] = http.get("/lab").status_code
                answer = http.post("/lab/compare", json=A21).json()
                seen["steps"] = [d["step"] for d in answer["differences"]]
        except BaseException as error:
            seen["error"] = error
        finally:
            if started or "error" in seen:
                os.kill(os.getpid(), signal.SIGTERM)

    helper = threading.Thread(target=client)
    helper.start()
    out = io.StringIO()
    code = main(["lab", "--port", str(port)], out=out)
    helper.join(PATIENCE)
    assert "error" not in seen, seen.get("error")
    assert code == 0
    assert out.getvalue().splitlines() == [
        f"avanti: the rules lab is at http://127.0.0.1:{port}/lab (Ctrl-C stops it)",
        "avanti: the lab has stopped",
    ]
    assert (seen["page"], seen["steps"]) == (200, [3])


def test_lab_refuses_a_port_out_of_range_or_taken(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "--port", "70000"], out=io.StringIO()) == 1
    assert "--port must be from 0 to 65535" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["lab", "--port", str(port)], out=io.StringIO()) == 1
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_lab_help_ends_with_examples_that_parse(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "--help"]) == 0
    examples = capsys.readouterr().out.split("\nexamples:\n")[1].splitlines()
    assert [line.split()[:2] for line in examples] == [["avanti", "lab"]] * 2
    for line in examples:
        assert _parser().parse_args(line.split()[1:]).command == "lab"
