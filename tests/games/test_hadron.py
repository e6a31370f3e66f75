"""Hadron: rules (oracle move counts), notation, symmetry, the Aenigma expert."""

from __future__ import annotations

import json
import random

import pytest

from boardgames.budget import Limits
from boardgames.errors import IllegalMoveError, NotationError, OptionError
from boardgames.game import Outcome, perft
from boardgames.games.hadron import Aenigma, AenigmaParams, scan_specials
from boardgames.games.hadron.experts import aenigma_evaluator
from boardgames.games.hadron.regions import LOST
from boardgames.registry import get_game
from support.hadron_reference import brute_force_win
from support.protocol_checks import check_protocol

# Reference legal counts before the first move and after each ply (docs/references.md).
ORACLE = [
    ((9, 9), "", [81]),
    ((9, 9), "E5 A1", [81, 76, 73]),
    ((9, 9), "E5 E7 E6", [81, 76, 73, 70]),
    ((9, 9), "D5 F5 E4 E6 E5", [81, 76, 73, 71, 71, 70]),
    ((9, 9), "A5 A3 A4", [81, 77, 75, 73]),
    ((5, 5), "B3 D3 C2 C4 C3", [25, 20, 17, 15, 15, 14]),
    ((3, 3), "A3 C2 A1", [9, 6, 2, 0]),
]


def hadron(rows: int = 9, cols: int = 9):
    return get_game("hadron", rows=rows, cols=cols)


@pytest.mark.parametrize(("board", "moves", "counts"), ORACLE)
def test_oracle_move_counts(board, moves, counts):
    state = hadron(*board).new_state()
    seen = [len(state.legal_moves())]
    for move in moves.split():
        state.play(move)
        seen.append(len(state.legal_moves()))
        assert state.legal == state.recompute_legal()
    assert seen == counts


def test_three_by_three_oracle_game_ends_with_first_player_winning():
    state = hadron(3, 3).replay(["A3", "C2", "A1"])
    assert state.is_over() and state.winner() == 0 and state.result() == "white"
    assert state.outcome() == Outcome(0, "no legal move")
    assert "result: white (no legal move)" in state.game.analyse(state)
    assert str(state).endswith("game over: black has no legal cell")
    state.undo()
    assert state.outcome() is None


@pytest.mark.parametrize(("rows", "cols"), [(9, 9), (5, 5), (3, 4), (1, 5), (2, 2)])
def test_protocol(rows, cols):
    check_protocol(hadron(rows, cols), examples=10)


def test_default_board_and_options():
    assert (hadron().rows, hadron().cols) == (9, 9)
    assert get_game("hadron").describe() == "hadron rows=9 cols=9"
    assert get_game("hadron", size=7).cols == 7
    assert get_game("hadron", rows=3, cols=26).format_move(77) == "C26"
    for bad in ({"rows": 0}, {"cols": 27}, {"size": 5, "rows": 5}):
        with pytest.raises(OptionError):
            get_game("hadron", **bad)


def test_symmetry_counts():
    assert len(hadron(9, 9).symmetries) == 8
    assert len(hadron(5, 7).symmetries) == 4
    assert len(set(hadron(4, 6).symmetries)) == 4


def test_notation():
    game = hadron()
    assert game.parse_move("F5") == 5 * 9 + 4
    assert game.parse_move(" f5 ") == game.parse_move("5,4")
    assert game.format_move(0) == "A1" and game.format_move(80) == "I9"
    for bad in ["", "J1", "A0", "A10", "5", "F", "1,2,3", "x,y", "F5x"]:
        with pytest.raises(NotationError) as info:
            game.parse_move(bad)
        assert repr(bad) in str(info.value)


def test_illegal_moves_explain_why_and_change_nothing():
    state = hadron().replay(["E5"])
    before = (state.legal, list(state.hashes), list(state.history))
    with pytest.raises(IllegalMoveError, match="occupied"):
        state.play("E5")
    with pytest.raises(IllegalMoveError, match="1 white, 0 black"):
        state.play("E6")
    assert (state.legal, state.hashes, state.history) == before


