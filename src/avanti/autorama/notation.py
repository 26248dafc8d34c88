"""For Sale: Autorama's notation for commands (see :mod:`avanti.core.notation`).

The forms, notation first, then the variants a reader also accepts. Money is in dollars, as
the rulebook counts it (F2) and as the table and the account of events show it (``cash
$28,000``, ``bid $5,000``); the number of thousands reads too (``"bid 5"``, ``"bid 5k"``).

- ``Bid`` (F4): ``"bid 5000"``; ``"bid $5,000"`` (the same after reading), ``"bid 5k"``,
  ``"bid 5"``, ``"raise to 5000"``.
- ``Pass`` (F5): ``"pass"``; ``"drop out"``.
- ``PlayAdvisor`` (F9): ``"play 14"``; ``"advisor 14"``, ``"play advisor 14"``,
  ``"play fleet manager 14"``, ``"fleet manager 14"``. With the Fleet Manager's boost (F10):
  ``"play 14 boosted"``; ``"play 14 boost"``, ``"play 14 with boost"``, ``"boost 14"``,
  ``"play 14 as 32"``, ``"play fleet manager 14 boosted"``, ...
- ``Offer`` (F14): ``"offer 12"``; ``"offer vehicle 12"``, ``"sell 12"``. Two vehicles with a
  Lawyer (F15): ``"offer 3 and 25"``; ``"offer 3 25"``, ``"offer 3, 25"``, ``"offer 3 & 25"``,
  ``"offer vehicles 3 and 25"``, either way round (``"offer 25 and 3"``).
- ``OfferWithLawyer`` (F15): ``"offer 3 and 25 with lawyer 19"``; every spelling of the pair
  followed by ``"with lawyer 19"`` or ``"using lawyer 19"``, and ``"use lawyer 19 to offer 3 and
  25"``. Lawyers are kept face up (F12), so naming one shows nothing hidden.
- ``TakeBack`` (F15): ``"take back 3"``; ``"take back vehicle 3"``, ``"take 3 back"``,
  ``"withdraw 3"``.
- ``UseMechanic`` (F16): ``"use mechanic"``; ``"mechanic"``, ``"use a mechanic"``.
- ``DeclineMechanic`` (F16): ``"decline mechanic"``; ``"decline"``, ``"no mechanic"``,
  ``"keep mechanics"``.

Each is made of the command's own fields and the public kinds of advisor only (F4-F19): a
command names its seat's own choices, so the notation shows that seat nothing hidden. Offers are
made by every seat at once (F14), but vehicles are single cards, so no two seats share one.
"""

from __future__ import annotations

import functools

from avanti.autorama.cards import ADVISORS, boosted_value, kind_of
from avanti.autorama.commands import (
    Bid,
    Command,
    DeclineMechanic,
    Offer,
    OfferWithLawyer,
    Pass,
    PlayAdvisor,
    TakeBack,
    UseMechanic,
)
from avanti.autorama.setup import MAX_BID
from avanti.autorama.state import GameState
from avanti.core.notation import spellings

__all__ = ["notations"]

_PASS = ("pass", "drop out")
_USE = ("use mechanic", "mechanic", "use a mechanic", "use the mechanic")
_DECLINE = (
    "decline mechanic",
    "decline",
    "decline the mechanic",
    "no mechanic",
    "keep mechanics",
    "keep mechanic",
    "keep my mechanics",
)
_PLAY = ("play {name}", "{name}", "play advisor {number}", "advisor {number}")
"""Ways to play an advisor (F9); ``name`` is its number, or its kind and number."""
_BOOST = (
    "play {name} boosted",
    "play {name} boost",
    "play {name} with boost",
    "play {name} with its boost",
    "{name} boosted",
    "boost {name}",
    "play {name} as {value}",
    "advisor {number} boosted",
    "advisor {number} boost",
)
"""Ways to play a Fleet Manager with its boost (F10): it then counts as ``value``."""
_PAIR = (
    "offer {0} and {1}",
    "offer {0} {1}",
    "offer {0}, {1}",
    "offer {0},{1}",
    "offer {0} & {1}",
    "offer vehicles {0} and {1}",
    "sell {0} and {1}",
)
"""Ways to offer two vehicles with a Lawyer (F15), either way round."""
_NAMED = (" with lawyer {lawyer}", " using lawyer {lawyer}")
"""Ways to name the Lawyer after an offer of two (F15)."""


