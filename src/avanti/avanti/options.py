"""Rule options: the readings of the rulebook that a game may switch (A18, A21).

Each field is one point the rulebook leaves open; its default is the library's reading, and the
rules page (docs/rules/avanti.md, "Open points and our choices") gives both readings with an
example. Options are part of the setup, so a saved game keeps the reading it was played under;
a document written before a field existed loads with that field's default.
"""

from __future__ import annotations

from attrs import frozen

__all__ = ["RuleOptions"]


@frozen
class RuleOptions:
    """The switchable readings of the rules; the defaults are the library's reading.

    ``atm_last_car_wraps`` (A21): whether the last car counts the leader as the car behind it.
    ``atm_behind_in_race_order`` (A21): whether "the car immediately behind" is the next car in
    the race rather than along the road. ``quitters_cards_keep_run_going`` (A18 c): whether a
    quitter still holding Power cards counts as a player with cards left.
    """

    atm_last_car_wraps: bool = True
    """A21. ``True``: on the closed road the car behind the last car is the leader, so the last
    car also collects the lots from just past the leader's space up to its own, and every ATM
    pays someone. ``False``: the last car has no car behind it; those lots (the ones it gets only
    by counting the leader as the car behind it) pay nobody, and every other lot pays as with
    ``True``. A car standing on a lot collects it under both readings."""

    atm_behind_in_race_order: bool = False
    """A21. ``False``: "the car immediately behind" a car is the next car back along the road.
    ``True``: it is the next car back in the race order (A12), and each car collects the lots
    from just past that car up to itself, counted in distance driven (a lot lies at its distance
    from the marker plus any number of laps). The two readings differ only once the leader is a
    lap or more ahead of the last car: then the last car has nothing behind it, and a lot on two
    cars' stretches pays the one further ahead in the race. A car standing on a lot still
    collects it."""

    quitters_cards_keep_run_going: bool = False
    """A18 (c). ``False``: the run ends when the leader's owner is the only player who can go on
    (has not quit and holds a card); a quitter cannot go on, whatever it holds. ``True``, the
    rulebook's words taken literally: the run ends when the leader's owner is the only player
    holding Power cards, so a quitter who kept cards keeps the run going (the leader's owner
    then drives on alone)."""
