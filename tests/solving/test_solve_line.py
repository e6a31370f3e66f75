"""Principal lines and windows of the solvers.

A line is checked by replaying it: every move legal, the game over at its
end, and the final result equal to the value the solve stated.  Windows
are checked against the exact value: inside the window the value is exact,
outside it a bound on the right side.
"""

from __future__ import annotations

import random

import connect_four  # noqa: F401  (registers connect4)
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames.budget import Limits
from boardgames.cli import main
from boardgames.errors import SearchStopped
from boardgames.game import State
from boardgames.registry import game_entry, get_game
from boardgames.search import solve
from boardgames.solution import EXACT, LOWER, UPPER, SolveResult, line_by_solving
from boardgames.solving.position import solve_position, solver_info
from support.solve_lines import final_value, sign
from support.strips import STRIPS, brute_value, random_position, snapshot

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def c4(moves: str) -> State:
    return get_game("connect4").replay(moves.split())


def played(game_name: str, seed: int, plies: int, **options: int) -> State:
    """A position after up to `plies` random moves (not over unless the game is)."""
    state = get_game(game_name, **options).new_state()
    rng = random.Random(seed)
    for _ in range(rng.randint(0, plies)):
        if state.is_over():
            break
        state.make(rng.choice(state.legal_moves()))
    return state


# --- the generic solver ---------------------------------------------------------------------
@SETTINGS
@given(name=st.sampled_from(sorted(STRIPS)), seed=st.integers(0, 10**6), outcome=st.booleans())
def test_generic_line_replays_to_the_value(name, seed, outcome):
    state = random_position(STRIPS[name], seed, 4)
    before = snapshot(state)
    result = solve(state, line=True, outcome=outcome)
    assert snapshot(state) == before
    exact = brute_value(state)
    assert result.value == (sign(exact) if outcome else exact)
    assert result.line is not None and result.bound == EXACT
    reached = final_value(state, result.line)
    assert (sign(reached) if outcome else reached) == result.value
    if result.line:
        assert result.line[0] == result.best[0]
    assert solve(state).line is None  # only when asked


@SETTINGS
@given(
    name=st.sampled_from(sorted(STRIPS)),
    seed=st.integers(0, 10**6),
    low=st.integers(-8, 8),
    width=st.integers(1, 6),
    outcome=st.booleans(),
)
def test_generic_window_bounds_the_value(name, seed, low, width, outcome):
    state = random_position(STRIPS[name], seed, 4)
    alpha, beta = (low, low + width) if not outcome else (max(low, -2), max(low, -2) + 1)
    exact = brute_value(state)
    if outcome or not state.game.scored:
        exact = sign(exact)
    result = solve(state, window=(alpha, beta), outcome=outcome)
    if result.bound == EXACT:
        assert result.value == exact
        if alpha < exact < beta and not state.is_over():
            assert result.best
    elif result.bound == UPPER:
        assert exact <= result.value <= alpha and result.best == [] and result.winner is None
    else:
        assert result.bound == LOWER
        assert beta <= result.value <= exact and result.best == []
    if alpha < exact < beta:
        assert result.bound == EXACT


def test_a_window_outside_the_possible_values_needs_no_search():
    state = c4("d d d d d d c c c c c c")
    above = solve(state, window=(1, 5))  # unscored: nothing above +1
    assert (above.value, above.bound, above.nodes) == (1, UPPER, 0)
    below = solve(state, window=(-5, -1))
    assert (below.value, below.bound, below.nodes) == (-1, LOWER, 0)


def test_generic_line_on_a_connect_four_endgame():
    state = c4("d d d d d d c c c c c c e e e e e e")
    result = solve(state, line=True, all_moves=True)
    assert final_value(state, result.line) == result.value
    assert result.line[0] in result.best


# --- every game's own solver, through solve_position --------------------------------------------
SMALL = [
    ("dots", {"rows": 2, "cols": 2}),
    ("dots", {"rows": 1, "cols": 3}),
    ("hexifence", {"size": 1}),
    ("hadron", {"rows": 3, "cols": 3}),
    ("hadron", {"rows": 4, "cols": 4}),
    ("hadron", {"rows": 2, "cols": 5}),
    ("squatter", {"size": 3}),
]


@pytest.mark.parametrize(("name", "options"), SMALL)
@pytest.mark.parametrize("seed", range(4))
def test_solve_position_line_replays_to_the_value(name, options, seed):
    state = played(name, seed, 6 if seed else 0, **options)
    before = snapshot(state)
    result = solve_position(state, line=True, all_moves=True)
    assert snapshot(state) == before
    assert result.line is not None
    assert final_value(state, result.line) == result.value
    if result.best:
        assert result.line[0] in result.best
    if not state.is_over():
        exact = solve_position(state.copy(), all_moves=True)
        assert (exact.value, sorted(exact.best)) == (result.value, sorted(result.best))


