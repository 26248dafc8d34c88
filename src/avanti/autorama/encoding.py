"""For Sale: Autorama for agents: numbered actions, observation and information-state vectors.

:func:`encoding` builds an :class:`AutoramaEncoding` (the contract is
:class:`avanti.core.encoding.Encoding`) from a game's *public* setup, ``game.public_setup``.
It reads only a seat's view and that seat's own event stream, never the seed, the decks or
another seat's hand.

**Actions.** Every command the rules can ever accept in a game of the setup has one id, the
same for every seat (``command(id, seat)`` adds the seat). The ids run through these sections,
in this order; a section is left out when no state of the setup can use it, and every later
section moves down by its size:

=====================  ======  ===================================================================
section                size    commands, in id order
=====================  ======  ===================================================================
pass                   1       ``Pass`` (F5)
bid                    B + 1   ``Bid(amount)`` for ``amount`` 0, 1, ..., B (F4)
play                   30      ``PlayAdvisor(advisor)`` for advisor 1, ..., 30 (F9)
boost                  3       ``PlayAdvisor(advisor, boost=True)`` for Fleet Managers 13-15 (F10)
offer                  30      ``Offer((vehicle,))`` for vehicle 1, ..., 30 (F14)
offer-pair             435     ``Offer((a, b))`` for ``1 <= a < b <= 30``, by ``a`` then ``b``
                               (F14, F15)
take-back              30      ``TakeBack(vehicle)`` for vehicle 1, ..., 30 (F15)
mechanic               2       ``UseMechanic``, then ``DeclineMechanic`` (F16)
offer-with-lawyer      1305    ``OfferWithLawyer((a, b), lawyer)``: each pair as in offer-pair,
                               then each Lawyer 19, 20, 21 (F15)
=====================  ======  ===================================================================

- ``B``, the highest bid, is bounded by the setup. In a shuffled game a seat starts with its
  starting cash (F2: 28 with 3-4 players, 20 with 5-6) and in phase 1 its cash only grows by
  the 1 each of the three Consultants collects (F7): ``B`` is the starting cash plus 3, 31 or
  23. A game started from a scenario hides the cash it hands out, so ``B`` is
  :data:`~avanti.autorama.setup.MAX_CASH` (120), the cash of all seats together at most.
- pass and bid are left out when a scenario starts in phase 2 or 3, play and boost when it
  starts in phase 3: phases never come back.
- offer-with-lawyer is there only when the options let a player name its Lawyer
  (``lawyer_single_use`` or ``lawyer_choice``, F15); otherwise ``OfferWithLawyer`` is never
  accepted.

So a shuffled game has 563 actions with 3 or 4 players and 555 with 5 or 6 (1868 and 1860 with
either Lawyer option): ``Pass`` is 0, ``Bid(amount)`` is ``1 + amount``, ``PlayAdvisor(a)`` is
``B + 1 + a``, and so on (:attr:`AutoramaEncoding.sections` gives every section's first id).
:meth:`AutoramaEncoding.action_id` refuses a command that never can be accepted (a bid over
``B``, a boosted advisor that is not a Fleet Manager, an offer of two in descending order) with
:class:`~avanti.core.errors.InvalidArgument`.

**Observation.** :meth:`AutoramaEncoding.observation` turns a view (a seat's or a spectator's)
into :attr:`~AutoramaEncoding.observation_size` numbers, cut into the pieces of
:attr:`~AutoramaEncoding.observation_pieces`, each with a sentence saying what it holds. Pieces
about every seat list the seats relative to the viewer: the viewer first, then clockwise (a
spectator's start at seat 0), so a policy reads "me, my left neighbour, ..." at any seat.
Money is divided by the cash the table starts a shuffled game with (``players`` times the F2
starting cash: 84, 112, 100 or 120), so one seat's starting cash reads ``1 / players``.

**Information state.** :meth:`AutoramaEncoding.information_state` is the observation followed
by what the seat's own event stream (``game.events_for(seat)``) tells that the view forgets.
Payments are public (F5-F7, F10, F11), so the stream gives the cash every seat has paid and
received, and in a shuffled game (public starting cash, F2) everybody's exact cash; advisors
hired (F5, F6) and played (F9); vehicles bought (F11) and sold, with the checks they fetched
(F17), which are the offers revealed in past rounds. A scenario's starting hands and cash are
hidden, so there the stream tells only what changed since the start.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Sequence

from attrs import frozen

from avanti.autorama.cards import ADVISORS, BOOST_COST, CHECKS, VEHICLES, Kind, kind_of
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
from avanti.autorama.events import (
    AdvisorHired,
    AdvisorPlayed,
    BonusReceived,
    ConsultantPaid,
    Event,
    VehicleBought,
    VehicleSold,
)
from avanti.autorama.setup import MAX_CASH, Phase, PublicSetup, starting_cash
from avanti.autorama.state import Step
from avanti.autorama.views import View
from avanti.core.encoding import Encoding, Facts, Piece, check_pieces, tile
from avanti.core.errors import InvalidArgument

__all__ = ["AutoramaEncoding", "Section", "encoding", "facts"]

CONSULTANT_INCOME = 3
"""F7: the most a seat's cash can grow in phase 1: 1 from each of the three Consultants."""

