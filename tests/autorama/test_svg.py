"""SVG pictures of For Sale: Autorama, drawn from views (F1-F20): what they show, and that they
show a seat nothing its view hides (F2, F8, F14).

Golden pictures: ``test_the_picture_matches_the_golden_file`` compares the SVG of fixed seeded
positions with ``tests/golden/svg/autorama-*.svg``. After a deliberate change to the drawing,
rewrite them and review the diff (and look at the pictures)::

    AVANTI_REGENERATE_GOLDEN=1 python -m pytest tests/autorama/test_svg.py

With ``AVANTI_REGENERATE_GOLDEN=1`` each golden test writes its file and passes.
"""

from __future__ import annotations

import json
import os
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from avanti import autorama
from avanti.autorama import (
    AdvisorHired,
    AdvisorPlayed,
    Bid,
    Event,
    Game,
    Offer,
    Pass,
    Phase,
    Step,
    VehiclesOffered,
    View,
    dollars,
    picture,
)
from avanti.core.svg import SEAT_COLORS, Svg
from tests.autorama.helpers import BECKY, CHLOE, ISAAC, build, play
from tests.hardening.games import SPECS

NS = "{http://www.w3.org/2000/svg}"
GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "svg"
AUTORAMA = next(spec for spec in SPECS if spec.name == "autorama")


# -- helpers -------------------------------------------------------------------------------------


def last_events(game: Game, seat: int | None) -> tuple[Event, ...]:
    """The events of the last command as ``seat`` saw them: the tail of its stream."""
    cause = game.rules.cause
    starts = [i for i, event in enumerate(game.events) if cause(event) is not None]
    start = starts[-1] if starts else len(game.events)
    return tuple(seen.event for seen in game.events_for(seat, after=start))


def draw(
    game: Game,
    seat: int | None,
    *,
    size: float | None = None,
    colors: Sequence[str] = SEAT_COLORS,
    labels: bool = True,
) -> Svg:
    """The seat's picture with the players' names and the last command drawn."""
    return picture(
        game.view(seat),
        table=game.public_setup,
        last=last_events(game, seat),
        size=size,
        colors=colors,
        labels=labels,
    )


def words(svg: str) -> str:
    """All the text of a picture (its title, description and every text element)."""
    return " ".join(ET.fromstring(svg).itertext())


_MONEY = re.compile(r"\$(\d{1,3}(?:,\d{3})*)(k?)")


