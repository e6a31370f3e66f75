"""Tests of the search core on Connect Four and on the tiny `Strip` games
(tests/support/strips.py, with their brute-force references)."""

from __future__ import annotations

import random
from time import perf_counter

import connect_four  # noqa: F401  (registers the game)
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.budget import Limits
from boardgames.errors import IllegalMoveError, OptionError
from boardgames.game import State
from boardgames.registry import get_game
from boardgames.search import MCTS, WIN, Searcher, SearchResult, solve
from boardgames.search.negamax import SIDE_KEY
from boardgames.search.result import describe_score
from boardgames.search.tt import EXACT, LOWER, TranspositionTable, from_tt, to_tt
from boardgames.solution import SolveResult
from support.strips import (
    SETTINGS,
    STRIPS,
    brute_negamax,
    brute_value,
    child_values,
    random_position,
    snapshot,
    strip_noise,
)


def c4(moves: str) -> State:
    """A Connect Four position from space-separated columns."""
    return get_game("connect4").replay(moves.split())


# --- the test games themselves --------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(STRIPS))
def test_strip_make_undo_and_hashes(name):
    game = STRIPS[name]
    for seed in range(20):
        state = game.new_state()
        rng = random.Random(seed)
        before = []
        while not state.is_over():
            assert state.hashes == state.recompute_hashes()
            before.append(snapshot(state))
            state.make(rng.choice(state.legal_moves()))
        assert state.hashes == state.recompute_hashes()
        while before:
            state.undo()
            assert snapshot(state) == before.pop()


def test_extra_turn_game_really_gives_extra_turns():
    state = STRIPS["extra"].new_state()
    for m in (0, 2):
        state.make(m)
    assert state.to_move == 0
    state.make(1)  # fills the gap between two marks: first moves again
    assert state.to_move == 0


# --- algorithms agree -----------------------------------------------------------------------
CONFIGS = [
    dict(tt_size=0),
    dict(tt_size=1 << 12, symmetry=False),
    dict(tt_size=1 << 12, symmetry=True),
    dict(tt_size=64, symmetry=True, killers=False, history=False),
    dict(tt_size=1 << 12, tt_start=2),  # a table that grows during the search
]


@SETTINGS
@given(
    name=st.sampled_from(sorted(STRIPS)),
    seed=st.integers(0, 10**6),
    config=st.sampled_from(CONFIGS),
)
def test_algorithms_agree_on_strips(name, seed, config):
    game = STRIPS[name]
    state = random_position(game, seed, 3)
    before = snapshot(state)
    evaluator = game.default_evaluator()
    for depth in range(1, 5):
        expected = brute_negamax(state, depth, evaluator)
        for algorithm in ("minimax", "alphabeta", "negascout"):
            value = Searcher(algorithm=algorithm, **config).value(state, depth)
            assert value == expected, (algorithm, depth, config)
        assert snapshot(state) == before


def fractional_noise(state: State) -> float:
    """Scores much finer than NegaScout's null window of width 1."""
    return strip_noise(state) / 37.0


@SETTINGS
@given(
    name=st.sampled_from(sorted(STRIPS)),
    seed=st.integers(0, 10**6),
    config=st.sampled_from(CONFIGS),
)
def test_algorithms_agree_with_fractional_scores(name, seed, config):
    game = STRIPS[name]
    state = random_position(game, seed, 2)
    for depth in (2, 3, 4):
        expected = brute_negamax(state, depth, fractional_noise)
        for algorithm in ("alphabeta", "negascout"):
            searcher = Searcher(fractional_noise, algorithm=algorithm, aspiration=0.01, **config)
            assert searcher.value(state, depth) == expected
            assert searcher.search(state, depth=depth).score == expected


@SETTINGS
@given(seed=st.integers(0, 10**6), config=st.sampled_from(CONFIGS))
def test_algorithms_agree_on_connect_four(seed, config):
    game = get_game("connect4")
    state = random_position(game, seed, 20)
    values = {
        algorithm: [Searcher(algorithm=algorithm, **config).value(state, d) for d in range(1, 5)]
        for algorithm in ("minimax", "alphabeta", "negascout")
    }
    assert values["minimax"] == values["alphabeta"] == values["negascout"]


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_algorithms_agree_on_dots_and_boxes(seed):
    """The library's own extra-turn game (2 x 2 Dots and Boxes), scored."""
    game = get_game("dots", rows=2, cols=2)
    state = game.new_state()
    rng = random.Random(seed)
    for _ in range(4 + rng.randint(0, 4)):
        if not state.is_over():
            state.make(rng.choice(state.legal_moves()))

    def margin(state: State) -> float:
        a, b = state.scores()
        return float(a - b if state.to_move == 0 else b - a)

    for depth in (1, 2, 3):
        expected = brute_negamax(state, depth, margin)
        for algorithm in ("minimax", "alphabeta", "negascout"):
            searcher = Searcher(margin, algorithm=algorithm, tt_size=1 << 12)
            assert searcher.value(state, depth) == expected


