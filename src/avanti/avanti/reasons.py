"""Why a command was refused: one machine-readable reason per broken rule."""

from __future__ import annotations

import enum

__all__ = ["Reason"]


class Reason(enum.StrEnum):
    """Every way an Avanti command can break a rule.

    Carried by :class:`~avanti.core.errors.IllegalCommand` as ``reason``, next to the rule id.
    The first four have the same values as :class:`~avanti.core.errors.CoreReason`, so
    ``error.reason == avanti.CoreReason.GAME_OVER`` holds for them too. A command of another
    game, or one whose fields are not all ``int`` (A31), is refused by the core before these
    rules see it, with ``CoreReason.UNKNOWN_COMMAND`` or ``CoreReason.MALFORMED_COMMAND``.
    """

    GAME_OVER = "game-over"
    """The game has ended (A20, A24): no command is accepted."""
    NO_SUCH_SEAT = "no-such-seat"
    """The command names a seat that is not at the table (A1, A31)."""
    NOT_YOUR_TURN = "not-your-turn"
    """It is another seat's move: the marker (A7) or the driving turn (A9, A10)."""
    WRONG_PHASE = "wrong-phase"
    """This kind of command does not belong to the current step of the game (A7-A9, A22)."""
    NO_SUCH_SPACE = "no-such-space"
    """The event marker was put on a space the road does not have (A4, A7)."""
    CARD_NOT_IN_HAND = "card-not-in-hand"
    """The card named is not in the seat's hand (A8)."""
    NUMBER_NOT_ON_CARD = "number-not-on-card"
    """The number chosen is not one of the three printed on the card (A3)."""
    ALREADY_PLAYED = "already-played"
    """The seat has already laid a card this round (A8)."""
    HAS_QUIT = "has-quit"
    """The seat has quit this delivery run and lays no more cards (A14)."""
    ALREADY_INVESTED = "already-invested"
    """The seat has already invested or passed between these runs (A22)."""
    NEGATIVE_STEPS = "negative-steps"
    """An investment of fewer than 0 steps (A22)."""
    PAST_END_OF_PATH = "past-end-of-path"
    """The investment would take the figure past the last island space (A5, A22)."""
    UNPRICED_SPACE = "unpriced-space"
    """The investment would enter or jump an island space with no price (A22)."""
    CANNOT_AFFORD = "cannot-afford"
    """The investment costs more than the seat's cash (A22)."""
