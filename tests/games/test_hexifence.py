"""HexiFence: Part A oracles, rules (captures, extra turns), text, search, solver."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from boardgames.ai import make_player
from boardgames.budget import Limits
from boardgames.errors import NotationError, OptionError, SearchStopped
from boardgames.game import Outcome
from boardgames.games.hexifence import UNKNOWN
from boardgames.games.hexifence.solver import EdgeSolver
from boardgames.registry import get_game
from boardgames.solution import SolveResult
from boardgames.solving.position import solve_position
from support.edge_reference import brute_force
from support.edge_reference import rest as remaining_value
from support.protocol_checks import check_protocol

DATA = Path(__file__).resolve().parent.parent / "data" / "hexifence"


def expected_answers() -> list[tuple[str, tuple[int, int, int] | None]]:
    """(file, (empty, most, one) or None for 'error') from the copied README table."""
    rows = []
    for line in (DATA / "README.md").read_text().splitlines():
        match = re.match(r"\| hexifence/(\S+) \| ([^|]+) \|", line)
        if match:
            name, answer = match.group(1), match.group(2).strip()
            rows.append((name, None if "error" in answer else tuple(map(int, answer.split()))))
    return rows


CASES = expected_answers()


def test_the_oracle_table_is_complete():
    assert len(CASES) == 22
    assert sum(1 for _, answer in CASES if answer is None) == 5


@pytest.mark.parametrize(("name", "answer"), CASES, ids=[c[0] for c in CASES])
def test_part_a_board_files(name, answer):
    game = get_game("hexifence")
    text = (DATA / name).read_text(encoding="utf-8")
    if answer is None:
        with pytest.raises(NotationError) as info:
            game.parse_position(text)
        assert "\n" not in str(info.value)
        return
    state = game.parse_position(text)
    assert game.part_a(state) == "\n".join(map(str, answer))


ORACLE_BOARDS = re.findall(
    r"## N = \d -> (\d+), (\d+), (\d+)\n```\n(.*?)```",
    (DATA / "ORACLE.md").read_text(),
    flags=re.S,
)


@pytest.mark.parametrize("case", ORACLE_BOARDS)
def test_part_a_oracle_document(case):
    *answer, board = case
    state = get_game("hexifence").parse_position(board)
    assert state.part_a_counts() == tuple(map(int, answer))


def test_analyse_reports_safe_moves_and_the_loony_endgame():
    game = get_game("hexifence", size=2)
    positions = game.benchmark_positions()
    assert game.analyse(positions["start"]).splitlines()[4:] == [
        "safe moves: 30",
        "captures: 0 edges take 0 cells",
        "cells with two empty edges: 0",
    ]
    assert game.analyse(positions["loony"]).splitlines()[4:] == [
        "safe moves: 0",
        "captures: 0 edges take 0 cells",
        "chains: 4 1 1 1; loops: none",
        "loony value: +3 for the side to move",
    ]
    assert game.part_a(positions["start"]) == "30\n0\n0"


def test_outcome_says_every_edge_is_claimed():
    game = get_game("hexifence", size=1)
    state = game.replay(range(6))  # the sixth edge, the second player's, takes the cell
    assert state.outcome() == Outcome(1, "every edge claimed", (0, 1))
    assert game.analyse(state).splitlines()[2:] == [
        "result: red (every edge claimed)",
        "score: 0 1",
        "safe moves: 0",
        "captures: 0 edges take 0 cells",
        "chains: none; loops: none",
        "loony value: +0 for the side to move",
    ]


def test_evaluator_table():
    game = get_game("hexifence", size=2)
    assert set(game.evaluators()) == {"default", "chains", "margin"}
    with pytest.raises(OptionError, match="unknown option"):
        game.evaluator("chains", weight=2)


def test_empty_board_and_sizes():
    for n in range(1, 6):
        game = get_game("hexifence", size=n)
        assert game.num_cells == 3 * n * n - 3 * n + 1
        assert game.num_moves == n * (9 * n - 3)
        assert len(game.symmetries) == 12
    assert get_game("hexifence", size=2).new_state().part_a_counts() == (30, 0, 0)
    with pytest.raises(OptionError):
        get_game("hexifence", size=6)


def test_protocol_size_2():
    check_protocol(get_game("hexifence", size=2), examples=15)


def test_protocol_size_3():
    check_protocol(get_game("hexifence", size=3), examples=5)


def test_capture_gives_one_extra_move_and_chains():
    game = get_game("hexifence", size=1)
    state = game.new_state()
    for k in range(5):
        assert state.to_move == k % 2
        state.play(k)
    assert state.to_move == 1  # Red claims the sixth edge ...
    state.play(5)
    assert state.scores() == (0, 1) and state.is_over() and state.winner() == 1
    assert state.to_move == 1  # ... and the capture leaves Red to move
    state.undo()
    assert state.scores() == (0, 0) and state.to_move == 1


def test_one_edge_can_capture_two_cells_and_gives_one_extra_move():
    game = get_game("hexifence", size=2)
    state = game.new_state()
    a, b = 0, 1
    shared = set(game.cell_edges[a]) & set(game.cell_edges[b])
    assert len(shared) == 1
    (edge,) = shared
    rest = [e for e in set(game.cell_edges[a]) | set(game.cell_edges[b]) if e != edge]
    for e in rest:
        state.make(e)
    mover = state.to_move
    before = state.scores()[mover]
    state.make(edge)
    assert state.scores()[mover] == before + 2
    assert state.to_move == mover


def test_board_text_round_trip_and_to_move_line():
    game = get_game("hexifence", size=2)
    rng = random.Random(4)
    state = game.new_state()
    while not state.is_over():
        state.make(rng.choice(state.legal_moves()))
        again = game.parse_position(state.to_text())
        assert again.to_text() == state.to_text()
        assert again.to_move == state.to_move and again.scores() == state.scores()
    assert "to move:" in state.to_text()


def test_loaded_board_conventions():
    game = get_game("hexifence", size=1)
    # Three claimed edges, nothing captured: Red to move by the parity convention.
    state = game.parse_position("1\nB + -\nR - +\n- R +\n")
    assert state.to_move == 1
    assert game.parse_position("1\nB + -\nR - +\n- R +\nto move: blue\n").to_move == 0
    # A complete cell written '-' has an unknown owner and counts for nobody.
    full = game.parse_position("1\nB R -\nR - B\n- R B\n")
    assert full.owner == [UNKNOWN] and full.scores() == (0, 0)
    with pytest.raises(NotationError):
        game.parse_position("1\nB + -\nR b +\n- R +\n")  # b on an incomplete cell
    with pytest.raises(NotationError):
        game.parse_position("1\nB + -\nR - +\n- R +\nto move: green\n")


def test_board_of_another_size_gives_that_size():
    text = (DATA / "nylonee_testcase3d_23_1_5.txt").read_text()
    state = get_game("hexifence", size=2).parse_position(text)
    assert state.game.params == {"size": 3}


def test_svg_colours_edges_and_fills_cells():
    game = get_game("hexifence", size=2)
    state = game.parse_position((DATA / "nylonee_testcase2d_7_2_3.txt").read_text())
    svg = state.game.render_svg(state)
    assert svg.startswith("<svg") and svg.count("<polygon") == 7
    assert svg.count("<line") == 30 and "#1f5fbf" in svg and "#c8102e" in svg
    assert "B" in str(state) and "\033[" in state.game.render_text(state, color=True)


def test_notation():
    game = get_game("hexifence", size=2)
    assert game.format_move(0) == "A1"
    assert game.parse_move("a1") == game.parse_move("0,0") == 0
    for bad in ("B2", "Z9", "A", "1,1", "x"):
        with pytest.raises(NotationError):
            game.parse_move(bad)


# --- search and solving -----------------------------------------------------------------


def margin_now(state) -> int:
    """Captured cells so far, side to move minus opponent."""
    p = state.to_move
    return state.score[p] - state.score[1 - p]


def test_single_hexagon_is_a_second_player_win():
    """Six edges, one cell: whoever claims the sixth edge (the second player) takes it."""
    state = get_game("hexifence", size=1).new_state()
    result = solve_position(state)
    assert result.value == -1 and result.winner == 1
    assert brute_force(state) == -1


def chain_position(seed: int, empty: int):
    rng = random.Random(seed)
    state = get_game("hexifence", size=2).new_state()
    while state.n_empty > empty:
        state.make(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("seed", range(6))
def test_solver_matches_brute_force(seed):
    state = chain_position(seed, 7)
    result = EdgeSolver(state.game).solve(state)
    assert isinstance(result, SolveResult)
    assert result.value == margin_now(state) + brute_force(state)
    assert result.winner == (None if not result.value else state.to_move ^ (result.value < 0))


@pytest.mark.parametrize("seed", range(6))
def test_solver_pruning_keeps_the_value(seed):
    state = chain_position(100 + seed, 14)
    plain = EdgeSolver(
        state.game, symmetry=False, forced_captures=False, loony=False, mtd=False
    ).solve(state)
    assert EdgeSolver(state.game).solve(state).value == plain.value


def random_positions(game, empty: int, count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_state()
        while state.n_empty > empty:
            state.make(rng.choice(state.legal_moves()))
        yield state


@pytest.mark.parametrize(
    ("name", "params", "empty", "count"),
    [
        ("dots", {"rows": 2, "cols": 3}, 12, 40),
        ("dots", {"rows": 3, "cols": 3}, 11, 30),
        ("dots", {"rows": 1, "cols": 4}, 9, 30),
        ("hexifence", {"size": 2}, 11, 30),
    ],
)
def test_one_solver_agrees_with_brute_force_on_many_positions(name, params, empty, count):
    """One solver (its table shared by every position) against memoized minimax:
    the value, and the best move really keeps it."""
    game = get_game(name, **params)
    solver = EdgeSolver(game)
    memo: dict[int, int] = {}
    for state in random_positions(game, empty, count, seed=len(params) + empty):
        p = state.to_move
        now = state.score[p] - state.score[1 - p]
        result = solver.solve(state)
        assert result.value == now + remaining_value(state, memo), state.history
        state.make(result.best[0])
        rest = remaining_value(state, memo)
        after = state.score[p] - state.score[1 - p] + (rest if state.to_move == p else -rest)
        assert after == result.value, state.history


@pytest.mark.parametrize(
    "switch",
    [
        {"symmetry": False},
        {"forced_captures": False},
        {"loony": False},
        {"mtd": False},
        {"etc_edges": 99},  # no enhanced transposition cutoffs
        {"etc_edges": 0},  # everywhere
        {"max_entries": 2000},  # purged all the time
    ],
)
def test_each_technique_alone_keeps_the_value(switch):
    game = get_game("hexifence", size=2)
    full, without = EdgeSolver(game), EdgeSolver(game, **switch)
    for state in random_positions(game, 17, 8, seed=3):
        assert full.solve(state).value == without.solve(state).value, state.history


def test_every_best_move_and_the_principal_line_keep_the_value():
    game = get_game("dots", rows=2, cols=3)
    memo: dict[int, int] = {}
    for state in random_positions(game, 11, 12, seed=5):
        solver = EdgeSolver(game)
        result = solver.solve(state, all_moves=True)
        p = state.to_move
        good = []
        for move in (m for m in range(game.num_moves) if state.claimed[m] < 0):
            state.make(move)
            rest = remaining_value(state, memo)
            mine = state.score[p] - state.score[1 - p]
            good += [move] if mine + (rest if state.to_move == p else -rest) == result.value else []
            state.undo()
        assert result.best == good
        line = solver.principal_line(state)
        for move in line:
            state.make(move)
        assert state.is_over()
        assert state.score[p] - state.score[1 - p] == result.value


def test_solver_stops_with_search_stopped():
    state = get_game("hexifence", size=2).benchmark_positions()["middle"]
    solver = EdgeSolver(state.game)
    with pytest.raises(SearchStopped, match="solve gave up after"):
        solver.solve(state, Limits(nodes=50))
    assert solver.nodes == 50


@pytest.mark.parametrize("seed", range(5))
def test_search_algorithms_agree_with_extra_turns(seed):
    """Minimax, alpha-beta and NegaScout agree on positions with capture chains."""
    from boardgames.search import Searcher

    rng = random.Random(seed)
    state = get_game("hexifence", size=2).new_state()
    while state.safe_moves() or not state.captures():
        if state.is_over():
            state = get_game("hexifence", size=2).new_state()
        state.make(rng.choice(state.legal_moves()))
    evaluator = state.game.evaluator("margin")
    values = {
        algorithm: Searcher(evaluator, algorithm=algorithm, tt_size=0).value(state, 4)
        for algorithm in ("minimax", "alphabeta", "negascout")
    }
    assert len(set(values.values())) == 1, values


def test_players_play_legal_moves():
    game = get_game("hexifence", size=2)
    for spec in ("seed", "default"):
        player = make_player(game, spec, seed=1)
        state = game.new_state()
        rng = random.Random(2)
        while not state.is_over():
            if state.to_move == 0:
                move = player.choose(state, Limits(time=2.0))
            else:
                move = rng.choice(state.legal_moves())
            state.play(move)


def test_seed_player_always_captures():
    state = chain_position(3, 20)
    while not state.captures():
        state.make(state.legal_moves()[-1])
    move = make_player(state.game, "seed", seed=0).choose(state)
    assert move in state.captures()


@pytest.mark.slow
@pytest.mark.parametrize("size", [2, 3])
def test_default_beats_seed(size):
    """The chain-aware default against seed 004, colours alternating."""
    game = get_game("hexifence", size=size)
    wins = 0
    games = 40
    for i in range(games):
        default = make_player(game, "default", seed=i)
        seed = make_player(game, "seed", seed=1000 + i)
        players = [default, seed] if i % 2 == 0 else [seed, default]
        state = game.new_state()
        while not state.is_over():
            state.play(players[state.to_move].choose(state, Limits(time=5.0)))
        a, b = state.scores()
        wins += (a > b) == (i % 2 == 0)
    assert wins >= 0.9 * games


def chain_goes_on(state) -> bool:
    """A capturable cell whose chain goes on for two more cells: the solver's
    all-but-two rule takes it without searching the alternatives."""
    game, emp = state.game, state.empties
    for c, left in enumerate(emp):
        if left != 1:
            continue
        e = next(e for e in game.cell_edges[c] if state.claimed[e] < 0)
        nxt = [d for d in game.edge_cells[e] if d != c]
        if not nxt or emp[nxt[0]] != 2:
            continue
        f = next(x for x in game.cell_edges[nxt[0]] if x != e and state.claimed[x] < 0)
        beyond = [x for x in game.edge_cells[f] if x != nxt[0]]
        if beyond and emp[beyond[0]] == 2:
            return True
    return False


@pytest.mark.parametrize(
    ("name", "params", "empty", "count"),
    [("dots", {"rows": 3, "cols": 3}, 11, 200), ("hexifence", {"size": 2}, 12, 1500)],
)
def test_all_but_two_rule_against_brute_force(name, params, empty, count):
    game = get_game(name, **params)
    solver = EdgeSolver(game)
    memo: dict[int, int] = {}
    checked = 0
    for state in random_positions(game, empty, count, seed=11):
        if not chain_goes_on(state):
            continue
        p = state.to_move
        want = state.score[p] - state.score[1 - p] + remaining_value(state, memo)
        assert solver.solve(state).value == want, state.history
        checked += 1
    assert checked >= 8