@SETTINGS
@given(name=st.sampled_from(sorted(STRIPS)), seed=st.integers(0, 10**6))
def test_deepening_with_a_warm_table_keeps_exact_values(name, seed):
    """Iterative deepening (TT, killers, history from shallower iterations,
    aspiration windows) must still return the exact fixed-depth value."""
    game = STRIPS[name]
    state = random_position(game, seed, 2)
    if state.is_over():
        return
    evaluator = game.default_evaluator()
    for algorithm in ("alphabeta", "negascout"):
        searcher = Searcher(algorithm=algorithm, aspiration=5, tt_size=1 << 12)
        for depth in range(1, 5):
            result = searcher.search(state, depth=depth)
            assert result.score == brute_negamax(state, depth, evaluator)
            assert result.move in state.legal_moves()


def test_exhaustive_search_of_a_scored_game_matches_brute_force():
    game = STRIPS["scored"]
    state = game.new_state()
    expected = brute_negamax(state, 10, game.default_evaluator())
    for algorithm in ("minimax", "alphabeta", "negascout"):
        assert Searcher(algorithm=algorithm).value(state, 10) == expected


@pytest.mark.parametrize("seed", range(8))
def test_bigger_margin_is_preferred_in_scored_games(seed):
    """Every game of the scored strip lasts the same number of moves, so the
    terminal score WIN - ply + margin orders lines by margin: searched to the
    end, the chosen move must keep the best margin the brute force finds."""
    game = STRIPS["scored-noextra"] if seed % 2 else STRIPS["scored"]
    state = random_position(game, seed, 2)
    side = state.to_move
    result = Searcher().search(state, depth=game.n)
    state.make(result.move)
    value = brute_value(state)
    if state.to_move != side:
        value = -value
    state.undo()
    assert value == brute_value(state)


# --- the transposition table ----------------------------------------------------------------
def test_tt_two_tier_replacement():
    tt = TranspositionTable(8)
    assert tt.size == 8 and tt.mask == 3
    key_a, key_b, key_c = 5, 5 + 4, 5 + 8  # the same bucket
    tt.store(key_a, 6, 1.0, EXACT, 2)
    tt.store(key_b, 2, 2.0, LOWER, 3)  # shallower: goes to the always-replace slot
    assert tt.entry(key_a) == (6, 1.0, EXACT, 2)
    assert tt.entry(key_b) == (2, 2.0, LOWER, 3)
    tt.store(key_c, 1, 3.0, EXACT, 4)  # replaces b, never the deep a
    assert tt.entry(key_b) is None and tt.entry(key_a) is not None
    tt.new_search()  # an old deep entry loses its priority
    tt.store(key_b, 1, 4.0, EXACT, 1)
    assert tt.entry(key_a) is None and tt.entry(key_b) == (1, 4.0, EXACT, 1)
    assert tt.used() == 2


def test_tt_size_rounds_down_to_a_power_of_two():
    assert TranspositionTable(1000).size == 512
    with pytest.raises(ValueError):
        TranspositionTable(1)


def test_mate_scores_are_stored_relative_to_the_node():
    win_in_5_from_root = WIN - 5
    stored = to_tt(win_in_5_from_root, 3)  # seen 3 plies down: a win in 2 from there
    assert stored == WIN - 2
    assert from_tt(stored, 1) == WIN - 3  # reached at ply 1: win in 3 from the root
    assert to_tt(12.5, 4) == 12.5 == from_tt(12.5, 9)
    assert from_tt(to_tt(-(WIN - 7), 2), 2) == -(WIN - 7)


def test_tt_on_and_off_give_the_same_value_in_deepening():
    state = c4("d d c e d")
    with_tt = Searcher(tt_size=1 << 14).search(state, depth=7)
    without = Searcher(tt_size=0).search(state, depth=7)
    assert with_tt.score == without.score
    assert with_tt.nodes < without.nodes
    assert with_tt.tt_hits > 0 and without.tt_probes == 0