def test_balanced_placements_are_legal():
    # E5 between White D5/E4 and Black F5/E6: 2-2, legal (the oracle's 2-2 case).
    state = hadron().replay(["D5", "F5", "E4", "E6"])
    assert state.illegal_reason(state.game.parse_move("E5")) is None
    assert state.counts(state.game.parse_move("E5")) == (2, 2)


def test_perft_small_boards():
    # 2 x 2 by hand: 4 first moves, each leaves only the opposite corner.
    state = hadron(2, 2).new_state()
    assert perft(state, 1) == 4
    assert perft(state, 2) == 4
    # Then the two remaining cells are both 1-1: 2 moves, then 1.
    assert perft(state, 3) == 8
    assert perft(state, 4) == 8
    assert perft(state, 5) == 0  # every game is over after four stones


def test_incremental_legal_set_matches_recomputation():
    rng = random.Random(3)
    for rows, cols in [(9, 9), (4, 7), (1, 6)]:
        state = hadron(rows, cols).new_state()
        while not state.is_over():
            state.make(rng.choice(state.legal_moves()))
            assert state.legal == state.recompute_legal()
            assert state.live == state.recompute_live()
            assert state.legal & ~state.live == 0
        assert state.winner() == 1 - state.to_move
        while state.history:
            state.undo()
            assert state.live == state.recompute_live()


# --- the Aenigma expert -------------------------------------------------------------


def test_specials_interior_white_and_quirk():
    # E5, E6 White; E7 Black.  D6 (interior) sees White E6 and is dead except through C6;
    # F6 likewise through G6.  Both make White specials (Black - White = -1).
    state = hadron().replay(["E5", "E7", "E6", "A1", "A3"])
    detail: dict[int, list[int]] = {}
    s = scan_specials(state, detail)
    game = state.game
    assert {game.format_move(r): owners for r, owners in detail.items()} == {
        "C6": [0], "G6": [0]
    }
    assert (s.white, s.black, s.legal, s.plain) == (2, 0, 65, 63)


def test_special_corner_for_black():
    # Black at A2: corner A1 has one Black neighbour and one empty legal B1 -> Black special.
    state = hadron(3, 3).replay(["B3", "A2"])
    detail: dict[int, list[int]] = {}
    s = scan_specials(state, detail)
    game = state.game
    named = {game.format_move(r): owners for r, owners in detail.items()}
    assert named["B1"] == [1]
    assert s.black >= 1


def test_special_edge_black_minus_white_one():
    # 5 x 5: White A2, Black C1, White E5, Black B3.  Edge cell B1 sees Black C1, the dead
    # corner A1 (one White neighbour) and B2, legal at 1-1 (A2 White, B3 Black):
    # Black + White + blocked = 2 and Black - White = 1, so B2 is a Black special.
    game = hadron(5, 5)
    state = game.replay(["A2", "C1", "E5", "B3"])
    detail: dict[int, list[int]] = {}
    scan_specials(state, detail)
    named = {game.format_move(r): owners for r, owners in detail.items()}
    assert named["B2"] == [1]
    # The corner A1 has no legal neighbour left, so it makes no special anywhere.
    assert "B1" not in named


def test_edge_quirk_two_black_counts_for_white():
    # Edge cell C1 between Black B1 and Black D1, legal neighbour C2: Black - White = 2,
    # the original counts it for White.
    game = hadron(5, 5)
    state = game.replay(["E5", "B1", "A5", "D1"])
    detail: dict[int, list[int]] = {}
    scan_specials(state, detail)
    named = {game.format_move(r): owners for r, owners in detail.items()}
    assert named["C2"] == [0]


def test_aenigma_terminal_value():
    state = hadron(3, 3).replay(["A3", "C2", "A1"])
    assert Aenigma(noise=0)(state) == LOST


