"""Edges the game tests do not reach: the form checks of setups and commands for field types no
game uses (floats, fixed-length tuples, unions of two kinds, plain classes), an upcaster failing
with no missing key, the corners of :mod:`avanti.core.values`, the refusals of the learning
tools' :class:`~avanti.rl.table.Table`, and Autorama's end line when the events before it do not
give its totals."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import pytest
from attrs import frozen

from avanti import autorama, core
from avanti.autorama import (
    GameEnded,
    Phase,
    Scenario,
    Setup,
    VehicleSold,
    narrate,
    public_setup,
)
from avanti.catalog import GameInfo, register, unregister
from avanti.core.errors import InvalidArgument
from avanti.core.values import DraftOf, builder
from avanti.mare import Roll
from avanti.rl.table import Position, Table
from tests import toy

if TYPE_CHECKING:
    from decimal import Decimal  # a name only the type checker sees

# -- the form of setups and commands (avanti.core.codec) ---------------------------------------


@frozen
class Survey:
    """A setup with every field type the form walk knows, and two it leaves to ``isinstance``
    (a plain class) or to nobody (a generic other than a tuple)."""

    players: tuple[str, ...]
    seed: int
    weight: float = 1.0
    pair: tuple[int, str] = (0, "a")
    share: Fraction = Fraction(1, 2)
    notes: frozenset[str] = frozenset()
    label: int | str = 0


@frozen
class Weigh:
    seat: int
    weight: float


@frozen
class Split:
    seat: int
    share: Fraction


@frozen
class Note:
    seat: int
    extra: Any


SURVEY: core.Codec[Survey, Weigh | Split | Note, toy.Event] = core.Codec(
    format="survey",
    version=1,
    setup_type=Survey,
    commands={"Weigh": Weigh, "Split": Split, "Note": Note},
    events=toy.EVENTS,
)

PLAYERS = ("Ann", "Bob")


def test_a_float_field_takes_an_int_or_a_float_and_nothing_else() -> None:
    """JSON reads a whole number into a float field, so a command built in Python may hold one
    there too; a bool or a string is no number."""
    assert SURVEY.well_formed(Weigh(0, 2.5))
    assert SURVEY.well_formed(Weigh(0, 2))
    assert not SURVEY.well_formed(Weigh(0, True))
    assert not SURVEY.well_formed(Weigh(0, "2"))  # type: ignore[arg-type]
    assert SURVEY.form_problem(Weigh(0, 2.5)) is None
    assert SURVEY.form_problem(Weigh(0, "2")) == (  # type: ignore[arg-type]
        "Weigh.weight must be float, not '2' (str)"
    )


def test_a_field_of_a_plain_class_is_checked_by_isinstance() -> None:
    """A field typed with a class that is no attrs class, no tuple and no JSON kind holds an
    instance of it: a Fraction, not the float it stands for."""
    assert SURVEY.well_formed(Split(1, Fraction(1, 3)))
    assert not SURVEY.well_formed(Split(1, 0.5))  # type: ignore[arg-type]
    assert SURVEY.form_problem(Split(1, 0.5)) == (  # type: ignore[arg-type]
        "Split.share must be Fraction, not 0.5 (float)"
    )


def test_a_field_of_any_type_holds_anything() -> None:
    """``typing.Any`` is a class since Python 3.11 but no ``isinstance`` check: a field so typed
    takes every value, and its form is no problem (it was a ``TypeError`` before)."""
    for extra in (1, "x", None, (1, "a"), Fraction(1, 2)):
        assert SURVEY.well_formed(Note(0, extra))
        assert SURVEY.form_problem(Note(0, extra)) is None
    assert not SURVEY.well_formed(Note("0", 1))  # type: ignore[arg-type]


def test_a_setup_is_well_formed_with_an_int_for_a_float_and_a_fraction() -> None:
    """Every field of its declared type (an int standing for a float) is no problem at all."""
    setup = Survey(PLAYERS, 7, weight=3, share=Fraction(2, 3), notes=frozenset({"x"}))
    assert SURVEY.setup_problem(setup) is None


def test_a_setup_problem_names_the_wrong_item_of_a_fixed_length_tuple() -> None:
    """The walk passes the int standing for a float and stops at the first bad item, by path."""
    setup = Survey(PLAYERS, 7, weight=3, pair=(1, 2))  # type: ignore[arg-type]
    assert SURVEY.setup_problem(setup) == "setup.pair[1] must be str, not int"


def test_a_setup_problem_names_a_float_field_holding_a_string() -> None:
    """A string is no number, not even one that reads as a weight."""
    setup = Survey(PLAYERS, 7, weight="heavy")  # type: ignore[arg-type]
    assert SURVEY.setup_problem(setup) == "setup.weight must be a number, not str"


def test_a_setup_problem_names_a_plain_class_field_of_another_class() -> None:
    """A float where a Fraction is declared is named by the field's path and both classes."""
    setup = Survey(PLAYERS, 7, share=0.5)  # type: ignore[arg-type]
    assert SURVEY.setup_problem(setup) == "setup.share must be Fraction, not float"


