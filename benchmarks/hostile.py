"""Hostile inputs: each is refused in bounded time and memory, and nothing it built is kept.

For each class of input an attacker might send (a huge board, junk events, huge cash, deep
nesting, long names, repeated keys, a long notation), this builds the input at two sizes (a
document far over the length limit, and one just under it, which the library has to read before
refusing), hands it to the library, and reports:

- the time to the refusal (best of ``--repeats``),
- the peak memory allocated while refusing (``tracemalloc``; the input's own text not counted),
- the memory still held afterwards, after a garbage collection (what a refused input left in
  caches),
- the error the library raised.

Run it with ``nox -s hostile``; ``--small`` runs every class at a hundredth of the size (the test
gate does that, to check every class is still refused). Nothing here is a timed assertion: the
figures are printed, and the verdict lines compare them with the targets of the untrusted-games
page (under 1 s and 50 MB for a 10 MB document).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import avanti
from avanti import autorama, core, mare
from avanti.core import limits

Attempt = Callable[[], object]

TIME_TARGET = 1.0
"""Seconds a refusal may take at most."""
MEMORY_TARGET = 50 * 1024 * 1024
"""Peak bytes a refusal may allocate at most."""


def _avanti_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        avanti.dumps(avanti.new_game(["Ann", "Bob", "Cy"], seed=1))
    )
    return document


def _autorama_document() -> dict[str, Any]:
    game = autorama.new_game(["Ann", "Bob", "Cy"], seed=1)
    document: dict[str, Any] = json.loads(autorama.dumps(game))
    return document


def _mare_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(mare.dumps(mare.new_game(["Ann", "Bob"], seed=1)))
    return document


def _text(document: dict[str, Any]) -> str:
    return json.dumps(document)


def huge_board(size: int) -> tuple[str, Attempt]:
    """An Avanti document whose island has about ``size`` bytes' worth of spaces."""
    document = _avanti_document()
    spaces = max(size // 6, 1)
    document["setup"]["board"]["island"] = [1000] * spaces
    text = _text(document)
    return text, lambda: avanti.loads(text)


def junk_events(size: int) -> tuple[str, Attempt]:
    """A mare document followed by about ``size`` bytes of malformed events."""
    document = _mare_document()
    junk = {"type": "Rolled", "seat": "x"}
    count = max(size // len(json.dumps(junk)), 1)
    document["events"] = [junk] * count
    text = _text(document)
    return text, lambda: mare.loads(text)


def huge_cash(size: int) -> tuple[str, Attempt]:
    """An Autorama document starting from a scenario where each seat has 10^15 in cash; the
    document is small whatever ``size`` is: the danger is what the rules would build from it."""
    document = _autorama_document()
    document["setup"]["scenario"] = {
        "phase": "hiring",
        "round": 1,
        "advisor_deck": [],
        "vehicle_deck": [],
        "check_deck": [],
        "cash": [10**15] * 3,
        "advisors": [],
        "vehicles": [],
        "checks": [],
        "kept": [],
    }
    document["events"] = []
    text = _text(document)
    return text, lambda: autorama.loads(text)


def deep_nesting(size: int) -> tuple[str, Attempt]:
    """``size`` opening brackets inside an event."""
    depth = max(size // 2, 1)
    text = '{"format": "mare", "version": 2, "setup": {}, "events": ' + "[" * depth + "]" * depth
    text += "}"
    return text, lambda: mare.loads(text)


def long_names(size: int) -> tuple[str, Attempt]:
    """An Avanti document whose first player's name is ``size`` characters long."""
    document = _avanti_document()
    document["setup"]["players"] = ["A" * max(size, 1), "B", "C"]
    text = _text(document)
    return text, lambda: avanti.loads(text)


def repeated_keys(size: int) -> tuple[str, Attempt]:
    """A mare document whose setup repeats its seed key about ``size / 12`` times."""
    document = _mare_document()
    text = _text(document)
    repeats = max(size // 12, 1)
    forged = text.replace('"seed": 1', ", ".join(['"seed": 1'] * repeats), 1)
    return forged, lambda: mare.loads(forged)


def long_notation(size: int) -> tuple[str, Attempt]:
    """``size`` characters read as a command's notation."""
    game = avanti.new_game(["Ann", "Bob", "Cy"], seed=1)
    text = "play 1 for 1 " * max(size // 13, 1)
    return text, lambda: game.parse_notation(text, seat=0)


CLASSES: dict[str, Callable[[int], tuple[str, Attempt]]] = {
    "huge board": huge_board,
    "junk events": junk_events,
    "huge cash": huge_cash,
    "deep nesting": deep_nesting,
    "long names": long_names,
    "repeated keys": repeated_keys,
    "long notation": long_notation,
}


def measure(attempt: Attempt, repeats: int) -> tuple[float, int, int, str]:
    """Best time, peak bytes, bytes kept after a collection, and the error's first line."""
    best = float("inf")
    error = "accepted (not refused!)"
    for _ in range(repeats):
        started = time.perf_counter()
        try:
            attempt()
        except core.AvantiError as refused:
            error = f"{type(refused).__name__}: {str(refused).splitlines()[-1].strip()}"
        best = min(best, time.perf_counter() - started)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    with contextlib.suppress(core.AvantiError):
        attempt()
    peak = tracemalloc.get_traced_memory()[1] - before
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return best, peak, kept, error


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="time each input this many times")
    parser.add_argument("--small", action="store_true", help="a hundredth of the sizes")
    args = parser.parse_args(argv)
    scale = 100 if args.small else 1
    sizes = {
        "10 MB": 10_000_000 // scale,
        "just under the limit": limits.MAX_DOCUMENT_BYTES * 9 // 10 // scale,
    }
    print(f"Hostile inputs (document limit {limits.MAX_DOCUMENT_BYTES:,} bytes)")
    print(
        f"{'input':<14} {'size':<22} {'bytes':>11} {'time':>9} {'peak':>10} {'kept':>9}  "
        "refused with"
    )
    worst_time = 0.0
    worst_peak = 0
    worst_kept = 0
    refused_all = True
    for name, build in CLASSES.items():
        for label, size in sizes.items():
            text, attempt = build(size)
            best, peak, kept, error = measure(attempt, args.repeats)
            refused_all = refused_all and not error.startswith("accepted")
            worst_time = max(worst_time, best)
            worst_peak = max(worst_peak, peak)
            worst_kept = max(worst_kept, kept)
            print(
                f"{name:<14} {label:<22} {len(text):>11,} {best * 1000:>7.1f}ms "
                f"{peak / 1e6:>8.2f}MB {kept / 1e3:>7.1f}kB  {error[:90]}"
            )
            del text, attempt
    print()
    print(f"every input refused with a library error: {'yes' if refused_all else 'NO'}")
    print(
        f"slowest refusal {worst_time:.3f} s (target < {TIME_TARGET:.0f} s): "
        f"{'met' if worst_time < TIME_TARGET else 'MISSED'}"
    )
    print(
        f"largest peak {worst_peak / 1e6:.1f} MB (target < {MEMORY_TARGET / 1e6:.0f} MB): "
        f"{'met' if worst_peak < MEMORY_TARGET else 'MISSED'}"
    )
    print(f"most memory kept after a refusal: {worst_kept / 1e3:.1f} kB")


if __name__ == "__main__":
    main()
