"""The default Hadron player's endgame: proven wins, swindles of proven losses, the stop signal."""

from __future__ import annotations

import threading
import time

import pytest

from boardgames.ai import make_player
from boardgames.ai.hadron.endgame import swindle, winning_replies
from boardgames.budget import Budget, Limits
from boardgames.games.hadron.solver import HadronSolver
from boardgames.registry import get_game
from support.hadron_reference import brute_force_win


def brute_force_shares(state) -> dict[int, float]:
    """Each move's share of the opponent's replies that win, by brute force."""
    shares = {}
    for move in state.legal_moves():
        state.make(move)
        replies = state.legal_moves()
        wins = 0
        for reply in replies:
            state.make(reply)
            wins += not brute_force_win(state)
            state.undo()
        state.undo()
        shares[move] = wins / len(replies)
    return shares


def test_swindle_by_hand_on_one_row():
    """1 x 7 after A1 A5 (White A1, Black A5), White to move, legal A3 and A7.

    White A7 balances A6 (Black A5, White A7): Black then has A3 and A6, two
    separate moves, and wins with either.  White A3 kills A2 (two White
    neighbours) and opens A4: Black A4 wins (White A7, Black A6, White is
    out of moves), but Black A7 kills A6 and leaves White the last move A4.
    So both moves lose, A7 to every reply and A3 to one reply of two.
    """
    game = get_game("hadron", rows=1, cols=7)
    state = game.replay(["A1", "A5"])
    assert sorted(game.format_move(m) for m in state.legal_moves()) == ["A3", "A7"]
    solver = HadronSolver(game)
    assert solver.solve(state).value == -1
    move, share = swindle(solver, state, Budget(Limits(time=5.0)))
    assert game.format_move(move) == "A3" and share == 0.5
    state.play("A7")
    assert winning_replies(solver, state, Budget(Limits(time=5.0))) == (2, 2)
    assert state.to_text() == "A1 A5 A7"  # left as it was


@pytest.mark.parametrize(("rows", "cols", "moves"), [
    (1, 6, ""), (4, 4, ""), (3, 4, "B2 B4"), (1, 7, "A4 A2"), (3, 5, "A2 C4"), (2, 5, "A2 B3"),
])
def test_swindle_takes_the_smallest_share(rows, cols, moves):
    game = get_game("hadron", rows=rows, cols=cols)
    state = game.replay(moves.split())
    assert not brute_force_win(state)
    shares = brute_force_shares(state)
    move, share = swindle(HadronSolver(game), state, Budget(Limits(time=30.0)))
    assert share == min(shares.values()) and shares[move] == share
    assert state.to_text() == game.replay(moves.split()).to_text()


def test_swindle_without_time_names_no_move():
    game = get_game("hadron", rows=1, cols=6)
    spent = Budget(Limits(time=1.0), start=time.perf_counter() - 2)
    assert swindle(HadronSolver(game), game.new_state(), spent) == (None, 1.0)


def test_lost_player_swindles_then_punishes_the_error():
    """1 x 6 is a first-player loss; the player opens with a move that leaves
    Black one winning reply of three, and wins after a losing reply."""
    game = get_game("hadron", rows=1, cols=6)
    player = make_player(game, "default:time=5")
    state = game.new_state()
    move = player.choose(state, Limits(time=5.0))
    shares = brute_force_shares(game.new_state())
    assert shares[move] == min(shares.values()) == pytest.approx(1 / 3)
    state.make(move)
    errors = [r for r in state.legal_moves() if _wins_after(state, r)]
    assert errors
    state.make(errors[0])
    answer = player.choose(state, Limits(time=5.0))
    state.make(answer)
    assert not brute_force_win(state)  # a winning answer: Black is lost again


def _wins_after(state, reply) -> bool:
    """Whether the side to move after `reply` wins (the reply was an error)."""
    state.make(reply)
    try:
        return brute_force_win(state)
    finally:
        state.undo()


def test_stop_before_the_move_skips_the_solver():
    game = get_game("hadron")
    state = game.replay(["E5", "A1", "C3", "G7", "B8", "H2"])
    while state.legal.bit_count() > 20:
        state.make(state.legal_moves()[0])
    player = make_player(game, "default:time=30")
    stop = threading.Event()
    stop.set()
    started = time.perf_counter()
    move = player.choose(state, Limits(stop=stop))
    assert time.perf_counter() - started < 5.0
    assert state.illegal_reason(move) is None


class _SlowSolver:
    """Stands in for HadronSolver: records each try's time and never finishes."""

    def __init__(self, game):
        self.game = game
        self.times: list[float] = []

    def solve(self, state, limits):
        from boardgames.errors import SearchStopped

        self.times.append(limits.time)
        raise SearchStopped


def test_each_timeout_halves_the_solvers_next_share():
    game = get_game("hadron", rows=4, cols=4)
    state = game.replay(["B2", "C3"])
    player = make_player(game, "default:time=0.2,solve_share=0.5")
    slow = _SlowSolver(game)
    player.solver = slow
    for _ in range(4):
        assert state.illegal_reason(player.choose(state)) is None
    assert slow.times == pytest.approx([0.1, 0.05, 0.025, 0.025], rel=0.01)
    player.reset()
    assert player.misses == 0 and player.solver is None