@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_tt_move_is_mapped_back_into_the_position_frame(seed):
    """In a position whose canonical frame is the mirror, the stored move is in
    the mirror frame; mapped back it must be legal, and mirrored positions
    have identical values."""
    game = get_game("connect4")
    state = random_position(game, seed, 12)
    if state.is_over():
        return
    mirror = game.replay([6 - m for m in state.history])
    searcher = Searcher(tt_size=1 << 12)
    result = searcher.search(state, depth=4)
    key = min(state.hashes) ^ (SIDE_KEY if state.to_move else 0)
    frame = state.hashes.index(min(state.hashes))
    entry = searcher.tt.entry(key)
    assert entry is not None and entry[3] >= 0
    assert game.unmap_move(entry[3], frame) in state.legal_moves()
    assert result.move in state.legal_moves()
    assert all(m in range(7) for m in result.pv)
    mirrored = Searcher(tt_size=1 << 12).search(mirror, depth=4)
    assert mirrored.score == result.score
    # The same searcher answers the mirror from its table, in the mirror's frame.
    again = searcher.search(mirror, depth=4)
    assert again.move in mirror.legal_moves() and again.score == result.score


# --- limits, legality, determinism ----------------------------------------------------------
def within_budget(run, budget: float, attempts: int = 3) -> SearchResult:
    """`run()` finishes within budget * 1.1 + 50 ms.

    The machine running the tests may be busy, so a descheduled run is
    retried; a search that really overruns fails every attempt.
    """
    for _ in range(attempts):
        start = perf_counter()
        result = run()
        elapsed = perf_counter() - start
        if elapsed <= budget * 1.1 + 0.05:
            return result
    raise AssertionError(f"{attempts} runs overran {budget} s (last {elapsed:.3f} s)")


def test_time_limit_is_respected():
    state = get_game("connect4").new_state()
    result = within_budget(lambda: Searcher().search(state, time=0.3), 0.3)
    assert result.move in state.legal_moves()
    assert result.depth >= 1 and not result.completed


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta"])
def test_time_limit_with_a_slow_evaluator(algorithm):
    """A slow evaluator (about 0.5 ms a node) must not stretch the overrun."""

    def slow(state):
        end = perf_counter() + 0.0005
        while perf_counter() < end:
            pass
        return 0.0

    state = get_game("connect4").new_state()
    searcher = Searcher(slow, algorithm=algorithm)
    result = within_budget(lambda: searcher.search(state, time=0.2), 0.2)
    assert result.move in state.legal_moves()


def test_tiny_time_limit_still_returns_a_legal_move():
    state = c4("d d c")
    for budget in (1e-9, 0.001):
        result = Searcher().search(state, time=budget)
        assert result.move in state.legal_moves()
        assert state.history == [3, 3, 2]


@pytest.mark.parametrize("limit", [1, 5, 50, 500, 5000])
def test_node_limit_is_respected(limit):
    state = c4("d c")
    before = snapshot(state)
    result = Searcher().search(state, nodes=limit)
    assert result.nodes <= limit
    assert result.move in state.legal_moves()
    assert snapshot(state) == before


@SETTINGS
@given(
    name=st.sampled_from(sorted(STRIPS) + ["connect4"]),
    seed=st.integers(0, 10**6),
    algorithm=st.sampled_from(["minimax", "alphabeta", "negascout"]),
    nodes=st.integers(1, 300),
)
def test_returned_move_is_always_legal(name, seed, algorithm, nodes):
    game = STRIPS[name] if name in STRIPS else get_game(name)
    state = random_position(game, seed, 8)
    before = snapshot(state)
    searcher = Searcher(algorithm=algorithm, seed=seed, tt_size=1 << 12)
    result = searcher.search(state, depth=5, nodes=nodes)
    assert snapshot(state) == before
    if state.is_over():
        assert result.move is None
    else:
        assert result.move in state.legal_moves()
        assert result.pv and result.pv[0] == result.move or not result.completed


class Boom(Exception):
    pass


def test_an_evaluator_error_leaves_the_state_unchanged():
    calls = []

    def failing(state):
        calls.append(1)
        if len(calls) > 40:
            raise Boom
        return 0.0

    state = c4("d c")
    before = snapshot(state)
    runs = (
        lambda: Searcher(failing).search(state, depth=6),
        lambda: Searcher(failing).value(state, 6),
        lambda: MCTS(failing, playout="evaluator", seed=1).search(state, nodes=500),
    )
    for run in runs:
        calls.clear()
        with pytest.raises(Boom):
            run()
        assert snapshot(state) == before


