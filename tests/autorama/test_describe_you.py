"""A line read by its own seat speaks to it in the second person (the table page's history and
the terminal read these lines to the seat they are for)."""

from __future__ import annotations

from avanti.autorama import AdvisorsRevealed, Setup, VehiclesRevealed, describe

SETUP = Setup(("Ann", "Bob", "Cy"))


def test_the_seat_that_starts_a_round_reads_you_bid_and_you_play() -> None:
    advisors = AdvisorsRevealed(1, 1, (3, 7, 12))
    vehicles = VehiclesRevealed(2, 2, (5, 9, 14))
    assert describe(advisors, SETUP).endswith("; Bob bids first.")
    assert describe(advisors, SETUP, seat=1).endswith("; you bid first.")
    assert describe(advisors, SETUP, seat=0).endswith("; Bob bids first.")
    assert describe(vehicles, SETUP).endswith("; Cy plays first.")
    assert describe(vehicles, SETUP, seat=2).endswith("; you play first.")