_FLEET_MANAGERS = tuple(a for a in ADVISORS if kind_of(a) is Kind.FLEET_MANAGER)
_LAWYERS = tuple(a for a in ADVISORS if kind_of(a) is Kind.LAWYER)
_KEEPABLE = tuple(a for a in ADVISORS if kind_of(a).kept_after_buying)
"""F12: the 15 advisors that may stay face up after phase 2 (7-12 and 19-27)."""
_CHECK_VALUES = tuple(sorted(set(CHECKS)))
"""The 15 values a check may have (F1): 0 and 2 to 15, two checks of each."""
_PAIRS = tuple(itertools.combinations(VEHICLES, 2))
"""Every offer of two vehicles, ascending (F14, F15): 435 pairs."""
_PHASES = (Phase.HIRING, Phase.BUYING, Phase.SELLING, Phase.OVER)
_STEPS = (Step.OFFERING, Step.TAKING_BACK, Step.MECHANIC)

_CHECK_INDEX = {value: i for i, value in enumerate(_CHECK_VALUES)}
_KEPT_INDEX = {advisor: i for i, advisor in enumerate(_KEEPABLE)}
_LAWYER_INDEX = {lawyer: i for i, lawyer in enumerate(_LAWYERS)}
_PHASE_INDEX = {phase: i for i, phase in enumerate(_PHASES)}
_STEP_INDEX = {step: i for i, step in enumerate(_STEPS)}
_COPIES = CHECKS.count(CHECKS[-1])
"""How many checks of each value the deck holds (F1): counts of checks are divided by it."""


@frozen
class Section:
    """A run of action ids that stand for one kind of command: ids ``[start, stop)``."""

    name: str
    """The section's name (``"bid"``, ``"offer-pair"``), as in the module's table."""
    start: int
    """The first id of the section."""
    stop: int
    """One past its last id."""
    meaning: str
    """Which command each id stands for, in a sentence."""

    @property
    def size(self) -> int:
        """How many ids the section holds."""
        return self.stop - self.start