def test_search_is_deterministic_for_a_seed():
    state = c4("d d e")

    def run(seed):
        r = Searcher(seed=seed).search(state, depth=6)
        return r.move, r.score, r.pv, r.nodes, r.cutoffs

    assert run(3) == run(3)
    assert run(None) == run(None)


def test_seed_only_breaks_ties():
    state = c4("d d")
    scores = {Searcher(seed=s).search(state, depth=4).score for s in range(5)}
    assert len(scores) == 1


def test_on_iteration_reports_every_completed_depth():
    seen: list[SearchResult] = []
    state = get_game("connect4").new_state()
    result = Searcher().search(state, depth=5, on_iteration=seen.append)
    assert [r.depth for r in seen] == [1, 2, 3, 4, 5]
    assert all(r.move in state.legal_moves() for r in seen)
    assert result.depth == 5 and result.completed
    assert seen[-1].move == result.move and seen[-1].score == result.score


def test_iterate_yields_one_result_per_depth_and_the_caller_may_stop():
    """Iterative deepening as a generator: the caller decides when to stop."""
    state = get_game("connect4").new_state()
    searcher = Searcher()
    results = []
    for result in searcher.iterate(state, Limits(depth=8)):
        results.append(result)
        if result.depth == 3:
            break
    assert [r.depth for r in results] == [1, 2, 3]
    assert all(r.completed and r.move in state.legal_moves() for r in results)
    assert [r.nodes for r in results] == sorted(r.nodes for r in results)
    assert state.history == []  # whole between two results, and after a break
    # Run to the end it gives what `search` gives.
    last = list(Searcher().iterate(state, Limits(depth=5)))[-1]
    searched = Searcher().search(state, Limits(depth=5))
    assert (last.move, last.score, last.pv, last.nodes) == (
        searched.move, searched.score, searched.pv, searched.nodes
    )


def test_iterate_ends_with_a_stopped_result_when_a_limit_strikes():
    state = get_game("connect4").new_state()
    results = list(Searcher().iterate(state, Limits(nodes=3000)))
    *depths, stopped = results
    assert all(r.completed for r in depths) and not stopped.completed
    assert stopped.move in state.legal_moves() and stopped.nodes <= 3000
    assert stopped.depth == (depths[-1].depth if depths else 0)
    assert state.history == []


def test_limits_value_and_keywords_search_alike():
    state = c4("d c")
    by_value = Searcher(seed=3).search(state, Limits(depth=5))
    by_keyword = Searcher(seed=3).search(state, depth=5)
    assert (by_value.move, by_value.score, by_value.nodes) == (
        by_keyword.move, by_keyword.score, by_keyword.nodes
    )
    one = MCTS(seed=2).search(state, Limits(nodes=300, depth=4))
    two = MCTS(seed=2).search(state, nodes=300, depth=4)
    assert (one.move, one.score, one.pv, one.nodes) == (two.move, two.score, two.pv, two.nodes)
    for engine in (Searcher(), MCTS()):
        with pytest.raises(OptionError, match="not both"):
            engine.search(state, Limits(depth=2), nodes=10)
        with pytest.raises(OptionError, match="Limits"):
            engine.search(state, 3)  # a depth where the limits go


@pytest.mark.parametrize(("name", "options", "moves"), [
    ("connect4", {}, "d c d"),
    ("hadron", {"rows": 5, "cols": 5}, "C3"),
    ("andantino", {}, "I10 I9"),
])
@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "negascout"])
def test_root_moves_keep_the_root_to_them(name, options, moves, algorithm):
    """A search kept to some root moves has the value of their best one:
    one move's value is minus its child's value a ply shallower."""
    state = get_game(name, **options).replay(moves.split())
    legal = state.legal_moves()
    depth = 3
    every = Searcher(algorithm=algorithm).search(state, depth=depth)
    kept = legal[-3:]
    values = {}
    for move in kept:
        alone = Searcher(algorithm=algorithm).search(state, depth=depth, root_moves=[move])
        assert alone.move == move
        child = state.copy()
        child.make(move)
        values[move] = alone.score
        assert alone.score == -Searcher(algorithm=algorithm).search(child, depth=depth - 1).score
    some = Searcher(algorithm=algorithm).search(state, depth=depth, root_moves=kept)
    assert some.move in kept and some.score == max(values.values()) <= every.score
    stepped = list(Searcher().iterate(state, Limits(depth=2), root_moves=kept))
    assert stepped and all(r.move in kept for r in stepped)
    assert state.legal_moves() == legal  # the state is left as it was