def test_a_setup_problem_names_a_union_of_two_kinds_as_written() -> None:
    """A value of neither kind of ``int | str`` is refused naming both; every field before it
    (a float, a pair, a Fraction, a set of notes) passes."""
    fine = Survey(PLAYERS, 7, weight=2, share=Fraction(1, 4), notes=frozenset({"n"}))
    setup = attrs.evolve(fine, label=1.5)  # type: ignore[arg-type]
    assert SURVEY.setup_problem(setup) == "setup.label must be int | str, not float"
    assert SURVEY.setup_problem(attrs.evolve(setup, label="tall")) is None
    assert SURVEY.setup_problem(attrs.evolve(setup, label=4)) is None


def test_an_upcaster_failing_otherwise_than_by_a_missing_key_is_named_by_its_kind() -> None:
    """The message names the kind of error, never the document's value that caused it (here a
    version 1 document that wrote its goal as text)."""
    codec: core.Codec[toy.Setup, toy.Command, toy.Event] = core.Codec(
        format="toy",
        version=2,
        setup_type=toy.Setup,
        commands=toy.COMMANDS,
        events=toy.EVENTS,
        upcasters={
            1: lambda d: {
                **d,
                "version": 2,
                "setup": {**d["setup"], "goal": int(d["setup"]["goal"])},
            }
        },
    )
    old = json.loads(toy.new_game(["Ann"], seed=2).dumps())
    hostile = {**old, "setup": {**old["setup"], "goal": "<script>ten</script>"}}
    with pytest.raises(core.DecodeError) as refused:
        codec.read_document(hostile)
    assert refused.value.errors == ("cannot upgrade a version 1 document (ValueError) @ $",)
    setup, _ = codec.read_document({**old, "setup": {**old["setup"], "goal": "12"}})
    assert setup.goal == 12


# -- drafts and builders (avanti.core.values) --------------------------------------------------


@frozen
class Tally:
    count: int
    names: tuple[str, ...]


StateT = TypeVar("StateT", bound=attrs.AttrsInstance)


class Labelled:
    """A helper listed before ``DraftOf[...]`` among a draft's bases."""

    __slots__: tuple[str, ...] = ()

    def label(self) -> str:
        return f"a draft of {type(self).__name__}"


def test_a_draft_may_list_a_helper_before_draftof() -> None:
    """The state class is found among the bases wherever ``DraftOf[...]`` stands."""

    class TallyDraft(Labelled, DraftOf[Tally]):
        count: int
        names: tuple[str, ...]

    draft = TallyDraft(Tally(2, ("a",)))
    draft.count += 1
    assert TallyDraft.__slots__ == ("count", "names")
    assert not hasattr(draft, "__dict__")
    assert draft.label() == "a draft of TallyDraft"
    assert draft.freeze() == Tally(3, ("a",))


def test_a_draft_of_a_type_variable_is_refused() -> None:
    """A draft must name the frozen class it drafts, not leave it open."""
    with pytest.raises(TypeError, match=r"^DraftOf needs a class, not ~StateT$"):

        class Open(DraftOf[StateT]):
            pass


def test_the_base_class_freezes_nothing() -> None:
    """Only a subclass's generated ``freeze`` builds a state: the base's refuses, as its
    ``__init__`` does."""
    bare: DraftOf[Tally] = object.__new__(DraftOf)
    with pytest.raises(TypeError, match=r"^DraftOf is a base class: subclass DraftOf"):
        bare.freeze()