@pytest.mark.parametrize(
    ("name", "options", "value"),
    [("dots", {"rows": 3, "cols": 3}, -3), ("hadron", {"rows": 4, "cols": 5}, 1)],
)
def test_lines_of_solved_boards(name, options, value):
    """dots 3 x 3 = -3 (Berlekamp, docs/hexifence.md); 4 x 5 Hadron: a first-player win."""
    state = get_game(name, **options).new_state()
    result = solve_position(state, line=True)
    assert result.value == value
    assert final_value(state, result.line) == value


def test_squatter_4x4_line_is_a_draw():
    state = get_game("squatter", size=4).new_state()
    result = solve_position(state, line=True)
    assert result.value == 0 and final_value(state, result.line) == 0


def test_outcome_line_keeps_the_outcome():
    state = get_game("dots", rows=2, cols=2).new_state()
    result = solve_position(state, outcome=True, line=True)
    assert result.value == 1 and sign(final_value(state, result.line)) == 1


def test_line_by_solving_needs_a_named_move_in_a_won_position():
    state = c4("d d d d d d c c c c c c")
    solved = solve(state)
    silent = SolveResult(solved.value, solved.winner, [], solved.nodes, 0.0)
    assert solved.value == 1
    assert line_by_solving(state, silent, lambda s, left: silent) is None


def test_a_solver_without_lines_prints_none(monkeypatch):
    """A game's own solver that names no move in a won position gives no
    line: the CLI then prints no `line:` (never a made-up one)."""

    def silent(state, all_moves=False):
        exact = solve(state)
        return SolveResult(exact.value, exact.winner, [], exact.nodes, exact.time)

    class Silent:
        def __init__(self, game):
            pass

        solve = staticmethod(silent)

    monkeypatch.setattr(game_entry("connect4"), "solver", Silent)
    info = solver_info(get_game("connect4"))
    assert info.own and not (info.line or info.window or info.limits or info.outcome)
    moves = "d d d d d d c c c c c c"
    result = CliRunner().invoke(main, ["solve", "connect4", "--moves", moves])
    assert result.exit_code == 0, result.output
    assert "value: 1\n" in result.stdout and "line:" not in result.stdout


# --- the command --------------------------------------------------------------------------------
def _fields(output: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in output.strip().splitlines())


@pytest.mark.parametrize(
    ("args", "moves"),
    [
        (("dots", "--rows", "2", "--cols", "2"), ""),
        (("dots", "--rows", "2", "--cols", "2"), "A2 B3"),  # the second player to move
        (("hadron", "--rows", "4", "--cols", "4"), ""),
        (("hadron", "--rows", "3", "--cols", "3"), "B2"),
        (("squatter", "--size", "3"), "A2 A1 C2 A3 B1 C3"),
        (("connect4",), "d d d d d d c c c c c c e e e e e e"),
    ],
)
def test_cli_prints_a_line_that_replays_to_the_value(args, moves):
    result = CliRunner().invoke(main, ["solve", *args, "--moves", moves, "--all"])
    assert result.exit_code == 0, result.output
    fields = _fields(result.stdout)
    assert list(fields) == ["winner", "value", "best", "line", "nodes", "time"]
    game = get_game(args[0], **{k[2:]: int(v) for k, v in zip(args[1::2], args[2::2])})
    state = game.replay(moves.split())
    line = [game.parse_move(m) for m in fields["line"].split()]
    end = final_value(state, line)  # from the side to move; the CLI says the first player's
    assert int(fields["value"]) == (end if state.to_move == 0 else -end)
    if fields["best"] != "-":
        assert fields["line"].split()[0] in fields["best"].split()
    quiet = CliRunner().invoke(main, ["solve", *args, "--moves", moves, "--no-line"])
    assert "line:" not in quiet.stdout and _fields(quiet.stdout)["value"] == fields["value"]


def test_cli_line_of_a_finished_game_is_a_dash():
    moves = "d c d c d c d"  # red has four in a column
    result = CliRunner().invoke(main, ["solve", "connect4", "--moves", moves])
    assert result.exit_code == 0, result.output
    assert _fields(result.stdout)["line"] == "-" and _fields(result.stdout)["best"] == "-"


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("dots", {"rows": 2, "cols": 3}),
        ("hexifence", {"size": 1}),
        ("hadron", {"rows": 4, "cols": 5}),
    ],
)
def test_edge_and_hadron_solvers_give_their_own_lines(name, options):
    """Their lines come from the solve's own table (not a fresh solve per ply),
    start with the move `best` names, and `time` still stops them."""
    game = get_game(name, **options)
    info = solver_info(game)
    assert info.own and info.line
    state = game.new_state()
    result = info.function(state, line=True)
    assert result.line[0] == result.best[0]
    assert final_value(state, result.line) == result.value
    bigger = get_game(name, **{**options, **BIGGER[name]}).new_state()
    with pytest.raises(SearchStopped):
        info.function(bigger, line=True, limits=Limits(time=0.001))


BIGGER = {"dots": {"rows": 3, "cols": 3}, "hexifence": {"size": 2}, "hadron": {"rows": 5}}