def test_aenigma_parity_and_phase_switch():
    # Black to move, 65 legal, 63 plain.
    state = hadron().replay(["E5", "E7", "E6", "A1", "A3"])
    # Opening phase (n >= t): w1 hS only; hS = 100 * (2 - 0), negated for Black.
    assert Aenigma(AenigmaParams(t=10), noise=0)(state) == -200
    # End phase from t = 66 (n = 65 < t): 0.5 hS + 0.5 hP, 63 plain moves is odd: +100.
    assert Aenigma(AenigmaParams(t=66), noise=0)(state) == 0.5 * -200 + 0.5 * 100
    # Pure parity.
    only_parity = AenigmaParams(w1_open=0, w2_open=1)
    assert Aenigma(only_parity, noise=0)(state) == 100
    state.play("A5")  # White to move: the specials count for White now
    s = scan_specials(state)
    expected = 100 * (s.white - s.black) * 1.0
    assert Aenigma(noise=0)(state) == expected


def test_aenigma_noise_is_seeded_and_bounded():
    state = hadron().replay(["E5"])
    base = Aenigma(noise=0)(state)
    a = [Aenigma(seed=5)(state) for _ in range(3)]
    b = [Aenigma(seed=5)(state) for _ in range(3)]
    assert a == b
    noisy = Aenigma(seed=9)
    values = [noisy(state) - base for _ in range(200)]
    assert all(-1 <= v < 1 for v in values) and len(set(values)) > 100


def test_aenigma_params_file(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"best": {"w1_open": 0.2, "w2_open": 0.7, "w1_end": 0.1,
                                         "w2_end": 0.9, "t": 30}, "history": []}))
    ev = aenigma_evaluator(params=str(path), noise=0, t=12)
    assert ev.params == AenigmaParams(0.2, 0.7, 0.1, 0.9, 12)
    (tmp_path / "bad.json").write_text("{nope")
    with pytest.raises(NotationError, match="not JSON"):
        aenigma_evaluator(params=str(tmp_path / "bad.json"))
    with pytest.raises(OptionError, match="unknown option"):
        hadron().evaluator("aenigma", w3=1)
    with pytest.raises(OptionError):
        AenigmaParams.from_dict({"w3": 1})


def test_evaluators_and_rendering():
    game = hadron()
    state = game.replay(["E5", "E7", "E6", "A1", "A3"])
    assert set(game.evaluators()) >= {"default", "aenigma", "regions"}
    assert game.evaluator("aenigma", noise=0)(state) == -200
    assert game.default_evaluator()(state) == game.evaluator("regions")(state)
    text = str(state)
    assert "*" in text and "black to move" in text
    assert "\x1b[" in state.game.render_text(state, color=True)
    svg = state.game.render_svg(state)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "special for white" in svg and "legal" in svg
    assert "white specials: 2" in game.analyse(state)
    assert "regions: " in game.analyse(state)


@pytest.mark.parametrize(
    ("moves", "reading"),
    [
        ("E2 C1 B2 C3 D5 A3 E4 A5", "regions: 3 downs (Black's favour), stars 1, estimated"),
        ("C1 A2 E5", "regions: 1 down (Black's favour), stars 13, estimated"),
        ("C2 B5 D1 D5 E4", "regions: no net ups, stars 9, estimated"),
        ("E5 B3 E1 D4 B1 E4", "regions: 1 up (White's favour), stars 2, estimated"),
        ("B1 D2 D4 B3 E1 A2 E2", "regions: 3 ups (White's favour), stars 3, estimated"),
    ],
)
def test_the_regions_report_names_the_side_the_ups_favour(moves, reading):
    """Net ups count for White: a negative count is downs, in Black's favour
    (the report said 'ups -3 (White's favour)')."""
    from boardgames.games.hadron.regions import Regions

    game = hadron(5, 5)
    state = game.replay(moves.split())
    ups, _, _ = Regions().analyse(state)
    assert (ups > 0) == ("White's favour" in reading) and (ups < 0) == ("Black's" in reading)
    assert reading in game.analyse(state).splitlines()