def test_root_moves_none_of_them_legal_is_an_error():
    state = c4("d")
    with pytest.raises(IllegalMoveError, match="none of the moves given is legal"):
        Searcher().search(state, depth=2, root_moves=[99])
    assert Searcher().search(state, depth=2, root_moves=[99, 3]).move == 3


def test_an_evaluator_set_between_searches_is_used_and_empties_the_table():
    state = get_game("hadron", rows=5, cols=5).new_state()
    searcher = Searcher()
    assert searcher.search(state, depth=3).score != 0
    searcher.evaluator = lambda s: 0.0
    assert searcher.search(state, depth=3).score == 0  # no value of the old one is kept


def test_the_core_reports_named_statistics_and_root_best():
    from boardgames.budget import Budget
    from boardgames.search.result import RootBest, SearchStats

    searcher = Searcher()
    state = get_game("connect4").new_state()
    core = searcher._core(state, searcher._prepare(state.game), Budget())
    value = core.root(state.legal_moves(), 4, -float("inf"), float("inf"))
    stats = core.stats()
    assert isinstance(stats, SearchStats) and stats.nodes > stats.horizon > 0
    assert stats.tt_hits <= stats.tt_probes and stats.first_move_cutoffs <= stats.cutoffs
    best = core.root_best
    assert isinstance(best, RootBest) and best.inside and best.score == value
    assert best.move in state.legal_moves() and best.pv[0] == best.move


def test_finds_a_forced_win_and_stops_deepening():
    # Red has three in the bottom row with both ends open: a win in 3 plies.
    state = c4("c c d d")
    result = Searcher().search(state, depth=12)
    assert result.score == WIN - 3
    assert result.move in (1, 4)
    assert result.depth < 12 and result.completed
    assert describe_score(result.score) == "win in 3"
    assert len(result.pv) == 3


@pytest.mark.parametrize("name", sorted(STRIPS))
def test_deepening_stops_once_every_line_reaches_the_end(name):
    """A timed search of a tiny game stops by itself when no line is cut by
    the depth limit any more; its score is then the exhaustive value."""
    game = STRIPS[name]
    state = random_position(game, 1, 1)
    result = Searcher().search(state, time=5.0)
    assert result.completed and result.depth <= game.n
    assert result.time < 2.5
    assert result.score == brute_negamax(state, game.n, game.default_evaluator())


def test_a_warm_table_does_not_stop_deepening_early():
    """Depth-limited TT entries must not pass for finished lines."""
    state = c4("d c d")
    searcher = Searcher()
    first = searcher.search(state, depth=7)
    second = searcher.search(state, depth=7)
    assert first.depth == second.depth == 7
    assert second.score == first.score
    state.make(first.move)
    state.make(3)
    third = searcher.search(state, depth=6)
    assert third.depth == 6 and third.completed


def test_immediate_win_is_taken():
    state = c4("a b a b a b")
    for algorithm in ("minimax", "alphabeta", "negascout"):
        result = Searcher(algorithm=algorithm).search(state, depth=3)
        assert result.move == 0 and result.score == WIN - 1


def test_finished_position_has_no_move():
    state = c4("a b a b a b a")
    result = Searcher().search(state, depth=3)
    assert result.move is None and result.score == -WIN


def test_one_searcher_serves_several_games():
    """Tables are rebuilt when the game changes (other sizes, other keys)."""
    searcher = Searcher(tt_size=1 << 10)
    for game in (STRIPS["extra"], get_game("connect4"), STRIPS["plain"], STRIPS["extra"]):
        state = random_position(game, 3, 2)
        result = searcher.search(state, depth=4)
        assert result.move in state.legal_moves()
        assert result.score == brute_negamax(state, 4, game.default_evaluator())


def test_summary_is_readable():
    game = get_game("connect4")
    result = Searcher().search(game.new_state(), depth=4)
    text = result.summary(game)
    assert "move:     d" in text and "nodes/s" in text and "tt:" in text
    assert "pv:       d" in text


def test_bad_options_are_rejected():
    with pytest.raises(OptionError):
        Searcher(algorithm="magic")
    with pytest.raises(OptionError):
        Searcher().search(get_game("connect4").new_state(), depth=0)
    with pytest.raises(OptionError):
        MCTS(playout="psychic")


