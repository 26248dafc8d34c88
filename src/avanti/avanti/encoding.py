"""Avanti for agents: commands as numbered actions, a seat's view as a flat vector of numbers.

:func:`encoding` builds an :class:`AvantiEncoding` from a game's public setup
(``game.public_setup``), following the contract of :class:`avanti.core.encoding.Encoding`. It
reads the number of seats, the board and the deck, and whether the game opens with the marker
step (A7); never the seed or a scenario's hidden cards.

**Actions.** One id for every command the rules can accept in some state of a game with that
setup, and no more. With ``P`` the number of (card, number) pairs the deck prints (a number
printed twice on one card counts once), ``S`` the most island steps one purchase can buy and
``L`` the road's length, the ids are laid out as follows:

==========================  =========================================================
ids                         command of the given seat
==========================  =========================================================
``0 .. P-1``                ``PlayCard``: card by card in the order of card ids, each
                            card's numbers from the lowest (A3, A8)
``P``                       ``Drive`` (A9, A11)
``P+1``                     ``Quit`` (A9, A14)
``P+2 .. P+2+S``            ``Invest`` of 0, 1, ..., ``S`` steps (A22; 0 passes)
``P+3+S .. P+2+S+L``        ``PlaceEventMarker`` on road space 0, 1, ..., ``L-1`` (A7);
                            only when the game opens with the marker step
==========================  =========================================================

A game whose setup names its first start space, or that starts from a scenario, never asks for
the marker (A7, A25 place it), so its ids stop at ``P+2+S``: the other ids do not move.
Investing is the one command whose number the rules leave open (the bank never runs out, A2,
so cash bounds nothing); the board bounds it: each step enters a priced island space (A22), so
``S`` is the longest row of priced spaces a figure can climb from where it may stand (any space
before the dream island, A20).

On the default board and deck every card prints three different numbers, so ``P = 81`` and card
``c`` played for its ``k``-th lowest number is id ``3c + k`` (card 4 prints 1, 5, 7: playing it
for 5 is id 13); ``Drive`` is 81, ``Quit`` 82, ``Invest`` of ``k`` steps is ``83 + k`` for ``k``
up to 8 (island spaces 1-8 are priced, 9-12 are not), and the marker on road space ``x`` is
``92 + x``: 126 actions in all (92 without the marker step).

**Observation.** A view (``game.view(seat)``, or a spectator's ``view(None)``) becomes a list
of floats cut into the :class:`~avanti.core.encoding.Piece` slices of
:attr:`AvantiEncoding.observation_pieces`, each with a sentence saying what it holds. Seats are
in seat order (not turned so that the viewer comes first); the ``seat`` slice says which seat
is looking. Categories are one-hot, amounts are scaled to about 0..1: cash as a share of all
the cash in play, money flows as a share of the starting money (``n`` x 5,000, A2), distances
by the road's length, island spaces by the path's length. The observation reads only the view,
so it holds nothing hidden from its seat (A30).

**Information state.** The observation, then what the seat's own event stream
(``game.events_for(seat)``) tells about the current run that the view no longer shows
(:attr:`AvantiEncoding.information_pieces`): every card shown face up since the run began (the
view's discard pile forgets those shuffled back into the draw pile, A13), which numbers each
seat drove, and the money each seat paid and received in tolls (A15), from the bank (A17) and
from the ATMs (A21). The events a seat receives are redacted (A30), so this too holds nothing
hidden from it. Hands of other seats are never guessed at.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence

from attrs import field, frozen

from avanti.avanti.board import Board
from avanti.avanti.commands import Command, Drive, Invest, PlaceEventMarker, PlayCard, Quit
from avanti.avanti.deck import HIGHEST_NUMBER, Deck
from avanti.avanti.events import (
    AtmWithdrawn,
    BankPaid,
    CardDiscarded,
    CarMoved,
    Event,
    RunStarted,
    TollPaid,
)
from avanti.avanti.runend import HAND_SIZE
from avanti.avanti.scenario import STARTING_CASH
from avanti.avanti.setup import MAX_PLAYERS, MIN_PLAYERS, PublicSetup, Setup
from avanti.avanti.state import Phase
from avanti.avanti.views import View
from avanti.core.encoding import Encoding, Facts, Piece, check_pieces, tile
from avanti.core.errors import InvalidArgument

__all__ = ["RUN_SCALE", "AvantiEncoding", "encoding", "facts", "longest_purchase"]

RUN_SCALE = 10
"""The run and round numbers are divided by this: random games on the default board last at
most about six runs of at most about six rounds each, so both stay under 1 there."""

_PHASES: tuple[Phase, ...] = tuple(Phase)
_PHASE_INDEX: dict[Phase, int] = {phase: index for index, phase in enumerate(_PHASES)}


def longest_purchase(board: Board) -> int:
    """The most island steps one ``Invest`` can buy on ``board`` (A22): the longest row of priced
    spaces entered one after another from a space a figure may stand on between runs (the start
    space or any space before the dream island, A20). 8 on the default board."""
    prices = board.island
    longest = 0
    for stand in range(board.dream_island_start):
        steps = 0
        while stand + steps + 1 < len(prices) and prices[stand + steps + 1] is not None:
            steps += 1
        longest = max(longest, steps)
    return longest


@frozen
class AvantiEncoding(Encoding[Command, View, Event]):
    """Avanti's actions and observations for ``players`` seats on ``board`` with ``deck``;
    ``marker_step`` says whether the game opens with the starting player placing the event
    marker (A7). Build one with :func:`encoding`. The layout of the ids and of the vectors is
    in the docstring of ``avanti.avanti.encoding`` and in the API docs' section "Encoding
    for agents".

    Lookups are built once; :meth:`action_id` and :meth:`command` are a dictionary or tuple
    lookup each.
    """

    players: int
    """How many seats (A1)."""
    board: Board
    """The road and the island path (A4, A5)."""
    deck: Deck
    """The Power cards (A3)."""
    marker_step: bool
    """Whether ``PlaceEventMarker`` ids exist: the game opens with the marker step (A7)."""

    plays: tuple[tuple[int, int], ...] = field(init=False, eq=False, repr=False)
    """``plays[a]``: the ``(card, number)`` of ``PlayCard`` id ``a``, for ``a`` below ``P``."""
    purchase: int = field(init=False, eq=False, repr=False)
    """``S``, the most steps one ``Invest`` can buy (:func:`longest_purchase`)."""
    drive_id: int = field(init=False, eq=False, repr=False)
    """The id of ``Drive`` (``P``)."""
    quit_id: int = field(init=False, eq=False, repr=False)
    """The id of ``Quit`` (``P + 1``)."""
    invest_id: int = field(init=False, eq=False, repr=False)
    """The id of ``Invest`` of 0 steps (``P + 2``); ``k`` steps is ``invest_id + k``."""
    marker_id: int | None = field(init=False, eq=False, repr=False)
    """The id of ``PlaceEventMarker`` on road space 0 (``P + 3 + S``), or ``None`` without the
    marker step; space ``x`` is ``marker_id + x``."""
    _size: int = field(init=False, eq=False, repr=False)
    _commands: tuple[tuple[Command, ...], ...] = field(init=False, eq=False, repr=False)
    _ids: dict[Command, int] = field(init=False, eq=False, repr=False)
    _play_ids: dict[tuple[int, int], int] = field(init=False, eq=False, repr=False)
    _observation: tuple[Piece, ...] = field(init=False, eq=False, repr=False)
    _information: tuple[Piece, ...] = field(init=False, eq=False, repr=False)
    _at: dict[str, int] = field(init=False, eq=False, repr=False)
    _tolls: tuple[float, ...] = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        put = object.__setattr__
        plays = tuple(
            (card.id, number) for card in self.deck.cards for number in sorted(set(card.numbers))
        )
        put(self, "plays", plays)
        put(self, "_play_ids", {play: index for index, play in enumerate(plays)})
        purchase = longest_purchase(self.board)
        put(self, "purchase", purchase)
        p = len(plays)
        put(self, "drive_id", p)
        put(self, "quit_id", p + 1)
        put(self, "invest_id", p + 2)
        marker_id = p + 3 + purchase if self.marker_step else None
        put(self, "marker_id", marker_id)
        length = self.board.track_length
        size = p + 3 + purchase + (length if self.marker_step else 0)
        put(self, "_size", size)
        commands = tuple(self._seat_commands(seat) for seat in range(self.players))
        put(self, "_commands", commands)
        put(self, "_ids", {c: a for row in commands for a, c in enumerate(row)})
        tolls = tuple(0 if s.is_parking else s.amount for s in self.board.track)
        dearest = max(tolls) or 1
        put(self, "_tolls", tuple(toll / dearest for toll in tolls))
        observation = self._observation_pieces()
        put(self, "_observation", observation)
        information = observation + self._history_pieces(observation[-1].stop)
        put(self, "_information", information)
        put(self, "_at", {piece.name: piece.start for piece in information})
        check_pieces(information)

    def _seat_commands(self, seat: int) -> tuple[Command, ...]:
        """Every command of ``seat``, in the order of their ids."""
        row: list[Command] = [PlayCard(seat, card, number) for card, number in self.plays]
        row += [Drive(seat), Quit(seat)]
        row += [Invest(seat, steps) for steps in range(self.purchase + 1)]
        if self.marker_step:
            row += [PlaceEventMarker(seat, x) for x in range(self.board.track_length)]
        return tuple(row)

    def _observation_pieces(self) -> tuple[Piece, ...]:
        n = self.players
        length = self.board.track_length
        spaces = self.board.island_length + 1
        cards = len(self.deck)
        return tile(
            [
                ("seat", n, "1 at the seat whose view this is; all 0 for a spectator."),
                (
                    "phase",
                    len(_PHASES),
                    "One-hot step of the game: marker (A7), planning (A8), driving (A9),"
                    " investing (A22), over (A20).",
                ),
                ("waiting", n, "1 for each seat the game waits for now (A7, A8, A9, A22)."),
                (
                    "order",
                    n,
                    "Each seat's place in this round's driving order (A10), as (place + 1) / n;"
                    " 0 for a seat not in it.",
                ),
                ("starting_seat", n, "1 at the starting player of the run (A7, A26)."),
                ("run", 1, f"The run number (from 1) divided by {RUN_SCALE}."),
                ("round", 1, f"The round number within the run (from 1) divided by {RUN_SCALE}."),
                (
                    "marker",
                    length,
                    "1 at the event marker's road space (A7, A25); all 0 before it is placed.",
                ),
                (
                    "distance",
                    n,
                    "How far each car has driven this run (A12), divided by the road's length"
                    " (1 at the marker; a move may carry a car a little past it).",
                ),
                (
                    "road",
                    n * length,
                    "Seat by seat, one-hot road space of the seat's car (A4, A12); all 0 before"
                    " the marker is placed.",
                ),
                (
                    "toll",
                    n,
                    "The toll printed beside each car's space (A15), divided by the board's"
                    " dearest toll; 0 on a parking lot and before the marker is placed.",
                ),
                (
                    "cash",
                    n,
                    "Each seat's cash (public, A30) as a share of all the cash in play (0 when"
                    " nobody has any).",
                ),
                (
                    "money",
                    1,
                    f"All the cash in play divided by the starting money, n x {STARTING_CASH:,}"
                    " (A2).",
                ),
                (
                    "island",
                    n,
                    "Each figure's island space (A5) divided by the index of the last one.",
                ),
                (
                    "island_space",
                    n * spaces,
                    "Seat by seat, one-hot island space of the seat's figure, from the start"
                    " space 0 to the last (A5, A19).",
                ),
                ("quit", n, "1 for each seat that has left this run (A14)."),
                ("hand_sizes", n, f"How many cards each seat holds, divided by {HAND_SIZE}."),
                ("has_laid", n, "1 for each seat with a card laid face down this round (A8)."),
                ("invested", n, "1 for each seat that has invested or passed (A22)."),
                (
                    "ranking",
                    n,
                    "Each seat's place in the last finished run (A12, A19), as place / (n - 1):"
                    " 0 for the leader, 1 for the last (clockwise from the starting player"
                    " before the first run ends).",
                ),
                ("winner", n, "1 at the winner once the game is over (A20)."),
                ("draw_size", 1, "The size of the draw pile divided by the deck's size."),
                ("discard", cards, "1 for each card in the discard pile, face up (A13)."),
                ("hand", cards, "1 for each card in the seat's own hand; all 0 for a spectator."),
                (
                    "laid",
                    len(self.plays),
                    "1 at the PlayCard action id of the (card, number) the seat laid this round"
                    " (A8); all 0 if none, and for a spectator.",
                ),
            ]
        )

    def _history_pieces(self, start: int) -> tuple[Piece, ...]:
        n = self.players
        share = f"divided by the starting money, n x {STARTING_CASH:,}"
        return tile(
            [
                (
                    "shown",
                    len(self.deck),
                    "1 for each card shown face up since the run began: driven (A11, A13) or"
                    " discarded unused (A14), including those since shuffled from the discard"
                    " pile back into the draw pile (A13).",
                ),
                (
                    "driven",
                    n * HIGHEST_NUMBER,
                    "Seat by seat, for each number 1 to 7, how many times the seat drove it this"
                    " run, divided by the round number (so at most 1).",
                ),
                ("tolls_paid", n, f"Tolls each seat paid this run (A15, A17), {share}."),
                ("tolls_received", n, f"Tolls each seat received this run (A15, A17), {share}."),
                (
                    "bank_paid",
                    n,
                    f"What the bank paid each seat this run for retreats and shortfalls (A17),"
                    f" {share}.",
                ),
                (
                    "atm",
                    n,
                    f"What each seat withdrew from the ATMs after this run (A21), {share}; 0"
                    " until the run ends.",
                ),
            ],
            start,
        )

    # -- the contract --------------------------------------------------------------------------

    @property
    def num_actions(self) -> int:
        """How many action ids there are: 126 for the default board and deck (92 without the
        marker step)."""
        return self._size

    @property
    def facts(self) -> Facts:
        """Avanti's facts for this setup (the module's ``facts``)."""
        return facts(self.deck)

    @property
    def observation_pieces(self) -> tuple[Piece, ...]:
        """The slices of :meth:`observation`, in order (see each piece's ``meaning``)."""
        return self._observation

    @property
    def information_pieces(self) -> tuple[Piece, ...]:
        """The slices of :meth:`information_state`: the observation's, then the run's history."""
        return self._information

    @property
    def observation_size(self) -> int:
        """The length of :meth:`observation`."""
        return self._observation[-1].stop

    @property
    def information_size(self) -> int:
        """The length of :meth:`information_state`."""
        return self._information[-1].stop

    def action_id(self, command: Command) -> int:
        """The action id of ``command`` (one dictionary lookup).

        :raises InvalidArgument: ``command`` is not an Avanti command, or no game with this
            setup could accept it: a seat not at the table (A1), a number its card does not
            print or a card not in the deck (A3), more island steps than one purchase can buy
            (A22), a road space not on the road or a marker placed when the setup places it
            (A7). The message says which.
        """
        try:
            return self._ids[command]
        except (KeyError, TypeError):
            raise InvalidArgument(self._why_unnumbered(command)) from None

    def command(self, action_id: int, seat: int) -> Command:
        """The command of ``seat`` that ``action_id`` stands for, legal now or not. Any integer
        type with ``__index__`` (a numpy integer) is read as an ``int``; ``bool`` is refused.

        :raises InvalidArgument: ``action_id`` is not in ``range(num_actions)`` or ``seat`` is
            not a seat of the setup.
        """
        if type(action_id) is not int:
            action_id = _index(action_id, "an action id")
        if type(seat) is not int:
            seat = _index(seat, "a seat")
        if not 0 <= seat < self.players:
            raise InvalidArgument(f"there is no seat {seat}: the seats are 0 to {self.players - 1}")
        if not 0 <= action_id < self._size:
            raise InvalidArgument(
                f"there is no action id {action_id}: the ids are 0 to {self._size - 1}"
            )
        return self._commands[seat][action_id]

    def observation(self, view: View) -> list[float]:
        """``view`` as :attr:`observation_size` numbers (see :attr:`observation_pieces`).

        :raises InvalidArgument: the view is of a table of another size.
        """
        out = [0.0] * self._observation[-1].stop
        self._fill(view, out)
        return out

    def information_state(self, view: View, events: Sequence[Event]) -> list[float]:
        """``view`` and the seat's own event stream (``game.events_for(seat)``) as
        :attr:`information_size` numbers (see :attr:`information_pieces`). Only the events
        since the last ``RunStarted`` are read.

        :raises InvalidArgument: the view is of a table of another size.
        """
        out = [0.0] * self._information[-1].stop
        self._fill(view, out)
        at = self._at
        shown = at["shown"]
        driven = at["driven"]
        paid = at["tolls_paid"]
        received = at["tolls_received"]
        bank = at["bank_paid"]
        atm = at["atm"]
        scale = 1.0 / (self.players * STARTING_CASH)
        per_round = 1.0 / max(view.round, 1)
        for event in reversed(events):
            if isinstance(event, CarMoved):
                out[shown + event.card] = 1.0
                out[driven + event.seat * HIGHEST_NUMBER + event.number - 1] += per_round
            elif isinstance(event, CardDiscarded):
                out[shown + event.card] = 1.0
            elif isinstance(event, TollPaid):
                out[paid + event.payer] += event.amount * scale
                out[received + event.payee] += event.amount * scale
            elif isinstance(event, BankPaid):
                out[bank + event.seat] += event.amount * scale
            elif isinstance(event, AtmWithdrawn):
                out[atm + event.seat] += event.amount * scale
            elif isinstance(event, RunStarted):
                break
        return out

    # -- helpers -------------------------------------------------------------------------------

    def _fill(self, view: View, out: list[float]) -> None:
        """Write the observation of ``view`` into the first :attr:`observation_size` numbers."""
        n = self.players
        if len(view.cash) != n:
            raise InvalidArgument(
                f"this encoding is for {n} seats; the view shows {len(view.cash)}"
            )
        at = self._at
        length = self.board.track_length
        seat = view.seat
        if seat is not None and 0 <= seat < n:
            out[at["seat"] + seat] = 1.0
        out[at["phase"] + _PHASE_INDEX[view.phase]] = 1.0
        base = at["waiting"]
        for s in view.waiting:
            out[base + s] = 1.0
        base = at["order"]
        for place, s in enumerate(view.order):
            out[base + s] = (place + 1) / n
        out[at["starting_seat"] + view.starting_seat] = 1.0
        out[at["run"]] = view.run / RUN_SCALE
        out[at["round"]] = view.round / RUN_SCALE
        marker = view.marker
        if marker is not None:
            out[at["marker"] + marker] = 1.0
            road = at["road"]
            toll = at["toll"]
            tolls = self._tolls
            for s, space in enumerate(view.road_spaces):
                out[road + s * length + space] = 1.0
                out[toll + s] = tolls[space]
        base = at["distance"]
        for s, distance in enumerate(view.distances):
            out[base + s] = distance / length
        total = sum(view.cash)
        if total:
            base = at["cash"]
            for s, cash in enumerate(view.cash):
                out[base + s] = cash / total
        out[at["money"]] = total / (n * STARTING_CASH)
        last = self.board.island_length
        base = at["island"]
        spaces = at["island_space"]
        for s, space in enumerate(view.island):
            out[base + s] = space / last
            out[spaces + s * (last + 1) + space] = 1.0
        for name, flags in (
            ("quit", view.quit),
            ("has_laid", view.has_laid),
            ("invested", view.invested),
        ):
            base = at[name]
            for s, flag in enumerate(flags):
                if flag:
                    out[base + s] = 1.0
        base = at["hand_sizes"]
        for s, size in enumerate(view.hand_sizes):
            out[base + s] = size / HAND_SIZE
        base = at["ranking"]
        for place, s in enumerate(view.ranking):
            out[base + s] = place / (n - 1)
        if view.winner is not None:
            out[at["winner"] + view.winner] = 1.0
        out[at["draw_size"]] = view.draw_size / len(self.deck)
        base = at["discard"]
        for card in view.discard:
            out[base + card] = 1.0
        if view.hand is not None:
            base = at["hand"]
            for card in view.hand:
                out[base + card] = 1.0
        if view.laid is not None:
            out[at["laid"] + self._play_ids[view.laid]] = 1.0

    def _why_unnumbered(self, command: object) -> str:
        """Why ``command`` has no action id, in words (the slow path of :meth:`action_id`)."""
        if not isinstance(command, PlayCard | Drive | Quit | Invest | PlaceEventMarker):
            return f"{command!r} is not an Avanti command (A31)"
        seat = command.seat
        if not (type(seat) is int and 0 <= seat < self.players):
            seats = f"the seats are 0 to {self.players - 1}"
            return f"{command!r}: there is no seat {seat!r}; {seats} (A1)"
        if isinstance(command, PlayCard):
            size = len(self.deck)
            if not (type(command.card) is int and 0 <= command.card < size):
                cards = f"the card ids are 0 to {size - 1}"
                return f"{command!r}: there is no card {command.card!r}; {cards} (A3)"
            printed = sorted(set(self.deck.cards[command.card].numbers))
            return f"{command!r}: card {command.card} prints {printed}, not {command.number!r} (A3)"
        if isinstance(command, Invest):
            return (
                f"{command!r}: one purchase buys 0 to {self.purchase} steps on this board"
                " (A22: every step enters a priced island space)"
            )
        # Drive and Quit of every seat at the table have ids: a PlaceEventMarker is left.
        if not self.marker_step:
            return f"{command!r}: this game's setup places the event marker itself (A7)"
        length = self.board.track_length
        return f"{command!r}: the road spaces are 0 to {length - 1} (A4, A7)"


def _index(value: object, what: str) -> int:
    """``value`` as an ``int`` if it is an integer of some type other than ``bool``."""
    if isinstance(value, bool):
        raise InvalidArgument(f"{what} is an int, not the bool {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]  # checked by the call itself
    except TypeError:
        raise InvalidArgument(f"{what} is an int, not {type(value).__name__}") from None


@functools.lru_cache(maxsize=32)
def _encoding(players: int, board: Board, deck: Deck, marker_step: bool) -> AvantiEncoding:
    return AvantiEncoding(players, board, deck, marker_step)


def encoding(public_setup: PublicSetup) -> AvantiEncoding:
    """The encoding of games with this public setup (``game.public_setup``): numbered
    actions, a legal-action mask, an observation and an information state (see
    :class:`AvantiEncoding`).

    Encodings are values that follow from the number of seats, the board, the deck and whether
    the game opens with the marker step (A7: not when the setup names the start space or starts
    from a scenario); one is built once and shared by equal setups.

    >>> import avanti
    >>> game = avanti.new_game(["Ann", "Bob", "Cy"], seed=7)
    >>> agent = avanti.encoding(game.public_setup)
    >>> agent.num_actions, agent.action_id(avanti.PlayCard(seat=1, card=4, number=5))
    (126, 13)
    >>> agent.command(81, seat=2)
    Drive(seat=2)

    :raises InvalidArgument: ``public_setup`` is not a :class:`PublicSetup` (a full
        :class:`Setup` holds the seed, which no agent may see), or has an unplayable number of
        seats (A1).
    """
    given: object = public_setup  # checked as any object: callers may pass anything
    if isinstance(given, Setup):
        raise InvalidArgument(
            "an encoding is built from game.public_setup, not the setup: the setup holds the"
            " seed, which deals every hand (A29, A30)"
        )
    if not isinstance(given, PublicSetup):
        raise InvalidArgument(
            f"an Avanti encoding needs an avanti.PublicSetup, not {type(given).__name__}"
        )
    n = len(public_setup.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InvalidArgument(f"Avanti takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n} (A1)")
    marker_step = public_setup.start_space is None and public_setup.scenario is None
    return _encoding(n, public_setup.board, public_setup.deck, marker_step)


def facts(deck: Deck) -> Facts:
    """Avanti's facts for a deck.

    - **Imperfect information**: each hand is its holder's alone, and cards are laid face down
      at once (A8, A9).
    - **Constant sum**: one player wins, 1.0, and the others get 0.0 (A20: a tie goes to the
      player who ranked better in the last run).
    - **The largest shuffle** is the whole deck: the start (A29) and every new run (A27)
      shuffle every card, and a draw pile made from the discards (A13) holds fewer; a shuffle
      of ``k`` cards is a draw of ``k`` outcomes, then ``k - 1``, and so on.
    - **No bound on the length**: a run can end with no figure moving (every player quits,
      A14, A18), so the rules set no longest game and no most draws.
    """
    return Facts(
        perfect_information=False,
        constant_sum=1.0,
        max_chance_outcomes=len(deck.cards),
        longest_game=None,
        most_draws=None,
    )