class AutoramaEncoding(Encoding[Command, View, Event]):
    """For Sale: Autorama's actions and observations for one public setup (see the module).

    Build it with :func:`encoding`; every lookup table is made once, here.
    """

    __slots__ = (
        "_at",
        "_bid",
        "_cash_scale",
        "_commands",
        "_decline",
        "_info_pieces",
        "_max_bid",
        "_named",
        "_num_actions",
        "_obs_pieces",
        "_offer",
        "_pass",
        "_play",
        "_rounds",
        "_sections",
        "_shuffled",
        "_start_cash",
        "_take",
        "_use",
        "players",
        "public_setup",
    )

    players: int
    """How many seats the setup has (3-6, F1)."""
    public_setup: PublicSetup
    """The public setup the encoding was built for."""

    def __init__(self, public_setup: PublicSetup) -> None:
        """Number the actions and lay out the vectors for ``public_setup`` (see the module).

        :raises InvalidArgument: ``public_setup`` is not an Autorama public setup of 3 to 6
            players.
        """
        if not isinstance(public_setup, PublicSetup):
            raise InvalidArgument(
                "an Autorama encoding is built from an avanti.autorama.PublicSetup"
                f" (game.public_setup), not {type(public_setup).__name__}"
            )
        n = len(public_setup.players)
        if not 3 <= n <= 6:
            raise InvalidArgument(f"For Sale: Autorama is played by 3 to 6 players, not {n} (F1)")
        self.public_setup = public_setup
        self.players = n
        scenario = public_setup.scenario
        first_phase = Phase.HIRING if scenario is None else scenario.phase
        self._shuffled = scenario is None
        self._start_cash = starting_cash(n)
        self._max_bid = self._start_cash + CONSULTANT_INCOME if scenario is None else MAX_CASH
        self._cash_scale = float(n * self._start_cash)
        self._rounds = float(len(ADVISORS) // n)
        options = public_setup.options
        hiring = first_phase is Phase.HIRING
        buying = first_phase in (Phase.HIRING, Phase.BUYING)
        naming = options.lawyer_single_use or options.lawyer_choice
        self._build_actions(hiring, buying, naming)
        self._obs_pieces = self._observation_layout()
        self._info_pieces = self._information_layout()
        self._at = {piece.name: piece.start for piece in self._info_pieces}

    # -- actions --------------------------------------------------------------------------------

    def _build_actions(self, hiring: bool, buying: bool, naming: bool) -> None:
        """Number every command of seat 0 in section order, then the same for every seat."""
        base: list[Command] = []
        sections: list[Section] = []

        def section(name: str, meaning: str, commands: list[Command]) -> None:
            sections.append(Section(name, len(base), len(base) + len(commands), meaning))
            base.extend(commands)

        if hiring:
            section("pass", "Pass (F5)", [Pass(0)])
            section(
                "bid",
                f"Bid(amount) for amount 0 to {self._max_bid}, in order (F4)",
                [Bid(0, amount) for amount in range(self._max_bid + 1)],
            )
        if buying:
            section(
                "play",
                "PlayAdvisor(advisor) for advisor 1 to 30, in order (F9)",
                [PlayAdvisor(0, a) for a in ADVISORS],
            )
            section(
                "boost",
                "PlayAdvisor(advisor, boost=True) for Fleet Manager 13, 14, 15 (F10)",
                [PlayAdvisor(0, a, True) for a in _FLEET_MANAGERS],
            )
        section(
            "offer",
            "Offer((vehicle,)) for vehicle 1 to 30, in order (F14)",
            [Offer(0, (v,)) for v in VEHICLES],
        )
        section(
            "offer-pair",
            "Offer((a, b)) for 1 <= a < b <= 30, by a then b (F14, F15)",
            [Offer(0, pair) for pair in _PAIRS],
        )
        section(
            "take-back",
            "TakeBack(vehicle) for vehicle 1 to 30, in order (F15)",
            [TakeBack(0, v) for v in VEHICLES],
        )
        section(
            "mechanic",
            "UseMechanic, then DeclineMechanic (F16)",
            [UseMechanic(0), DeclineMechanic(0)],
        )
        if naming:
            section(
                "offer-with-lawyer",
                "OfferWithLawyer((a, b), lawyer): each pair as in offer-pair, then each Lawyer"
                " 19, 20, 21 (F15)",
                [OfferWithLawyer(0, pair, lawyer) for pair in _PAIRS for lawyer in _LAWYERS],
            )
        self._sections = tuple(sections)
        self._num_actions = len(base)
        at = {s.name: s.start for s in sections}
        self._pass = at.get("pass", -1)
        self._bid = {a: at["bid"] + a for a in range(self._max_bid + 1)} if hiring else {}
        self._play: dict[tuple[int, bool], int] = {}
        if buying:
            self._play = {(a, False): at["play"] + i for i, a in enumerate(ADVISORS)}
            self._play.update({(a, True): at["boost"] + i for i, a in enumerate(_FLEET_MANAGERS)})
        self._offer: dict[tuple[int, ...], int] = {
            (v,): at["offer"] + i for i, v in enumerate(VEHICLES)
        }
        self._offer.update({pair: at["offer-pair"] + i for i, pair in enumerate(_PAIRS)})
        self._take = {v: at["take-back"] + i for i, v in enumerate(VEHICLES)}
        self._use = at["mechanic"]
        self._decline = at["mechanic"] + 1
        self._named: dict[tuple[tuple[int, ...], int], int] = {}
        if naming:
            first = at["offer-with-lawyer"]
            self._named = {
                (pair, lawyer): first + i * len(_LAWYERS) + j
                for i, pair in enumerate(_PAIRS)
                for j, lawyer in enumerate(_LAWYERS)
            }
        self._commands = (
            tuple(base),
            *(tuple(_reseat(c, s) for c in base) for s in range(1, self.players)),
        )

    @property
    def num_actions(self) -> int:
        """How many action ids there are (see the module's table)."""
        return self._num_actions

    @property
    def sections(self) -> tuple[Section, ...]:
        """The runs of action ids, in order, each standing for one kind of command."""
        return self._sections

    @property
    def max_bid(self) -> int:
        """``B``, the highest bid the action ids number (F2, F4, F7; see the module)."""
        return self._max_bid

    def action_id(self, command: Command) -> int:
        """The action id of ``command`` (its seat aside), by the module's table.

        :raises InvalidArgument: no state of the setup accepts such a command (a bid over
            :attr:`max_bid`, a boosted advisor that is no Fleet Manager, vehicles not in
            ascending order, a command of a phase the game never reaches, or no command at all).
        """
        found: int | None
        try:
            if isinstance(command, Bid):
                amount = command.amount
                found = self._bid.get(amount) if type(amount) is int else None
            elif isinstance(command, Offer):
                found = self._offer.get(command.vehicles)
            elif isinstance(command, PlayAdvisor):
                found = self._play.get((command.advisor, command.boost))
            elif isinstance(command, Pass):
                found = self._pass if self._pass >= 0 else None
            elif isinstance(command, TakeBack):
                found = self._take.get(command.vehicle)
            elif isinstance(command, UseMechanic):
                found = self._use
            elif isinstance(command, DeclineMechanic):
                found = self._decline
            elif isinstance(command, OfferWithLawyer):
                found = self._named.get((command.vehicles, command.lawyer))
            else:
                raise InvalidArgument(
                    f"{type(command).__name__} is not a command of For Sale: Autorama"
                )
        except TypeError:  # a field of a type no command has (a list where a tuple belongs)
            found = None
        if found is None:
            raise InvalidArgument(
                f"{command!r} is never accepted in this game (see the rules F4-F16 and the"
                " action table of avanti.autorama.encoding), so it has no action id"
            )
        return found

    def command(self, action_id: int, seat: int) -> Command:
        """The command of ``seat`` that ``action_id`` stands for (legal now or not).

        :raises InvalidArgument: ``action_id`` is not in ``range(num_actions)`` or ``seat`` is
            not a seat of the setup.
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            raise InvalidArgument(
                f"there is no seat {seat!r}: the seats are 0 to {self.players - 1} (F1)"
            )
        if type(action_id) is not int:
            action_id = _whole(action_id)
        if not 0 <= action_id < self._num_actions:
            raise InvalidArgument(
                f"action id {action_id} is out of range: this encoding numbers 0 to"
                f" {self._num_actions - 1}"
            )
        return self._commands[seat][action_id]

    # -- vectors --------------------------------------------------------------------------------

    def _observation_layout(self) -> tuple[Piece, ...]:
        n = self.players
        cards = len(ADVISORS)
        per_seat = "one number per seat, the viewer first, then clockwise"
        rows: list[tuple[str, int, str]] = [
            ("seat", n, "1 at the viewer's seat number (seat 0 first; all 0 for a spectator)"),
            ("phase", 4, "1 at the phase: hiring, buying, selling, over (F4, F9, F14, F18)"),
            (
                "step",
                3,
                "1 at the step of a phase 3 round: offering, taking back, Mechanic"
                " (F14-F16); all 0 outside phase 3",
            ),
            (
                "round",
                1,
                f"the round of the phase divided by {cards // n}, the most rounds a phase has (F4)",
            ),
            ("start", n, f"1 at the round's start player (F8, F13), {per_seat}"),
            (
                "turn",
                n,
                f"1 at the seat whose turn it is, {per_seat}; all 0 while offers are"
                " made at once (F14) and at the end",
            ),
            ("table_advisors", cards, "1 at each advisor 1-30 face up for auction (F4)"),
            ("table_vehicles", cards, "1 at each vehicle 1-30 face up for sale (F9)"),
            (
                "table_checks",
                len(_CHECK_VALUES),
                "checks face up (F14) by value 0, 2, 3, ..., 15:"
                " how many of that value, divided by 2",
            ),
            ("decks", 3, "cards left in the advisor, vehicle and check decks, each divided by 30"),
            (
                "removed",
                3,
                "advisors, vehicles and checks out of the game unseen (F1), each divided by 30",
            ),
            (
                "cash",
                1,
                "the viewer's cash divided by the cash the table starts with (F2); 0 for"
                " a spectator",
            ),
            ("advisors", cards, "1 at each advisor 1-30 in the viewer's hand (F8)"),
            ("vehicles", cards, "1 at each vehicle 1-30 in the viewer's hand"),
            (
                "checks",
                len(_CHECK_VALUES),
                "the viewer's checks by value 0, 2, 3, ..., 15: how"
                " many of that value, divided by 2",
            ),
            ("advisor_counts", n, f"advisors in hand divided by {cards // n}, {per_seat}"),
            ("vehicle_counts", n, f"vehicles in hand divided by {cards // n}, {per_seat}"),
            ("check_counts", n, f"checks won divided by {cards // n}, {per_seat}"),
            (
                "bids",
                n,
                f"the bid in front of a seat this auction (F4) divided by the cash the"
                f" table starts with, {per_seat}",
            ),
            ("bidding", n, f"1 if a seat has a bid in front of it this auction, {per_seat}"),
            ("active", n, f"1 if a seat is still in this auction (F4, F5), {per_seat}"),
            (
                "played",
                n * cards,
                "for each seat (the viewer first, then clockwise) 30 numbers:"
                " 1 at the advisor it played face up this round (F9)",
            ),
            (
                "boosted",
                n,
                f"1 if a seat's played advisor is a boosted Fleet Manager (F10), {per_seat}",
            ),
            (
                "kept",
                n * len(_KEEPABLE),
                "for each seat (the viewer first) 15 numbers: 1 at each"
                " advisor 7-12 and 19-27 it keeps face up (F12)",
            ),
            ("spent", cards, "1 at each advisor 1-30 discarded after use (F12, F15, F16)"),
            ("sold", cards, "1 at each vehicle 1-30 sold and out of the game (F17)"),
            ("offered", n, f"1 if a seat has made its offer this round (F14), {per_seat}"),
            (
                "offers",
                n * cards,
                "for each seat (the viewer first) 30 numbers: 1 at each"
                " vehicle of its offer, shown for the viewer's own and for all once revealed (F14)",
            ),
            (
                "lawyers",
                n * len(_LAWYERS),
                "for each seat (the viewer first) 3 numbers: 1 at the"
                " Lawyer 19, 20 or 21 it used this round (F15)",
            ),
        ]
        return tile(rows, 0)

    def _information_layout(self) -> tuple[Piece, ...]:
        n = self.players
        cards = len(ADVISORS)
        per_seat = "one number per seat, the viewer first, then clockwise"
        rows: list[tuple[str, int, str]] = [
            (
                "paid",
                n,
                "the cash a seat was seen to pay for advisors (F5, F6), divided by the"
                f" cash the table starts with, {per_seat}",
            ),
            (
                "cash_change",
                n,
                "a seat's cash gained less cash lost since the start as the stream"
                " shows it (F5-F7, F10, F11), divided by the cash the table starts with,"
                f" {per_seat}",
            ),
            (
                "cash_known",
                n,
                f"1 where cash_seen is a seat's exact cash, {per_seat}: every seat"
                " in a shuffled game (F2), only the viewer in a scenario",
            ),
            (
                "cash_seen",
                n,
                "a seat's cash as the viewer knows it, divided by the cash the table"
                f" starts with, {per_seat}: the starting cash (F2) plus cash_change where the"
                " starting cash is public, the viewer's own from its view, else 0",
            ),
            (
                "advisors_seen",
                n * cards,
                "for each seat (the viewer first) 30 numbers: 1 at each"
                " advisor it was seen to hire (F5, F6) and not yet seen to play (F9)",
            ),
            (
                "played_seen",
                n * cards,
                "for each seat (the viewer first) 30 numbers: 1 at each"
                " advisor it has played so far (F9)",
            ),
            (
                "vehicles_seen",
                n * cards,
                "for each seat (the viewer first) 30 numbers: 1 at each"
                " vehicle it was seen to buy (F11) and not yet seen to sell (F17)",
            ),
            (
                "sold_seen",
                n * cards,
                "for each seat (the viewer first) 30 numbers: 1 at each"
                " vehicle it has sold (F17): the offers revealed in rounds past",
            ),
            (
                "checks_seen",
                n * len(_CHECK_VALUES),
                "for each seat (the viewer first) 15 numbers:"
                " the checks it was seen to win (F17) by value 0, 2, ..., 15, divided by 2",
            ),
        ]
        return self._obs_pieces + tile(rows, check_pieces(self._obs_pieces))

    @property
    def facts(self) -> Facts:
        """For Sale: Autorama's facts for this setup (the module's ``facts``)."""
        return facts(self.public_setup)

    @property
    def observation_pieces(self) -> tuple[Piece, ...]:
        """The slices of :meth:`observation`, in order (see each piece's ``meaning``)."""
        return self._obs_pieces

    @property
    def information_pieces(self) -> tuple[Piece, ...]:
        """The slices of :meth:`information_state`: the observation's, then the stream's."""
        return self._info_pieces

    def _check_view(self, view: View) -> None:
        if not isinstance(view, View) or view.players != self.players:
            raise InvalidArgument(
                f"expected the view of a For Sale: Autorama game of {self.players} players"
                " (game.view(seat))"
            )

    def observation(self, view: View) -> list[float]:
        """``view`` (a seat's, or a spectator's) as
        :attr:`~avanti.core.encoding.Encoding.observation_size` numbers.

        :raises InvalidArgument: ``view`` is not the view of a game of this setup's size.
        """
        self._check_view(view)
        out = [0.0] * self._obs_pieces[-1].stop
        self._fill_observation(view, out)
        return out

    def information_state(self, view: View, events: Sequence[Event]) -> list[float]:
        """``view`` and the seat's own event stream (``game.events_for(view.seat)``) as
        :attr:`~avanti.core.encoding.Encoding.information_size` numbers: the observation, then
        what the stream tells.

        :raises InvalidArgument: ``view`` is not the view of a game of this setup's size.
        """
        self._check_view(view)
        out = [0.0] * self._info_pieces[-1].stop
        self._fill_observation(view, out)
        self._fill_stream(view, events, out)
        return out

    def _fill_observation(self, view: View, out: list[float]) -> None:
        n = self.players
        at = self._at
        me = view.seat if view.seat is not None and 0 <= view.seat < n else None
        base = me or 0
        cash = self._cash_scale
        rounds = self._rounds
        if me is not None:
            out[at["seat"] + me] = 1.0
        out[at["phase"] + _PHASE_INDEX[view.phase]] = 1.0
        if view.step is not None and view.step in _STEP_INDEX:
            out[at["step"] + _STEP_INDEX[view.step]] = 1.0
        out[at["round"]] = view.round / rounds
        out[at["start"] + (view.start - base) % n] = 1.0
        if view.turn is not None:
            out[at["turn"] + (view.turn - base) % n] = 1.0
        table = view.table
        if view.phase is Phase.HIRING:
            first = at["table_advisors"] - 1
            for card in table:
                out[first + card] = 1.0
        elif view.phase is Phase.BUYING:
            first = at["table_vehicles"] - 1
            for card in table:
                out[first + card] = 1.0
        elif view.phase is Phase.SELLING:
            first = at["table_checks"]
            for value in table:
                out[first + _CHECK_INDEX[value]] += 1.0 / _COPIES
        first = at["decks"]
        out[first] = view.advisors_left / 30.0
        out[first + 1] = view.vehicles_left / 30.0
        out[first + 2] = view.checks_left / 30.0
        first = at["removed"]
        for i, count in enumerate(view.removed):
            out[first + i] = count / 30.0
        if view.cash is not None:
            out[at["cash"]] = view.cash / cash
        first = at["advisors"] - 1
        for card in view.advisors:
            out[first + card] = 1.0
        first = at["vehicles"] - 1
        for card in view.vehicles:
            out[first + card] = 1.0
        first = at["checks"]
        for value in view.checks:
            out[first + _CHECK_INDEX[value]] += 1.0 / _COPIES
        advisor_counts, vehicle_counts, check_counts = (
            at["advisor_counts"],
            at["vehicle_counts"],
            at["check_counts"],
        )
        bids, bidding, active, boosted, offered = (
            at["bids"],
            at["bidding"],
            at["active"],
            at["boosted"],
            at["offered"],
        )
        played, kept, offers, lawyers = at["played"], at["kept"], at["offers"], at["lawyers"]
        for seat in range(n):
            r = (seat - base) % n
            out[advisor_counts + r] = view.advisor_counts[seat] / rounds
            out[vehicle_counts + r] = view.vehicle_counts[seat] / rounds
            out[check_counts + r] = view.check_counts[seat] / rounds
            bid = view.bids[seat]
            if bid is not None:
                out[bids + r] = bid / cash
                out[bidding + r] = 1.0
            if view.active[seat]:
                out[active + r] = 1.0
            advisor = view.played[seat]
            if advisor is not None:
                out[played + 30 * r + advisor - 1] = 1.0
            if view.boosted[seat]:
                out[boosted + r] = 1.0
            for advisor in view.kept[seat]:
                out[kept + 15 * r + _KEPT_INDEX[advisor]] = 1.0
            if view.offered[seat]:
                out[offered + r] = 1.0
            offer = view.offers[seat]
            if offer is not None:
                for vehicle in offer:
                    out[offers + 30 * r + vehicle - 1] = 1.0
            lawyer = view.lawyers[seat]
            if lawyer is not None:
                out[lawyers + 3 * r + _LAWYER_INDEX[lawyer]] = 1.0
        first = at["spent"] - 1
        for card in view.spent:
            out[first + card] = 1.0
        first = at["sold"] - 1
        for card in view.sold:
            out[first + card] = 1.0

    def _fill_stream(self, view: View, events: Sequence[Event], out: list[float]) -> None:
        """Fold the stream: payments, hires, plays, purchases and sales, seat by seat."""
        n = self.players
        at = self._at
        me = view.seat if view.seat is not None and 0 <= view.seat < n else None
        base = me or 0
        scale = self._cash_scale
        paid = [0] * n
        change = [0] * n
        hired = at["advisors_seen"] - 1
        played = at["played_seen"] - 1
        bought = at["vehicles_seen"] - 1
        sold = at["sold_seen"] - 1
        checks = at["checks_seen"]
        for event in events:
            if isinstance(event, AdvisorHired):
                seat = event.seat
                paid[seat] += event.paid
                change[seat] -= event.paid
                out[hired + 30 * ((seat - base) % n) + event.advisor] = 1.0
            elif isinstance(event, AdvisorPlayed):
                seat = event.seat
                r = (seat - base) % n
                out[hired + 30 * r + event.advisor] = 0.0
                out[played + 30 * r + event.advisor] = 1.0
                if event.boosted:
                    change[seat] -= BOOST_COST
            elif isinstance(event, VehicleBought):
                out[bought + 30 * ((event.seat - base) % n) + event.vehicle] = 1.0
            elif isinstance(event, VehicleSold):
                r = (event.seat - base) % n
                out[bought + 30 * r + event.vehicle] = 0.0
                out[sold + 30 * r + event.vehicle] = 1.0
                out[checks + 15 * r + _CHECK_INDEX[event.check]] += 1.0 / _COPIES
            elif isinstance(event, ConsultantPaid):
                change[event.seat] += event.amount
                change[event.payer] -= event.amount
            elif isinstance(event, BonusReceived):
                change[event.seat] += event.amount
        for seat in range(n):
            r = (seat - base) % n
            out[at["paid"] + r] = paid[seat] / scale
            out[at["cash_change"] + r] = change[seat] / scale
            if self._shuffled:
                out[at["cash_known"] + r] = 1.0
                out[at["cash_seen"] + r] = (self._start_cash + change[seat]) / scale
            elif seat == me and view.cash is not None:
                out[at["cash_known"] + r] = 1.0
                out[at["cash_seen"] + r] = view.cash / scale


def _reseat(command: Command, seat: int) -> Command:
    """The same command for another seat."""
    if isinstance(command, Bid):
        return Bid(seat, command.amount)
    if isinstance(command, PlayAdvisor):
        return PlayAdvisor(seat, command.advisor, command.boost)
    if isinstance(command, Offer):
        return Offer(seat, command.vehicles)
    if isinstance(command, OfferWithLawyer):
        return OfferWithLawyer(seat, command.vehicles, command.lawyer)
    if isinstance(command, TakeBack):
        return TakeBack(seat, command.vehicle)
    if isinstance(command, Pass):
        return Pass(seat)
    if isinstance(command, UseMechanic):
        return UseMechanic(seat)
    return DeclineMechanic(seat)


def _whole(value: object) -> int:
    """``value`` as a whole number (an ``int`` or a number type like ``numpy.int64``, never a
    ``bool``)."""
    if isinstance(value, bool):
        raise InvalidArgument(f"an action id is a whole number, not {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidArgument(
            f"an action id is a whole number, not {type(value).__name__}"
        ) from None


@functools.lru_cache(maxsize=64)
def _cached(public_setup: PublicSetup) -> AutoramaEncoding:
    return AutoramaEncoding(public_setup)


def encoding(public_setup: PublicSetup) -> AutoramaEncoding:
    """The encoding of For Sale: Autorama for a game's public setup (``game.public_setup``).

    Built once per public setup and shared (an encoding holds only tables that never change).

    >>> from avanti import autorama
    >>> game = autorama.new_game(["Ann", "Bob", "Cy"], seed=7)
    >>> enc = autorama.encoding(game.public_setup)
    >>> enc.num_actions, enc.action_id(autorama.Bid(1, 5))
    (563, 6)
    >>> enc.command(6, seat=2)
    Bid(seat=2, amount=5)

    :raises InvalidArgument: ``public_setup`` is not an Autorama public setup.
    """
    if not isinstance(public_setup, PublicSetup):
        raise InvalidArgument(
            "an Autorama encoding is built from an avanti.autorama.PublicSetup"
            f" (game.public_setup), not {type(public_setup).__name__}"
        )
    return _cached(public_setup)


def facts(public_setup: PublicSetup) -> Facts:
    """For Sale: Autorama's facts for a public setup.

    - **Imperfect information**: advisors are kept face down (F8) and vehicles are offered face
      down, all at once (F14), which a tool plays one seat after another.
    - **General sum**: the returns are 1.0 to each winner, and several may tie.
    - **Chance** only at the start (F1): the three decks are shuffled, a draw of 30 outcomes
      and fewer for each card of the largest; ``sum(len(deck) - 1)`` draws in all. A game
      started from a scenario is dealt by the scenario and draws nothing.
    - **No declared longest game**: every auction ends (a bid must top the last, up to a
      seat's cash, F4), but the library states no closed bound on the commands of a game.
    """
    decks = (ADVISORS, VEHICLES, CHECKS)
    shuffled = public_setup.scenario is None
    return Facts(
        perfect_information=False,
        constant_sum=None,
        max_chance_outcomes=max(len(deck) for deck in decks) if shuffled else 1,
        longest_game=None,
        most_draws=sum(len(deck) - 1 for deck in decks) if shuffled else 0,
    )