def test_late_move_reductions_prune_and_stay_legal():
    game = get_game("connect4")
    start = game.new_state()
    plain, reduced = Searcher(), Searcher(reductions=True)
    a, b = plain.search(start, depth=8), reduced.search(start, depth=8)
    assert b.nodes < a.nodes and b.move in start.legal_moves()
    for seed in range(10):
        state = random_position(game, seed, 20)
        if state.is_over():
            continue
        before = snapshot(state)
        result = Searcher(reductions=True).search(state, depth=6)
        assert snapshot(state) == before and result.move in state.legal_moves()
        # Reductions change heuristic values, never proofs: a forced win is
        # found only through lines where every reply was searched.
        exact = Searcher().search(state, depth=6)
        if result.score >= WIN - 100:
            assert exact.score >= WIN - 100


@pytest.mark.parametrize("name", sorted(STRIPS))
def test_reductions_never_invent_a_proof(name):
    """With reductions a proven score still means a forced result (strips with
    extra turns and scores included): checked against the exact solver."""
    from boardgames.search.result import is_proven

    game = STRIPS[name]
    for seed in range(12):
        state = random_position(game, seed, 2)
        if state.is_over():
            continue
        result = Searcher(reductions=True, tt_size=1 << 10).search(state, depth=5)
        assert result.move in state.legal_moves()
        if is_proven(result.score):
            exact = solve(state).value
            assert (exact > 0) == (result.score > 0) and exact != 0


def test_lmr_ai_option():
    from boardgames.ai import make_player

    for game, spec in (
        (get_game("connect4"), "negascout:depth=4,lmr=true"),
        (get_game("squatter", size=5), "default:depth=3,lmr=true"),
    ):
        player = make_player(game, spec)
        assert player.engine.reductions is True
        state = game.new_state()
        assert player.choose(state) in state.legal_moves()


def test_reductions_need_negascout():
    state = get_game("connect4").new_state()
    one = Searcher(algorithm="alphabeta", reductions=True).search(state, depth=6)
    two = Searcher(algorithm="alphabeta").search(state, depth=6)
    assert (one.score, one.nodes) == (two.score, two.nodes)


def test_move_ordering_counters():
    state = get_game("connect4").new_state()
    r = Searcher().search(state, depth=7)
    assert 0 < r.first_move_cutoffs <= r.cutoffs
    assert r.first_move_cutoffs / r.cutoffs > 0.7
    plain = Searcher(algorithm="alphabeta", tt_size=0, killers=False, history=False)
    assert plain.search(state, depth=7).nodes > r.nodes


def test_order_callback_is_used():
    calls = []

    def reverse(state, moves):
        calls.append(len(moves))
        return moves[::-1]

    state = get_game("connect4").new_state()
    expected = Searcher(tt_size=0).value(state, 4)
    assert Searcher(tt_size=0, order=reverse).value(state, 4) == expected
    assert calls


# --- solve ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(STRIPS))
@pytest.mark.parametrize("seed", range(6))
def test_solve_matches_brute_force(name, seed):
    game = STRIPS[name]
    state = random_position(game, seed, 3)
    before = snapshot(state)
    result = solve(state, all_moves=True)
    assert snapshot(state) == before
    assert isinstance(result, SolveResult)
    assert result.value == brute_value(state)
    if state.is_over():
        assert result.best == []
        return
    optimal = [m for m, v in child_values(state).items() if v == result.value]
    assert sorted(result.best) == sorted(optimal)
    expected_winner = None
    if result.value > 0:
        expected_winner = state.to_move
    elif result.value < 0:
        expected_winner = 1 - state.to_move
    assert result.winner == expected_winner
    one = solve(state, tt_size=0, etc=False)
    assert one.value == result.value and one.best[0] in optimal


@pytest.mark.parametrize("name", sorted(STRIPS))
@pytest.mark.parametrize("seed", range(6))
def test_solve_outcome_is_the_sign_of_the_value(name, seed):
    game = STRIPS[name]
    state = random_position(game, seed, 2)
    exact = solve(state, all_moves=True)
    result = solve(state, all_moves=True, outcome=True)
    sign = (exact.value > 0) - (exact.value < 0)
    assert result.value == sign and result.winner == exact.winner
    if state.is_over():
        assert result.best == []
        return
    winning_or_drawing = [m for m, v in child_values(state).items() if (v > 0) - (v < 0) == sign]
    # Every move of the right outcome is optimal (all of them when every move loses).
    assert sorted(result.best) == sorted(winning_or_drawing)


def test_solve_connect_four_endgame():
    game = get_game("connect4")
    # A crowded position from a seeded random game; the rest is brute-forced.
    seed = 0
    while True:
        state = random_position(game, seed, 0)
        rng = random.Random(seed)
        while len(state.history) < 31 and not state.is_over():
            state.make(rng.choice(state.legal_moves()))
        if not state.is_over():
            break
        seed += 1
    result = solve(state, all_moves=True)
    assert result.value == brute_value(state)
    assert result.best and all(m in state.legal_moves() for m in result.best)