def test_play_names_the_winner_once():
    from click.testing import CliRunner

    from boardgames.cli import main

    for rows, cols in ((1, 1), (1, 2), (2, 2)):
        result = CliRunner().invoke(
            main, ["play", "hadron", "--rows", str(rows), "--cols", str(cols), "--ai2", "random",
                   "--seed", "1"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        assert result.output.count(" wins") == 1, result.output
        assert result.output.rstrip().endswith(" wins")  # the result line


# --- the solver ---------------------------------------------------------------------


def solve(rows, cols, moves=(), all_moves=True):
    from boardgames.solving.position import solve_position

    game = hadron(rows, cols)
    return game, solve_position(game.replay(list(moves)), all_moves=all_moves)


def test_solver_by_hand_one_by_one_and_one_by_two():
    game, result = solve(1, 1)
    assert (result.value, result.winner, result.best) == (1, 0, [0])
    # 1 x 2: either stone leaves the other cell with one neighbour of one colour.
    game, result = solve(1, 2)
    assert (result.value, result.winner, sorted(result.best)) == (1, 0, [0, 1])


def test_solver_by_hand_two_by_two_second_player_wins():
    # Any first stone kills its two neighbours; Black takes the opposite corner, which
    # makes both remaining cells 1-1; White takes one, Black the other, White is stuck.
    game, result = solve(2, 2)
    assert (result.value, result.winner, result.best) == (-1, 1, [])
    assert result.nodes >= 1 and result.time >= 0


def test_solver_without_all_moves_gives_one_winning_move():
    game, result = solve(3, 3, all_moves=False)
    assert result.value == 1 and len(result.best) == 1


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (2, 4), (1, 7), (2, 3)])
def test_solver_agrees_with_brute_force_at_the_root(rows, cols):
    game, result = solve(rows, cols)
    state = game.new_state()
    assert (result.value == 1) == brute_force_win(state)
    winning = []
    for move in state.legal_moves():
        state.make(move)
        if not brute_force_win(state):
            winning.append(move)
        state.undo()
    assert sorted(result.best) == sorted(winning)


def test_solver_agrees_with_brute_force_on_random_positions():
    from boardgames.solving.position import solve_position

    rng = random.Random(11)
    for rows, cols, plies in [(3, 4, 2), (4, 4, 5), (3, 5, 4)] * 3:
        game = hadron(rows, cols)
        state = game.new_state()
        for _ in range(plies):
            if state.is_over():
                break
            state.make(rng.choice(state.legal_moves()))
        result = solve_position(state, all_moves=False)
        assert (result.value == 1) == brute_force_win(state)
        if result.best:
            state.make(result.best[0])
            assert not brute_force_win(state)


def test_solver_on_finished_game():
    game, result = solve(3, 3, ["A3", "C2", "A1"])
    assert (result.value, result.winner, result.best) == (-1, 0, [])


def test_even_by_even_boards_are_second_player_wins():
    # Black mirrors through the centre with colours swapped: a known strategy; the
    # solver must agree on 2 x 4 and 4 x 4.
    for rows, cols in [(2, 4), (4, 4)]:
        assert solve(rows, cols, all_moves=False)[1].winner == 1


def test_colour_swap_is_not_a_symmetry():
    # 1 x 7, W A3 B A5 W A4 B A7: White to move wins (A1 kills A2).  With the colours
    # swapped White is still to move and A1 unlocks A2 for Black: a loss.
    game = hadron(1, 7)
    state = game.replay(["A3", "A5", "A4", "A7"])
    swapped = game.replay(["A5", "A3", "A7", "A4"])
    assert brute_force_win(state) and not brute_force_win(swapped)
    assert solve(1, 7, ["A3", "A5", "A4", "A7"])[1].value == 1
    assert solve(1, 7, ["A5", "A3", "A7", "A4"])[1].value == -1