def notations(state: GameState, command: Command) -> tuple[str, ...]:
    """Every spelling of ``command``, the notation first (F4, F5, F9, F10, F14-F16).

    The spellings of commands that could be legal in some game are remembered; those of any
    other command (a bid above :data:`~avanti.autorama.setup.MAX_BID`, a card not in the deck,
    an offer of three) are written afresh each time, so no caller fills the caches with them.
    """
    if isinstance(command, Bid):
        amount = command.amount
        return (_bid if _is_amount(amount) else _bid.__wrapped__)(amount)
    if isinstance(command, Pass):
        return _PASS
    if isinstance(command, PlayAdvisor):
        number = command.advisor
        return (_advisor if _is_card(number) else _advisor.__wrapped__)(number, command.boost)
    if isinstance(command, Offer):
        return _offer_of(command.vehicles)
    if isinstance(command, OfferWithLawyer):
        vehicles, lawyer = command.vehicles, command.lawyer
        known = _is_offer(vehicles) and _is_card(lawyer)
        return (_offer_with if known else _offer_with.__wrapped__)(vehicles, lawyer)
    if isinstance(command, TakeBack):
        vehicle = command.vehicle
        return (_take_back if _is_card(vehicle) else _take_back.__wrapped__)(vehicle)
    if isinstance(command, UseMechanic):
        return _USE
    assert isinstance(command, DeclineMechanic)
    return _DECLINE


def _offer_of(vehicles: tuple[int, ...]) -> tuple[str, ...]:
    """The spellings of an offer of ``vehicles``, remembered only for an offer's shape."""
    return (_offer if _is_offer(vehicles) else _offer.__wrapped__)(vehicles)


def _is_amount(amount: object) -> bool:
    """Whether ``amount`` is a bid some game may see: 0 to ``MAX_BID`` (F2, F4, F11)."""
    return type(amount) is int and 0 <= amount <= MAX_BID


def _is_card(number: object) -> bool:
    """Whether ``number`` is an advisor's or a vehicle's (1-30, F1)."""
    return type(number) is int and number in ADVISORS


def _is_offer(vehicles: object) -> bool:
    """Whether ``vehicles`` is an offer's shape: one or two vehicles (F14, F15)."""
    return type(vehicles) is tuple and 1 <= len(vehicles) <= 2 and all(map(_is_card, vehicles))


# Each is remembered: a reader asks for the spellings of every legal command at every move.
# ``typed``: ``True`` and ``1`` are equal keys otherwise, and must not share spellings. Only
# commands that fit a game reach the caches (see ``notations``), so their keys are few: at most
# 142 amounts, 30 advisors twice, 465 offers (each with 30 Lawyers named) and 30 vehicles.


@functools.lru_cache(maxsize=1024, typed=True)
def _bid(amount: int) -> tuple[str, ...]:
    """In dollars, as the table and the account of events show money; or in thousands (F2, F4)."""
    dollars = amount * 1000
    return spellings((f"bid {dollars}", f"bid {amount}k", f"bid {amount}", f"raise to {dollars}"))


@functools.lru_cache(maxsize=1024, typed=True)
def _advisor(number: int, boost: bool) -> tuple[str, ...]:
    """An advisor by its number, then by its kind and number (F9), with or without the boost."""
    names = [str(number)]
    if number in ADVISORS:
        names.append(f"{kind_of(number).value} {number}")
    if not boost:
        return spellings(form.format(name=name, number=number) for form in _PLAY for name in names)
    value = boosted_value(number)
    return spellings(
        form.format(name=name, number=number, value=value) for form in _BOOST for name in names
    )


@functools.lru_cache(maxsize=4096, typed=True)
def _offer(vehicles: tuple[int, ...]) -> tuple[str, ...]:
    """One vehicle (F14), or two with a Lawyer, in either order (F15)."""
    if len(vehicles) != 2:
        listed = " ".join(str(v) for v in vehicles)
        return spellings((f"offer {listed}", f"offer vehicle {listed}", f"sell {listed}"))
    low, high = vehicles
    return spellings(form.format(*pair) for pair in ((low, high), (high, low)) for form in _PAIR)


@functools.lru_cache(maxsize=4096, typed=True)
def _offer_with(vehicles: tuple[int, ...], lawyer: int) -> tuple[str, ...]:
    """Two vehicles with the Lawyer named (F15): a spelling of the pair, then the Lawyer."""
    pair = _offer_of(vehicles)
    named = [form + suffix.format(lawyer=lawyer) for suffix in _NAMED for form in pair]
    listed = " and ".join(str(v) for v in vehicles)
    return spellings([*named, f"use lawyer {lawyer} to offer {listed}"])


@functools.lru_cache(maxsize=1024, typed=True)
def _take_back(vehicle: int) -> tuple[str, ...]:
    forms = ("take back {}", "take back vehicle {}", "take {} back", "take vehicle {} back")
    return spellings([*(form.format(vehicle) for form in forms), f"withdraw {vehicle}"])