def test_solve_times_out_cleanly():
    from boardgames.errors import SearchStopped

    state = get_game("connect4").new_state()
    with pytest.raises(SearchStopped):
        solve(state, time=0.05)
    assert state.history == []


# --- MCTS -----------------------------------------------------------------------------------
def test_mcts_takes_an_immediate_win():
    state = c4("a b a b a b")
    result = MCTS(seed=1).search(state, nodes=50)
    assert result.move == 0


def test_mcts_blocks_and_returns_legal_moves():
    game = get_game("connect4")
    # Yellow must block column a.
    state = c4("a b a b a")
    result = MCTS(seed=2).search(state, nodes=800)
    assert result.move == 0
    for seed in range(5):
        state = random_position(game, seed, 15)
        before = snapshot(state)
        r = MCTS(seed=seed, playout="evaluator").search(state, nodes=60)
        assert snapshot(state) == before
        assert (r.move is None) == state.is_over()
        assert r.move is None or r.move in state.legal_moves()


def test_mcts_is_deterministic_for_a_seed():
    state = c4("d")

    def run():
        r = MCTS(seed=9).search(state, nodes=300, depth=6)
        return r.move, r.score, r.pv, r.nodes

    assert run() == run()


def test_mcts_time_limit():
    state = get_game("connect4").new_state()
    result = within_budget(lambda: MCTS(seed=1).search(state, time=0.2), 0.2)
    assert result.move in state.legal_moves() and result.nodes > 0


def test_mcts_with_extra_turns_prefers_the_winning_move():
    """In the scored extra-turn strip a closing move scores and moves again;
    the rewards must follow the player who moved into each node."""
    game = STRIPS["scored"]
    state = game.new_state()
    for m in (0, 2, 6):
        state.make(m)
    winning = [m for m, v in child_values(state).items() if v > 0]
    assert winning and len(winning) < len(state.legal_moves())
    result = MCTS(seed=4).search(state, nodes=2000)
    assert result.move in winning
    assert result.score > 0


# --- a broken evaluator ---------------------------------------------------------------------
def _nan(state: State) -> float:
    return float("nan")


def _half_nan(state: State) -> float:
    """NaN in half the positions, a number in the others."""
    return float("nan") if state.key & 1 else float(len(state.history))


@pytest.mark.parametrize("evaluator", [_nan, _half_nan, lambda s: float("-inf")])
@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "negascout"])
@pytest.mark.parametrize("name", ["connect4", "dots", "squatter"])
def test_a_nan_evaluator_still_gives_a_legal_move(name, algorithm, evaluator):
    """No comparison with NaN is true, so no move used to beat -inf at the root:
    `noise=nan` ended in an IndexError.  The first move now stands."""
    game = get_game(name)
    state = list(game.benchmark_positions().values())[-1] if name != "connect4" else c4("d c")
    before = snapshot(state)
    depth = 2 if algorithm == "minimax" else 3
    for aspiration in (None, 2.0):
        if algorithm == "minimax" and aspiration:
            continue
        searcher = Searcher(evaluator, algorithm=algorithm, aspiration=aspiration, tt_size=1 << 10)
        for limits in ({"depth": depth}, {"time": 0.03}, {"nodes": 200}):
            result = searcher.search(state, **limits)
            assert result.move in state.legal_moves()
            assert snapshot(state) == before
            assert result.summary(game)  # a NaN or infinite score prints too


def test_describe_score_of_a_broken_evaluator():
    assert describe_score(float("nan")) == "nan"
    assert describe_score(float("inf")) == "+inf"
    assert describe_score(float("-inf"), scored=True) == "-inf"


def test_mcts_with_a_nan_evaluator_gives_a_legal_move():
    state = c4("d c")
    result = MCTS(_nan, playout="evaluator", seed=1).search(state, nodes=200)
    assert result.move in state.legal_moves()