# --- the Regions evaluator -----------------------------------------------------------


def test_regions_up_for_white_is_exact():
    from boardgames.games.hadron.regions import Regions

    # 1 x 3 after White A1: A2 (one White more) is opened only if Black takes A3: an up.
    state = hadron(1, 3).replay(["A1"])
    ups, stars, exact = Regions().analyse(state)
    assert (ups, stars, exact) == (1, 0, True)
    assert Regions()(state) == -100_000 - 20  # Black to move loses
    assert not brute_force_win(state)


def test_regions_stars_and_parity():
    from boardgames.games.hadron.regions import Regions

    # 1 x 5 after White A3: A2 and A4 hold one White more and only A1 / A5 can
    # open them: two ups, and Black to move loses.
    state = hadron(1, 5).replay(["A3"])
    ups, stars, exact = Regions().analyse(state)
    assert exact and ups == 2 and stars == 0
    assert Regions()(state) < 0 and not brute_force_win(state)


def test_regions_exact_verdicts_agree_with_brute_force():
    from boardgames.games.hadron.regions import Regions

    rng = random.Random(4)
    evaluator = Regions()
    checked = 0
    for _ in range(150):
        game = hadron(rng.randint(1, 3), rng.randint(2, 4))
        state = game.new_state()
        for _ in range(rng.randint(1, game.cells)):
            if state.is_over():
                break
            state.make(rng.choice(state.legal_moves()))
        if state.is_over():
            continue
        if evaluator.analyse(state)[2]:
            assert (evaluator(state) > 0) == brute_force_win(state), state.to_text()
            checked += 1
    assert checked > 30


# --- the named AIs ------------------------------------------------------------------


def test_aenigma_ai_setup_and_options(tmp_path):
    from boardgames.ai import make_player
    from boardgames.ai.hadron.players import AENIGMA_TIME

    game = hadron()
    player = make_player(game, "aenigma", seed=1)
    assert player.time == AENIGMA_TIME and player.engine.algorithm == "negascout"
    assert player.engine.evaluator.params == AenigmaParams()
    tuned = make_player(game, "aenigma:w1_end=0.2,t=30,noise=0")
    assert tuned.engine.evaluator.params.t == 30 and tuned.engine.evaluator.noise == 0
    for bad in ["aenigma:w3=1", "aenigma:noise=-1", "aenigma:params=3",
                f"aenigma:params={tmp_path / 'missing.json'}", "default:eval=foo",
                "default:solve_at=-1", "default:solve_share=2", "default:params=x.json"]:
        with pytest.raises((OptionError, NotationError)):
            make_player(game, bad)


def test_default_ai_plays_a_proven_win():
    from boardgames.ai import make_player

    game = hadron(3, 4)
    state = game.new_state()
    player = make_player(game, "default:time=2")
    move = player.choose(state, Limits(time=2.0))
    state.make(move)
    assert not brute_force_win(state)  # every reply loses
    assert state.history == [move] and len(state.legal_moves()) > 0


def test_both_ais_play_full_games_quickly():
    from boardgames.ai import make_player
    from boardgames.match.play import play_game

    game = hadron(5, 5)
    players = [make_player(game, "default:depth=2", seed=1), make_player(game, "aenigma:depth=2")]
    record = play_game(game, players)
    assert record.result in ("white", "black") and record.end == "rules"


@pytest.mark.slow
def test_default_beats_untuned_aenigma():
    """The strength target in miniature (the full 40-game match is in docs/tuning.md).

    Measured: 75% over 40 games.  With 20 games a true 75% falls below 60% about
    4% of the time, so the bound catches a real regression without flaking often.
    """
    from boardgames.match.play import play_match

    summary = play_match(hadron(), "default", "aenigma", games=20, time_limit=1.0, seed=3)
    assert summary.score_percent >= 60, summary.format()