def test_a_builder_of_a_function_is_refused() -> None:
    """A builder is made from the class itself, not from a function that makes one."""

    def make_tally(*, count: int, names: tuple[str, ...]) -> Tally:
        return Tally(count, names)

    with pytest.raises(TypeError, match=r"make_tally at 0x[0-9a-f]+> is not an attrs class$"):
        builder(make_tally)


def test_an_annotation_only_the_type_checker_resolves_is_judged_by_its_text() -> None:
    """``Decimal`` is imported for the type checker only: it cannot be resolved at run time,
    so its text, not ``int``, is what the state's field is compared with."""
    with pytest.raises(
        TypeError, match=r"other types than Tally: count: Decimal \(the state has int\)$"
    ):

        class Unseen(DraftOf[Tally]):
            count: Decimal
            names: tuple[str, ...]


@frozen
class Counted:
    """A state whose field type attrs holds as the class itself, not as text."""

    count = attrs.field(type=int)


def test_a_string_annotation_matches_a_field_typed_by_the_class_itself() -> None:
    """The draft's ``"int"`` and the state's ``int`` are the same type once resolved."""
    assert attrs.fields(Counted).count.type is int

    class CountedDraft(DraftOf[Counted]):
        count: int

    draft = CountedDraft(Counted(4))
    draft.count *= 2
    assert draft.freeze() == Counted(8)


# -- the learning tools' table (avanti.rl.table) -----------------------------------------------


@pytest.fixture
def toy_in_catalog() -> Iterator[GameInfo]:
    """The toy race, in the catalog for one test, under a name no other test registers."""
    info = GameInfo(
        name="toy-without-encoding",
        title="Toy race",
        package="tests.toy",
        min_players=1,
        max_players=4,
        default_players=("Ann", "Bob"),
    )
    register(info)
    try:
        yield info
    finally:
        unregister(info.name)


def test_a_game_without_an_encoding_has_no_table(toy_in_catalog: GameInfo) -> None:
    """A learning tool needs the game's action numbering; the toy's presentation has none."""
    with pytest.raises(InvalidArgument) as refused:
        Table(toy_in_catalog.name, 2)
    assert str(refused.value) == "Toy race offers no encoding (its presentation's encoding)"


def rolled() -> tuple[Table, Position]:
    """A two-seat Avanti mare table, after seat 0 asked to roll: the die is awaited (M3)."""
    table = Table("mare", 2)
    start = table.start()
    return table, table.act(start, Roll(0))


def test_m3_a_roll_waits_for_one_of_six_faces_and_nobody_acts() -> None:
    """M3: the roll is a chance node of six equally likely faces; no seat acts at it."""
    table, position = rolled()
    assert position.is_chance
    assert position.bound == 6
    assert position.pending == Roll(0)
    assert position.seat is None
    assert table.legal_commands(position) == ()
    assert table.legal_actions(position) == []
    with pytest.raises(InvalidArgument, match=r"^no seat acts at a chance node or at the end$"):
        table.command(position, 0)


def test_m3_a_chance_node_takes_a_draw_not_a_command() -> None:
    """M3: while the face is awaited, even the roll itself is refused as a command."""
    table, position = rolled()
    with pytest.raises(InvalidArgument, match=r"^the position waits for a random result"):
        table.act(position, Roll(0))


@pytest.mark.parametrize("outcome", [-1, 6, True, 2.0])
def test_m3_a_draw_is_a_face_from_0_to_5(outcome: Any) -> None:
    """Six faces: results 0 to 5, as a plain int (no bool, no float)."""
    table, position = rolled()
    with pytest.raises(InvalidArgument, match=r"^a result of this draw is 0 to 5$"):
        table.draw(position, outcome)
    after = table.draw(position, 5)
    assert not after.is_chance
    assert after.seat == 1  # M2: the turn passes clockwise


def test_no_draw_is_taken_where_none_is_awaited() -> None:
    """M2: the start of a game of Avanti mare draws nothing; seat 0 rolls first."""
    table = Table("mare", 2)
    start = table.start()
    assert not start.is_chance
    with pytest.raises(InvalidArgument, match=r"^no random result is awaited here$"):
        table.draw(start, 0)