# --- one exception for every search that stops early ----------------------------------------
def test_every_stopped_search_raises_one_exception():
    import boardgames.games.hadron.solver as hadron_solver
    import boardgames.games.hexifence.solver as edge_solver
    import boardgames.search as search
    import boardgames.search.negamax as negamax
    from boardgames.errors import SearchStopped
    from boardgames.games.hexifence.solver import EdgeSolver

    # One name: the old ones are gone.
    for module, old in [(search, "SearchTimeout"), (negamax, "SearchAborted"),
                        (edge_solver, "SolveAborted"), (hadron_solver, "SolveTimeout")]:
        assert not hasattr(module, old), old
    assert issubclass(SearchStopped, TimeoutError)
    with pytest.raises(SearchStopped, match=r"^solve gave up after \d+\.\d\d s \(\d+ nodes\)$"):
        solve(get_game("connect4").new_state(), time=0.05)
    game = get_game("hexifence", size=2)
    with pytest.raises(SearchStopped, match=r"^solve gave up after .* nodes\)$") as stopped:
        EdgeSolver(game).solve(game.new_state(), Limits(time=0.05))
    assert stopped.value.nodes > 0


# --- the command line -----------------------------------------------------------------------
def _invoke(*args: str):
    from click.testing import CliRunner

    from boardgames.cli import main

    return CliRunner().invoke(main, list(args))


def _one_error(result) -> str:
    """The single `error: ...` line of a failed command (exit code 2, no traceback)."""
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(lines) == 1 and "Traceback" not in result.output, result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("perft", "squatter", "-1"), "depth must be a whole number >= 0, not -1"),
        (("perft", "squatter", "-x"), "depth must be a whole number >= 0"),
        (("bestmove", "squatter", "nosuch.txt", "--time", "inf"), "--time must be a number"),
        (("bestmove", "squatter", "nosuch.txt", "--time", "nan"), "--time must be a number"),
        (("solve", "dots", "--time", "nan"), "--time must be a number"),
        (("solve", "dots", "--time", "-1"), "--time must be a number"),
        (("bench", "dots", "--time", "nan"), "--time must be a number"),
        (("bench", "dots", "--time", "inf"), "--time must be a number"),
    ],
)
def test_bad_numbers_on_the_command_line_are_one_error_line(args, fragment):
    assert fragment in _one_error(_invoke(*args))


def test_solve_gives_up_in_the_documented_words():
    for args in (("hexifence", "--size", "2"), ("squatter", "--size", "6"), ("hadron",)):
        error = _one_error(_invoke("solve", *args, "--time", "0.2"))
        assert error.startswith("error: solve gave up after "), error


def test_bestmove_on_a_finished_game_says_the_game_is_over(tmp_path):
    game = get_game("dots", rows=2, cols=2)
    state = game.new_state()
    rng = random.Random(1)
    while not state.is_over():
        state.make(rng.choice(state.legal_moves()))
    path = tmp_path / "over.txt"
    path.write_text(state.to_text())
    winner = {"draw": "a draw"}.get(state.result(), f"{state.result()} won")
    for ai in ("default", "alphabeta", "mcts", "random"):
        error = _one_error(
            _invoke("bestmove", "dots", str(path), "--rows", "2", "--cols", "2", "--ai", ai)
        )
        assert error == f"error: the game is over ({winner})"


def test_bench_reports_the_edge_games_real_search():
    """HexiFence and dots' default AI used to report depth 0, nodes 0 everywhere."""
    result = _invoke("bench", "dots", "hexifence", "--time", "0.2")
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.strip().splitlines()
    figures = {tuple(row.split()[:2]): row.split()[2:5] for row in rows}
    for game in ("dots", "hexifence"):
        depth, nodes, nps = figures[(game, "loony")]  # solved exactly: every move left
        assert int(depth) > 0 and int(nodes) > 0 and int(nps) > 0
    # A move chosen without any search shows '-', never a made-up 0.
    for key, (_, nodes, _) in figures.items():
        assert nodes == "-" or int(nodes) > 0, (key, nodes)


@pytest.mark.parametrize("name", ["alphabeta", "minimax"])
def test_lmr_is_refused_where_it_would_do_nothing(name):
    # Late move reductions live in NegaScout's null-window searches only.
    from boardgames.ai import make_player

    with pytest.raises(OptionError, match=f"lmr: .* not {name}"):
        make_player(get_game("squatter", size=5), f"{name}:depth=2,lmr=true")


@pytest.mark.parametrize(
    ("spec", "named", "not_named"),
    [
        ("alphabeta:depth=1,nosuch=1", "tt", "lmr"),
        ("negascout:depth=1,nosuch=1", "lmr", "playout"),
        ("mcts:time=0.1,nosuch=1", "playout", "lmr"),
    ],
)
def test_an_unknown_option_error_lists_the_ais_own_options(spec, named, not_named):
    from boardgames.ai import make_player

    with pytest.raises(OptionError) as error:
        make_player(get_game("squatter", size=5), spec)
    ai_options = str(error.value).split("AI options: ")[1].split(", ")
    assert named in ai_options and not_named not in ai_options