def numbers(svg: str, names: tuple[str, ...] = ()) -> set[int]:
    """Every number written in a picture's text, money in thousands as the library counts it
    (``$13,000`` and ``$13k`` are 13); the players' names are left out."""
    said = words(svg)
    for name in names:
        said = said.replace(name, " ")
    found: set[int] = set()

    def money(match: re.Match[str]) -> str:
        value = int(match.group(1).replace(",", ""))
        found.add(value if match.group(2) else value // 1000)
        return " "

    said = _MONEY.sub(money, said)
    return found | {int(n) for n in re.findall(r"\d+", said)}


def json_numbers(value: object) -> set[int]:
    """Every integer in a JSON tree."""
    if isinstance(value, dict):
        return set().union(*(json_numbers(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(json_numbers(v) for v in value))
    return {value} if type(value) is int else set()


def row(svg: str, seat: int) -> ET.Element:
    """The group of one seat's row."""
    root = ET.fromstring(svg)
    found = root.find(f".//{NS}g[@data-seat='{seat}']")
    assert found is not None
    return found


def row_words(svg: str, seat: int) -> str:
    return " ".join(row(svg, seat).itertext())


def auction() -> Game:
    """Phase 1, round 1, built by hand: advisors 8 (Mechanic), 19 (Lawyer) and 26 (Financial
    Advisor) are up; Isaac has $28,000, Becky $17,000, Chloe $23,000. Isaac bids $4,000, Becky
    passes and takes the lowest advisor, 8, for nothing (F4, F5); Chloe is to act."""
    game = build(
        advisor_deck=(8, 19, 26),
        vehicle_deck=(1, 2, 3),
        check_deck=(0, 0, 2),
        cash=(28, 17, 23),
    )
    return play(game, Bid(ISAAC, 4), Pass(BECKY))


def sale() -> Game:
    """Phase 3, round 1, built by hand: checks $13,000, $7,000 and $0 are up; Isaac holds
    vehicles 5 and 23, Becky 11 and 15, Chloe 2 and 14; cash $20,000, $9,000, $31,000."""
    return build(
        phase=Phase.SELLING,
        check_deck=(13, 7, 0, 2, 3, 4),
        vehicles=((5, 23), (11, 15), (2, 14)),
        cash=(20, 9, 31),
    )


def played(players: int, seed: int, until: Callable[[Game], bool]) -> Game:
    """A seeded game (``seed`` deals and picks each legal command) played until ``until``."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"][:players]
    game = autorama.new_game(names, seed=seed)
    rng = random.Random(seed)
    while not until(game):
        legal = game.legal_commands()
        assert legal, "the game ended before the position was reached"
        game = game.execute(rng.choice(legal))
    return game


# -- the picture is SVG, with words for screen readers ----------------------------------------


def test_the_picture_is_svg_with_a_title_and_a_description() -> None:
    svg = draw(auction(), ISAAC)
    assert isinstance(svg, Svg)
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert root.get("role") == "img"
    title, desc = root[0], root[1]
    assert title.tag == f"{NS}title"
    assert title.text == "For Sale: Autorama, Phase 1, round 1: hiring advisors, as Isaac sees it"
    assert desc.tag == f"{NS}desc"
    assert desc.text is not None
    assert "High bid: $4,000 (Isaac)." in desc.text
    assert "Your cash: $28,000; advisors: none" in desc.text
    assert "Last move: Becky passed. Becky took Mechanic 8 and paid $0." in desc.text
    assert len(svg) < 40_000


def test_a_spectator_picture_is_titled_for_a_spectator() -> None:
    root = ET.fromstring(draw(auction(), None))
    assert root[0].text == (
        "For Sale: Autorama, Phase 1, round 1: hiring advisors, as a spectator sees it"
    )


# -- what it shows, checked by hand --------------------------------------------------------------


def test_f4_f5_the_auction_shows_the_advisors_up_the_bids_and_the_pass() -> None:
    svg = draw(auction(), ISAAC)
    assert "Phase 1, round 1: hiring advisors" in words(svg)
    assert "High bid: $4,000 (Isaac)" in words(svg)
    assert "bid $4,000" in row_words(svg, ISAAC)
    assert "passed" in row_words(svg, BECKY)
    assert "to act" in row_words(svg, CHLOE)
    # advisors 19 and 26 are still up; 8 went to Becky, face down: her row counts one advisor
    still = picture(auction().view(ISAAC))
    assert "Lawyer 19" in still
    assert "Financial Advisor 26" in still
    assert "Mechanic 8" not in still
    assert "A 1 V 0 C 0" in row_words(svg, BECKY)  # advisors, vehicles, checks in hand


def test_f2_each_seat_sees_its_own_cash_and_nobody_elses() -> None:
    game = auction()
    cash = {ISAAC: 28, BECKY: 17, CHLOE: 23}
    for seat in (ISAAC, BECKY, CHLOE):
        svg = draw(game, seat)
        assert f"Your cash: {dollars(cash[seat])}" in words(svg)
        assert f"${cash[seat]}k" in row_words(svg, seat)  # the coin in its own row
        for other in {ISAAC, BECKY, CHLOE} - {seat}:
            assert dollars(cash[other]) not in svg
            assert f"${cash[other]}k" not in svg
            assert cash[other] not in numbers(svg, game.setup.players)
    spectator = draw(game, None)
    assert "Your cash" not in spectator
    assert not {17, 23, 28} & numbers(spectator, game.setup.players)


def test_f8_the_seat_sees_its_own_advisors_face_up() -> None:
    svg = draw(auction(), BECKY)
    root = ET.fromstring(svg)
    captions = [t.text for t in root.iter(f"{NS}text")]
    assert "Your hand, Becky" in captions
    assert "Mechanic" in captions  # advisor 8 face up with its kind
    assert "Your cash: $17,000" in captions


def test_f14_an_offer_is_face_down_to_others_until_all_are_in() -> None:
    game = play(sale(), Offer(BECKY, (15,)))
    mine = draw(game, BECKY)
    assert "15" in row_words(mine, BECKY).split()  # Becky sees her own offer
    assert "Your cash: $9,000" in words(mine)
    theirs = draw(game, ISAAC)
    assert "To offer: Isaac, Chloe" in words(theirs)
    assert "offered face down" in words(theirs)
    # Becky's vehicles (11, 15), Chloe's (2, 14) and their cash ($9,000, $31,000) appear nowhere
    assert not {11, 15, 14, 9, 31} & numbers(theirs, game.setup.players)
    assert {5, 23, 20} <= numbers(theirs)  # Isaac's own hand and cash
    backs = [r for r in row(theirs, BECKY).iter(f"{NS}rect") if r.get("fill") == "#6b7a8a"]
    assert len(backs) == 4  # the face-down offer and the three piles in hand
    revealed = play(game, Offer(ISAAC, (23,)), Offer(CHLOE, (2,)))
    assert "Offers revealed: Isaac 23; Becky 15; Chloe 2." in words(draw(revealed, ISAAC))


def test_f17_the_sale_shows_the_checks_up_in_dollars() -> None:
    svg = draw(sale(), CHLOE)
    captions = [t.text for t in ET.fromstring(svg).iter(f"{NS}text")]
    assert captions.count("$13,000") == 1
    assert "$7,000" in captions
    assert "$0" in captions
    assert "Phase 3, round 1: selling vehicles; offering vehicles face down" in captions


# -- the last move --------------------------------------------------------------------------------


def test_the_last_move_is_written_and_its_seats_outlined() -> None:
    game = play(auction(), Bid(CHLOE, 6))
    svg = draw(game, BECKY)
    assert "Chloe bid $6,000." in words(svg)
    outline = row(svg, CHLOE)[0]
    assert outline.get("stroke-width") == "3"
    assert row(svg, ISAAC)[0].get("stroke-width") == "1"


def test_f14_the_last_move_is_redacted_for_the_seat_again() -> None:
    """Events passed from the full log show a face-down offer only to its owner."""
    game = play(sale(), Offer(BECKY, (15,)))
    full = game.events[-1:]
    assert full == (VehiclesOffered(BECKY, (15,), None),)
    svg = picture(game.view(ISAAC), table=game.public_setup, last=full)
    assert "Becky offered a vehicle face down." in words(svg)
    assert 15 not in numbers(svg, game.setup.players)
    own = picture(game.view(BECKY), table=game.public_setup, last=full)
    assert "Becky offered a vehicle (15)." in words(own)


def test_f20_the_end_shows_the_totals_and_the_winner() -> None:
    game = played(3, 8, lambda g: g.is_over)
    outcome = game.outcome
    assert outcome is not None
    svg = draw(game, None)
    totals = game.events[-1]
    assert isinstance(totals, autorama.GameEnded)
    for seat in range(3):
        assert f"total {dollars(totals.totals[seat])}" in row_words(svg, seat)
    assert "The game is over: every vehicle is sold" in words(svg)
    assert "Bob wins." in [t.text for t in ET.fromstring(svg).iter(f"{NS}text")]
    quiet = picture(game.view(None), table=game.public_setup)  # no last move: no totals
    assert "total" not in words(quiet)
    assert "Bob wins" not in quiet


# -- options --------------------------------------------------------------------------------------


def test_options_size_colours_labels() -> None:
    game = auction()
    plain = draw(game, ISAAC)
    root = ET.fromstring(draw(game, ISAAC, size=360))
    assert root.get("width") == "360"
    assert root.get("viewBox") == ET.fromstring(plain).get("viewBox")
    assert SEAT_COLORS[CHLOE] in plain
    colored = draw(game, ISAAC, colors=("#111111", "#222222"))
    assert "#222222" in colored  # Becky's
    assert SEAT_COLORS[CHLOE] not in colored
    bare = draw(game, ISAAC, labels=False)
    assert "On the table: advisors" in plain
    assert "On the table: advisors" not in bare
    assert "Becky" in bare
    with pytest.raises(ValueError, match="colour"):
        draw(game, ISAAC, colors=())
    four = autorama.new_game(["Ann", "Bob", "Cy", "Dee"], seed=1).public_setup
    with pytest.raises(ValueError, match="4 players"):
        picture(game.view(ISAAC), table=four)


def test_without_the_table_seats_are_numbered() -> None:
    svg = picture(auction().view(ISAAC))
    assert "Seat 2" in words(svg)
    assert "Isaac" not in svg


def test_repr_svg_of_a_view_and_of_a_game() -> None:
    game = play(auction(), Bid(CHLOE, 6))
    view: View = game.view(BECKY)
    assert view._repr_svg_() == picture(view)
    spectator = game._repr_svg_()
    assert spectator == picture(game.view(None), table=game.public_setup, last=game.events[-1:])
    assert "Chloe bid $6,000." in spectator
    fresh = autorama.new_game(["Ann", "Bob", "Cy"], seed=7)  # no command yet: no last move
    assert fresh._repr_svg_() == picture(fresh.view(None), table=fresh.public_setup)
    assert "Last move" not in fresh._repr_svg_()


# -- twins: a picture depends only on what the seat may know -------------------------------------


def _derived(events: tuple[Event, ...]) -> set[int]:
    """Numbers the last move's words compute from public events (a refund, a boosted value)."""
    found = set()
    for event in events:
        if isinstance(event, AdvisorHired):
            found.add(event.bid - event.paid)
        if isinstance(event, AdvisorPlayed) and event.boosted:
            found.add(event.advisor + 18)
    return found


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (3, 11, None),
        (4, 12, None),
        (6, 13, None),
        (5, 14, autorama.Options(lawyer_single_use=True, lawyer_choice=True)),
    ],
)
def test_a_twin_draws_the_same_picture_and_no_hidden_value(
    players: int, seed: int, options: autorama.Options | None
) -> None:
    """At several steps of seeded games, for every seat and a spectator: the twin (other deck
    orders, removed cards and others' face-down offers, F1, F14) gives the same picture, and the
    picture writes no number the seat's view and stream do not hold, so no other seat's cash or
    hand (F2, F8)."""
    game = AUTORAMA.start(seed, players, options)
    assert isinstance(game, Game)
    rng = random.Random(seed)
    step = 0
    while True:
        if step % 7 == 0 or not game.legal_commands():
            for seat in (None, *range(players)):
                svg = draw(game, seat)
                twin = AUTORAMA.twin(game, seat, random.Random(step))
                assert isinstance(twin, Game)
                assert draw(twin, seat) == svg
                view = game.view(seat)
                public = json_numbers(json.loads(json.dumps(game.rules.codec.unstructure(view))))
                last = last_events(game, seat)
                codec = game.rules.codec
                heard = json_numbers([codec.event_to_data(e) for e in last])
                allowed = public | heard | _derived(last) | {1, 2, 3}
                written = numbers(svg, game.setup.players)
                assert written <= allowed, sorted(written - allowed)
                state = game.state
                for other in set(range(players)) - {seat}:
                    hidden = {
                        state.cash[other],
                        *state.advisors[other],
                        *state.vehicles[other],
                        *state.checks[other],
                    }
                    assert not (hidden - allowed) & written
                    assert "Your cash" not in row_words(svg, other)
                if seat is not None:
                    assert f"Your cash: {dollars(state.cash[seat])}" in words(svg)
        legal = game.legal_commands()
        if not legal:
            break
        game = game.execute(rng.choice(legal))
        step += 1
    assert game.is_over


# -- golden pictures -----------------------------------------------------------------------------

CASES: dict[str, tuple[int, int, int | None, Callable[[Game], bool]]] = {
    "autorama-3p-seed4-hiring": (
        3,
        4,
        0,
        lambda g: (
            g.state.phase is Phase.HIRING
            and g.state.round == 3
            and any(b is not None for b in g.state.bids)
            and not all(g.state.active)
        ),
    ),
    "autorama-4p-seed5-buying": (
        4,
        5,
        1,
        lambda g: (
            g.state.phase is Phase.BUYING
            and g.state.round == 3
            and sum(p is not None for p in g.state.played) == 2
        ),
    ),
    "autorama-5p-seed6-selling": (
        5,
        6,
        2,
        lambda g: (
            g.state.phase is Phase.SELLING
            and g.state.round == 2
            and g.state.step is Step.OFFERING
            and sum(o is not None for o in g.state.offers) == 3
        ),
    ),
}
"""Each golden picture: players, seed (deals and picks every command), the seat drawn, and the
position it is drawn at."""


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_picture_matches_the_golden_file(name: str) -> None:
    players, seed, seat, until = CASES[name]
    svg = draw(played(players, seed, until), seat) + "\n"
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("AVANTI_REGENERATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == svg, (
        f"{path.name} differs: rerun with AVANTI_REGENERATE_GOLDEN=1 and review the diff"
    )
    assert len(svg) < 40_000