def test_resampling_leaves_a_chance_node_and_a_finished_game_as_they_are() -> None:
    """Nothing hidden is drawn afresh while a draw waits, nor once the game is over (M8); a
    position in play is resampled into a new one."""
    table, position = rolled()
    assert table.resample(position, 0, seed=1) is position
    playing = table.start_sampled(3)
    assert table.resample(playing, 0, seed=1) is not playing
    while not playing.is_over:
        playing = table.act(playing, table.legal_commands(playing)[0])
    assert table.resample(playing, 0, seed=1) is playing
    assert table.legal_commands(playing) == ()
    with pytest.raises(InvalidArgument, match=r"^no seat acts"):
        table.command(playing, 0)


# -- Autorama's end line (avanti.autorama.describe) --------------------------------------------

NAMES = ("Ann", "Bob", "Cy")

SALES = (VehicleSold(0, 30, 7), VehicleSold(1, 20, 9), VehicleSold(2, 10, 3))
"""Ann sells for a $7,000 check, Bob for $9,000, Cy for $3,000 (F17)."""

END = GameEnded((19, 13, 9), (0,), (14, 9, 3), (5, 4, 6))
"""Ann $7,000 doubled by a Restoration Specialist + $5,000 cash; Bob $9,000 + $4,000; Cy
$3,000 + $6,000 (F19). Ann wins (F20)."""

ANN_RESTORED = (
    "Game over: Ann $19,000 ($7,000 in checks + $7,000 Restoration Specialist 22 doubling a "
    "$7,000 check + $5,000 cash), Bob $13,000 ($9,000 in checks + $4,000 cash), Cy $9,000 "
    "($3,000 in checks + $6,000 cash). Ann wins."
)

AS_RECORDED = (
    "Game over: Ann $19,000 ($14,000 in checks + $5,000 cash), Bob $13,000 ($9,000 in checks "
    "+ $4,000 cash), Cy $9,000 ($3,000 in checks + $6,000 cash). Ann wins."
)
"""The end told from what the event records alone (F19)."""


def test_f19_an_advisor_kept_in_the_scenario_counts_in_the_end_line() -> None:
    """F12, F19: Ann's Restoration Specialist 22, kept face up when the scenario began, doubles
    her $7,000 check; the full setup and the public one both show it."""
    setup = Setup(NAMES, seed=1, scenario=Scenario(phase=Phase.SELLING, kept=((22,), (), ())))
    events = (*SALES, END)
    assert narrate(events, setup)[-1] == ANN_RESTORED
    assert narrate(events, public_setup(setup))[-1] == ANN_RESTORED


def test_f19_an_end_the_seen_events_do_not_explain_is_told_as_recorded() -> None:
    """F19: without the Restoration Specialist the sales give Ann $12,000, not $19,000: the
    line falls back to the checks and cash the end records."""
    assert narrate((*SALES, END), Setup(NAMES, seed=1))[-1] == AS_RECORDED
    assert narrate((*SALES, END), Setup(NAMES, seed=1), seat=2)[-1] == AS_RECORDED.replace(
        "Cy $9,000", "you $9,000"
    )


def test_f19_checks_won_before_the_scenario_began_leave_the_end_as_recorded() -> None:
    """F17, F19: a check Ann holds from the scenario was never seen sold, so the sales cannot
    give her total; the full setup names it, the public one counts it."""
    scenario = Scenario(phase=Phase.SELLING, checks=((7,), (), ()), kept=((22,), (), ()))
    setup = Setup(NAMES, seed=1, scenario=scenario)
    sales = (VehicleSold(1, 20, 9), VehicleSold(2, 10, 3))
    public = public_setup(setup)
    assert public.scenario is not None
    assert public.scenario.check_counts == (1, 0, 0)
    assert narrate((*sales, END), setup)[-1] == AS_RECORDED
    assert narrate((*sales, END), public)[-1] == AS_RECORDED


def test_f19_an_end_without_its_breakdown_or_with_other_seats_is_told_as_recorded() -> None:
    """F19, F20: an end written before the checks and cash were recorded is told as its totals
    alone; a setup naming another number of players than the end has totals leaves the end
    as recorded too (no seat's parts are worked out)."""
    old = GameEnded((19, 13, 9), (0,))
    assert narrate((*SALES, old), Setup(NAMES, seed=1)) == (
        *(autorama.describe(sale, Setup(NAMES, seed=1)) for sale in SALES),
        "Game over: Ann $19,000, Bob $13,000, Cy $9,000. Ann wins.",
    )
    four = Setup((*NAMES, "Dee"), seed=1)
    assert narrate((*SALES, END), four)[-1] == AS_RECORDED
