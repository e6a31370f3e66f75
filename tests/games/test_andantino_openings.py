"""The shipped Andantino openings: each parses, is legal and still open, and
each enclosure opening really holds the threat its check claims, verified
by playing the moves under the rules (their own enclosure detection)."""

from __future__ import annotations

import pytest

from boardgames.errors import NotationError
from boardgames.games.andantino.experts import WIN_NEXT, ThreatEvaluator
from boardgames.games.andantino.openings import Opening, openings, parse_openings
from boardgames.games.andantino.threats import line_windows, winning_cells
from boardgames.registry import get_game
from boardgames.search import Searcher

GAME = get_game("andantino")
ALL = openings()


def finish(state, *cells: str):
    """A copy of `state` with `cells` played (each must be legal)."""
    state = state.copy()
    for cell in cells:
        move = GAME.parse_move(cell)
        assert state.illegal_reason(move) is None, f"{cell}: {state.illegal_reason(move)}"
        state.make(move)
    return state


def threat_holds(state, x: str, y: str) -> bool:
    """The opponent of the side to move wins by enclosure at x if the side
    to move plays y; x is not a five, and blocking at x does not lose."""
    me, opp = state.to_move, 1 - state.to_move
    if winning_cells(state, me):
        return False  # the side to move would simply win
    cell = GAME.parse_move(x)
    if line_windows(state.bits[opp], state.bits[me])[3] >> _pos(cell) & 1:
        return False  # a five, not an enclosure
    after = finish(state, y)
    if after.is_over() or after.illegal_reason(cell) is not None:
        return False
    after.make(cell)
    if after.end_reason() != "enclosure" or after.winner() != opp:
        return False
    blocked = finish(state, x)
    return not blocked.is_over()


def double_holds(state, t: str, y: str) -> bool:
    """After y (side to move) and t (opponent) the opponent holds two cells
    that each win by enclosure: blocking either, the other wins."""
    me, opp = state.to_move, 1 - state.to_move
    if winning_cells(state, me) or winning_cells(state, opp):
        return False  # the claim is about a threat to come
    after = finish(state, y, t)
    if after.is_over() or winning_cells(after, me):
        return False
    cells = [GAME.format_move(c) for c in winning_cells(after, opp)]
    wins = []
    for cell in cells:
        ok = all(
            (lambda s: s.end_reason() == "enclosure" and s.winner() == opp)(
                finish(after, block, cell)
            )
            for block in cells
            if block != cell
        )
        wins.append(ok)
    return len(cells) >= 2 and all(wins)


def _pos(cell: int) -> int:
    from boardgames.games.andantino.geometry import BIT

    return BIT[cell].bit_length() - 1


def claim_holds(opening: Opening) -> bool:
    state = opening.state(GAME)
    kind, _, arguments = opening.check.partition("=")
    a, b = arguments.split("/")
    return threat_holds(state, a, b) if kind == "threat" else double_holds(state, a, b)


def test_enough_varied_openings() -> None:
    general = [o for o in ALL if o.kind == "general"]
    enclosure = [o for o in ALL if o.kind == "enclosure"]
    assert len(general) >= 20 and len(enclosure) >= 10
    keys = {min(o.state(GAME).hashes) for o in ALL}
    assert len(keys) == len(ALL), "two openings are the same position up to symmetry"
    sides = {o.state(GAME).to_move for o in enclosure}
    assert sides == {0, 1}, "enclosure threats against both colours"


@pytest.mark.parametrize("opening", ALL, ids=[o.name for o in ALL])
def test_opening_is_legal_and_open(opening: Opening) -> None:
    state = opening.state(GAME)  # raises NotationError on an illegal move
    assert not state.is_over()
    assert state.moves_text() == " ".join(opening.moves.split())


@pytest.mark.parametrize(
    "opening", [o for o in ALL if o.kind == "general"], ids=lambda o: o.name
)
def test_general_opening_not_decided(opening: Opening) -> None:
    state = opening.state(GAME)
    assert not winning_cells(state, 0) and not winning_cells(state, 1)
    result = Searcher(ThreatEvaluator(), algorithm="negascout").search(state, depth=2)
    assert abs(result.score) < WIN_NEXT / 2


@pytest.mark.parametrize(
    "opening", [o for o in ALL if o.kind == "enclosure"], ids=lambda o: o.name
)
def test_enclosure_opening_claim(opening: Opening) -> None:
    assert claim_holds(opening), f"{opening.name}: {opening.check} does not hold"


def test_a_false_claim_fails() -> None:
    """The checks can fail: the same opening with the wrong cell named."""
    for opening in [o for o in ALL if o.kind == "enclosure"][:4]:
        state = opening.state(GAME)
        kind, _, arguments = opening.check.partition("=")
        a, b = arguments.split("/")
        wrong = next(
            GAME.format_move(m)
            for m in state.legal_moves()
            if GAME.format_move(m) not in (a, b)
        )
        bad = Opening(opening.name, opening.kind, opening.moves, f"{kind}={wrong}/{b}", "")
        assert not claim_holds(bad)


@pytest.mark.parametrize(
    "text",
    [
        "x | general | J9 I9",  # four fields
        "x | opening | J9 I9 | - | c",  # unknown kind
        "x | enclosure | J9 I9 | - | c",  # no check
        "x | general | J9 I9 | threat=A1/A2 | c",  # a check on a general opening
        "x | general | | - | c",  # no moves
        "x | general | J9 I9 | - | c\nx | general | J9 I10 | - | c",  # duplicate
    ],
)
def test_bad_lines(text: str) -> None:
    with pytest.raises(NotationError):
        parse_openings(text)


def test_bad_move_in_opening() -> None:
    (opening,) = parse_openings("x | general | J9 A1 | - | c")
    with pytest.raises(NotationError):
        opening.state(GAME)
