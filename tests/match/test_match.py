"""The match referee: normal games, forfeits, continuing records, matches."""

from __future__ import annotations

import time

import connect_four  # noqa: F401  (registers connect4)
import pytest

from boardgames.errors import PlayerHung
from boardgames.game import End
from boardgames.match.play import play_game, play_match
from boardgames.match.records import GameRecord
from boardgames.players import Player, RandomPlayer
from boardgames.registry import get_game


@pytest.fixture
def game():
    return get_game("connect4")


class Crasher(Player):
    def choose(self, state, limits=None):
        raise ZeroDivisionError("division by zero")


class Cheater(Player):
    """Plays column a until it is full, and then keeps playing it."""

    def choose(self, state, limits=None):
        return 0


class NotAMove(Player):
    def choose(self, state, limits=None):
        return "d"


class Sleeper(Player):
    def __init__(self, seconds):
        super().__init__("sleeper")
        self.seconds = seconds

    def choose(self, state, limits=None):
        time.sleep(self.seconds)
        return state.legal_moves()[0]


class Vandal(Player):
    """Tries to corrupt the position it is shown."""

    def choose(self, state, limits=None):
        move = state.legal_moves()[0]
        state.make(move)
        return move


def test_normal_game_is_recorded_and_replays(game):
    record = play_game(game, [RandomPlayer(seed=1), RandomPlayer(seed=2)])
    final = record.replay()
    assert final.is_over()
    assert record.end is End.RULES
    assert record.reason == final.outcome().reason  # the game's own words
    assert record.reason in ("four in a row", "board full")
    assert record.result == final.result()
    assert record.winner == final.winner()
    assert len(record.times) == len(record.moves)


@pytest.mark.parametrize("side", [0, 1])
def test_crashing_player_loses(game, side):
    players = [RandomPlayer(seed=3), RandomPlayer(seed=3)]
    players[side] = Crasher("crasher")
    record = play_game(game, players)
    assert record.end is End.CRASH
    assert record.winner == 1 - side
    assert record.result == game.player_names[1 - side]
    assert "ZeroDivisionError" in record.reason and "crasher" in record.reason


def test_illegal_move_loses(game):
    record = play_game(game, [Cheater("cheater"), Cheater("cheater too")])
    # a a a a a a: column full after six moves; red's seventh "a" is illegal
    assert record.moves == ["a"] * 6
    assert record.end is End.ILLEGAL and record.winner == 1
    assert "column full" in record.reason


def test_a_non_move_loses(game):
    record = play_game(game, [NotAMove("typo"), RandomPlayer()])
    assert record.end is End.MALFORMED and record.winner == 1
    assert "'d'" in record.reason


def test_a_move_index_outside_the_game_is_malformed(game):
    class Outside(Player):
        def choose(self, state, limits=None):
            return game.num_moves

    record = play_game(game, [RandomPlayer(seed=1), Outside("outside")])
    assert record.end is End.MALFORMED and record.winner == 0
    assert "not a move index of connect4" in record.reason


def test_sleeping_past_the_limit_loses(game):
    record = play_game(game, [RandomPlayer(seed=1), Sleeper(0.3)], time_limit=0.1)
    assert record.end is End.TIMEOUT
    assert record.winner == 0
    assert len(record.moves) == 1
    assert "limit 0.1 s" in record.reason


def test_a_player_stopped_by_a_hard_limit_loses_by_hang(game):
    class Hung(Player):
        def choose(self, state, limits=None):
            raise PlayerHung("hung stopped by the hard limit of 1 s per move")

    record = play_game(game, [RandomPlayer(seed=1), Hung("hung")])
    assert (record.end, record.winner) == (End.HANG, 0) and record.forfeited
    assert record.reason == "hung stopped by the hard limit of 1 s per move"


def test_a_short_overrun_inside_the_tolerance_is_allowed(game):
    players = [Sleeper(0.0), Sleeper(0.12)]
    record = play_game(game, players, time_limit=0.1, tolerance=0.3, max_moves=2)
    assert record.end is End.INTERRUPTED and len(record.moves) == 2
    assert (record.result, record.reason) == ("none", "stopped after 2 moves")


def test_players_cannot_corrupt_the_referees_position(game):
    record = play_game(game, [Vandal("vandal"), Vandal("vandal 2")])
    # both play column d (first legal in the search order) until it fills
    final = record.replay()
    assert final.history == [game.parse_move(m) for m in record.moves]


def test_continuing_a_record_keeps_its_moves(game):
    earlier = GameRecord(game="connect4", moves=["d", "c"], times=[0.5, 0.5])
    record = play_game(game, [RandomPlayer(seed=1), RandomPlayer(seed=2)], start=earlier)
    assert record.moves[:2] == ["d", "c"] and record.times[:2] == [0.5, 0.5]
    assert record.replay().is_over()


def test_starting_from_a_position_records_it(game):
    start = game.replay(["d", "d"])
    record = play_game(game, [RandomPlayer(seed=4), RandomPlayer(seed=5)], start=start)
    assert record.start == "d d"
    assert record.replay().history[:2] == [3, 3]


def test_on_move_sees_every_move(game):
    seen = []
    record = play_game(
        game,
        [RandomPlayer(seed=1), RandomPlayer(seed=2)],
        on_move=lambda state, move, player: seen.append(game.format_move(move)),
    )
    assert seen == record.moves


def test_match_alternates_colours_and_adds_up(game):
    summary = play_match(game, "random", "random", games=6, seed=11, opening_plies=2)
    assert summary.games == 6
    assert summary.wins + summary.draws + summary.losses == 6
    a = summary.names[0]
    assert [r.players.index(a) for r in summary.records] == [0, 1, 0, 1, 0, 1]
    # each pair of games starts from the same opening
    assert summary.records[0].start == summary.records[1].start
    assert 0.0 <= summary.score_percent <= 100.0
    assert f"{summary.wins} wins" in summary.format()


def test_match_is_reproducible_for_a_seed(game):
    one = play_match(game, "random", "random", games=4, seed=3)
    two = play_match(game, "random", "random", games=4, seed=3)
    assert [r.moves for r in one.records] == [r.moves for r in two.records]


def test_match_counts_forfeits(game):
    summary = play_match(game, Crasher("crasher"), "random", games=2, seed=1)
    assert summary.losses == 2 and summary.forfeits == {End.CRASH: 2}
    assert "forfeits: 2 crash" in summary.format()


def test_a_match_counts_games_stopped_at_max_moves_as_unfinished_not_forfeits(game):
    summary = play_match(game, "random", "random", games=2, seed=1, max_moves=2)
    assert summary.unfinished == 2 and not summary.forfeits
    assert "forfeits" not in summary.format()


def test_numpy_integers_are_moves(game):
    import numpy as np

    class NumpyPlayer(Player):
        def choose(self, state, limits=None):
            return np.int64(state.legal_moves()[0])

    record = play_game(game, [NumpyPlayer("np"), NumpyPlayer("np2")])
    assert record.end is End.RULES
    assert isinstance(record.replay().history[0], int)


def test_a_fault_a_player_reports_is_its_forfeit_with_that_end(game):
    from boardgames.errors import PlayerFault

    class Garbled(Player):
        def choose(self, state, limits=None):
            raise PlayerFault("malformed", "answered 'banana'")

    record = play_game(game, [RandomPlayer(seed=1), Garbled("garbled")])
    assert (record.end, record.winner) == (End.MALFORMED, 0)
    assert record.reason == "garbled: answered 'banana'"
