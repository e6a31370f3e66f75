"""Players: random, search and the scripted human at the terminal."""

from __future__ import annotations

import connect_four  # noqa: F401  (registers connect4)
import pytest

from boardgames.ai import make_player
from boardgames.budget import Limits
from boardgames.errors import GameOverError, IllegalMoveError, OptionError
from boardgames.game import End
from boardgames.match.play import play_game
from boardgames.match.records import GameRecord
from boardgames.players import (
    HumanPlayer,
    Player,
    QuitRequest,
    RandomPlayer,
    SaveRequest,
    SearchPlayer,
    UndoRequest,
    time_budget,
)
from boardgames.registry import get_game


@pytest.fixture
def game():
    return get_game("connect4")


def scripted(lines):
    """An `input` replacement that returns `lines` one by one, then EOF."""
    feed = iter(lines)
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    read.prompts = prompts
    return read


class FakeEngine:
    """Records the limits it is given and answers with the first legal move
    (the `Engine` protocol: `search(state, limits)`)."""

    def __init__(self):
        self.calls = []

    def search(self, state, limits):
        self.calls.append({"depth": limits.depth, "time": limits.time, "nodes": limits.nodes})
        state.make(state.legal_moves()[0])  # a careless engine: the copy protects the caller

        class Result:
            move = state.history[-1]

        return Result()


def test_random_player_is_reproducible_and_legal(game):
    state = game.new_state()
    a, b = RandomPlayer(seed=5), RandomPlayer(seed=5)
    for _ in range(10):
        move = a.choose(state)
        assert move == b.choose(state)
        assert move in state.legal_moves()
        state.make(move)


def test_random_player_refuses_finished_game(game):
    state = game.replay(["a", "b", "a", "b", "a", "b", "a"])
    with pytest.raises(GameOverError):
        RandomPlayer().choose(state)


def test_a_finished_game_says_the_game_is_over(game):
    """It says so: not "illegal move:  (the game is over)"."""
    state = game.replay(["a", "b", "a", "b", "a", "b", "a"])
    for player in (RandomPlayer(), SearchPlayer(FakeEngine(), depth=1)):
        with pytest.raises(GameOverError) as error:
            player.choose(state)
        assert str(error.value) == "the game is over (red won)"
    assert isinstance(error.value, IllegalMoveError)  # still caught as one
    assert str(GameOverError("genmove")) == "the game is over"
    assert GameOverError("genmove").move == "genmove"


@pytest.mark.parametrize("name", ["hexifence", "dots"])
def test_the_chain_player_reports_what_it_did(name):
    """The HexiFence/dots default reports its last search (`last_result`), so
    bench does not show depth 0, nodes 0."""
    game = get_game(name)
    player = make_player(game, "default", seed=1)
    positions = game.benchmark_positions()
    state = positions["loony"]
    move = player.choose(state, Limits(time=2.0))
    result = player.last_result
    assert result.move == move and result.algorithm == "solve" and result.completed
    assert result.depth == state.n_empty and result.nodes > 0 and result.nps > 0
    state = positions["start"]
    move = player.choose(state, Limits(time=0.2))
    result = player.last_result
    # Whatever it did, it says so in the documented words (ai/hexifence/default.py).
    done = ("solve", "book", "proven", "model", "open", "lost", "capture", "random", "opening")
    assert result.move == move and result.algorithm in done
    over = state.copy()
    while not over.is_over():
        over.make(over.legal_moves()[0])
    with pytest.raises(GameOverError, match="the game is over"):
        player.choose(over)


def test_search_player_never_changes_the_state_and_respects_the_limit(game):
    engine = FakeEngine()
    player = SearchPlayer(engine, time=5.0)
    state = game.replay(["d"])
    before = (list(state.history), list(state.hashes), state.to_move)
    move = player.choose(state, Limits(time=1.0))
    assert (list(state.history), list(state.hashes), state.to_move) == before
    assert move in state.legal_moves()
    assert engine.calls[-1]["time"] < 1.0 * 0.9
    # own limit smaller than the per-move limit wins
    SearchPlayer(engine, time=0.2).choose(state, Limits(time=10.0))
    assert engine.calls[-1]["time"] == 0.2
    # no limit at all: a default time, never an endless search
    SearchPlayer(engine).choose(state)
    assert engine.calls[-1]["time"] is not None


def test_search_player_takes_one_limits_value(game):
    engine = FakeEngine()
    player = SearchPlayer(engine, limits=Limits(depth=3, nodes=500))
    assert (player.depth, player.time, player.nodes) == (3, None, 500)
    player.choose(game.new_state())
    assert engine.calls[-1] == {"depth": 3, "time": None, "nodes": 500}
    player.choose(game.new_state(), Limits(time=1.0))  # a per-move limit adds a time
    assert engine.calls[-1]["depth"] == 3 and 0 < engine.calls[-1]["time"] < 0.9
    player.depth = 5  # one limit at a time, checked
    assert player.limits == Limits(5, None, 500)
    with pytest.raises(OptionError):
        player.depth = 0
    with pytest.raises(OptionError, match="not both"):
        SearchPlayer(engine, limits=Limits(depth=3), time=1.0)


@pytest.mark.parametrize("limit", [0.1, 0.5, 1.0, 5.0])
def test_time_budget_leaves_room_for_the_search_overrun(limit):
    budget = time_budget(None, limit)
    # the search may overrun by 10% + 50 ms: it must still fit in the limit
    assert 0 < budget * 1.1 + 0.05 <= limit


@pytest.mark.parametrize("bad", [{"depth": 0}, {"time": -1}, {"nodes": "many"}, {"depth": 2.5}])
def test_search_player_rejects_bad_limits(bad):
    with pytest.raises(OptionError):
        SearchPlayer(FakeEngine(), **bad)


def test_human_reprompts_after_bad_and_illegal_input(game):
    state = game.replay(["a", "a", "a", "a", "a", "a"])  # column a is full
    out = []
    read = scripted(["", "zz", "a", "help", "moves", "c"])
    move = HumanPlayer(input=read, output=out.append).choose(state)
    assert move == game.parse_move("c")
    assert any("cannot parse 'zz'" in line for line in out)
    assert any(line == "illegal move: a (column full)" for line in out)
    assert any("undo" in line and "save" in line for line in out)  # help text
    assert "b c d e f g" in out
    assert all(p == "red to move> " for p in read.prompts)


def test_human_commands_raise_requests(game):
    state = game.new_state()
    with pytest.raises(UndoRequest):
        HumanPlayer(input=scripted(["undo"]), output=print).choose(state)
    with pytest.raises(SaveRequest) as saved:
        HumanPlayer(input=scripted(["save game.json"]), output=print).choose(state)
    assert saved.value.path == "game.json"
    with pytest.raises(QuitRequest):
        HumanPlayer(input=scripted(["quit"]), output=print).choose(state)
    with pytest.raises(QuitRequest):
        HumanPlayer(input=scripted([]), output=print).choose(state)  # EOF


def test_human_hint_asks_the_hint_player(game):
    out = []
    human = HumanPlayer(
        input=scripted(["hint", "e"]), output=out.append, hint_player=RandomPlayer(seed=1)
    )
    state = game.new_state()
    assert human.choose(state) == game.parse_move("e")
    assert any(line.startswith("hint: ") for line in out)
    assert state.history == []


class Scripted(Player):
    """An AI that plays a fixed list of moves (notation)."""

    def __init__(self, moves):
        super().__init__("script")
        self.moves = list(moves)

    def choose(self, state, limits=None):
        return state.game.parse_move(self.moves.pop(0))


def test_undo_takes_back_the_human_move_and_the_reply(game):
    out = []
    human = HumanPlayer(input=scripted(["d", "c", "undo", "e", "quit"]), output=out.append)
    record = play_game(game, [human, Scripted(["d", "d", "d"])])
    # d d c d | undo -> d d | e d | quit
    assert record.moves == ["d", "d", "e", "d"]
    assert len(record.times) == 4
    assert record.end is End.INTERRUPTED and record.result == "none"
    assert record.reason == "human quit"
    assert "took back 2 moves" in out


def test_a_human_who_resigns_loses(game):
    human = HumanPlayer(input=scripted(["d", "resign"]), output=lambda text: None)
    record = play_game(game, [Scripted(["c", "c"]), human])
    assert record.moves == ["c", "d", "c"]
    assert (record.end, record.winner, record.result) == (End.RESIGNATION, 0, "red")
    assert record.reason == "human resigned"


def test_undo_with_nothing_to_take_back(game):
    out = []
    human = HumanPlayer(input=scripted(["undo", "quit"]), output=out.append)
    record = play_game(game, [human, Scripted([])])
    assert record.moves == []
    assert "nothing to undo" in out


def test_save_during_play_writes_a_loadable_record(game, tmp_path):
    out = []
    path = tmp_path / "saved.json"
    human = HumanPlayer(input=scripted(["d", f"save {path}", "quit"]), output=out.append)
    play_game(game, [human, Scripted(["c"])])
    assert f"saved to {path}" in out
    saved = GameRecord.load(path)
    assert saved.moves == ["d", "c"] and saved.result == "none"
    assert saved.replay().history == [3, 2]


def test_save_to_a_bad_path_reports_and_continues(game, tmp_path):
    out = []
    bad = tmp_path / "missing-dir" / "x.json"
    human = HumanPlayer(input=scripted([f"save {bad}", "save", "quit"]), output=out.append)
    play_game(game, [human, Scripted([])])
    assert any(line.startswith(f"cannot save to {bad}") for line in out)
    assert "usage: save FILE" in out


# --- named AIs (boardgames/ai/generic.py) ------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphabeta:depth=0", "depth must be a whole number >= 1"),
        ("negascout:time=-1", "time must be a number of seconds > 0"),
        ("minimax:nodes=lots", "nodes must be a whole number"),
        ("alphabeta:eval=nosuch", "unknown evaluator 'nosuch'"),
        ("alphabeta:noise=-2", "noise must be a number >= 0"),
        ("alphabeta:tt=-1", "tt must be a whole number >= 0"),
        ("alphabeta:seed=x", "seed must be a whole number"),
        ("mcts:playout=fast", "playout must be one of random, evaluator"),
        ("random:colour=red", "unknown option(s) colour for AI 'random'"),
        ("random:depth=0", "depth must be"),
        ("alphabeta:depth", "expected key=value"),
    ],
)
def test_bad_ai_options_are_explained(game, spec, message):
    from boardgames.ai import make_player

    with pytest.raises(OptionError) as error:
        make_player(game, spec)
    assert message in str(error.value)


def test_evaluator_options_reach_the_factory(game, monkeypatch):
    pytest.importorskip("boardgames.search")
    from boardgames.ai import make_player
    from boardgames.evaluation import Linear

    made = []

    def factory(weight=1.0):
        made.append(weight)
        return Linear({connect_four.centre: weight})

    monkeypatch.setattr(game, "evaluators", lambda: {"default": factory})
    player = make_player(game, "alphabeta:depth=1,weight=2.5")
    assert made == [2.5] and player.name == "alphabeta:depth=1,weight=2.5"
    with pytest.raises(OptionError) as error:
        make_player(game, "alphabeta:wieght=2")
    assert "unknown option(s) wieght for evaluator 'default'" in str(error.value)
    assert "evaluator options: weight" in str(error.value)


@pytest.mark.parametrize("name", ["minimax", "alphabeta", "negascout", "default", "mcts"])
def test_every_generic_ai_plays_a_legal_move(game, name):
    pytest.importorskip("boardgames.search")
    from boardgames.ai import make_player

    state = game.replay(["d", "d", "c"])
    options = "nodes=300" if name == "mcts" else "depth=2"
    player = make_player(game, f"{name}:{options},seed=1")
    move = player.choose(state)
    assert move in state.legal_moves() and state.history == [3, 3, 2]
    assert player.last_result is not None and player.last_result.move == move


def test_search_player_blocks_an_immediate_threat(game):
    pytest.importorskip("boardgames.search")
    from boardgames.ai import make_player

    # red threatens to complete column a; yellow must block it
    state = game.replay(["a", "b", "a", "b", "a"])
    for name in ("minimax", "alphabeta", "negascout"):
        assert make_player(game, f"{name}:depth=2").choose(state) == 0


def test_ctrl_c_at_the_prompt_quits_cleanly(game):
    def interrupted(prompt):
        raise KeyboardInterrupt

    with pytest.raises(QuitRequest):
        HumanPlayer(input=interrupted, output=lambda text: None).choose(game.new_state())


def test_an_evaluator_factory_s_own_checks_are_option_errors_and_its_bugs_surface(
    game, monkeypatch
):
    def checked(weight=1.0):
        if weight < 0:
            raise ValueError("weight must be >= 0")
        return lambda state: weight

    def buggy(weight=1.0):
        return len(weight)  # a bug in the factory: len() of a float

    monkeypatch.setattr(game, "evaluators", lambda: {"checked": checked, "buggy": buggy})
    with pytest.raises(OptionError, match="bad options for evaluator 'checked': weight must"):
        game.evaluator("checked", weight=-1)
    with pytest.raises(TypeError, match="has no len"):
        game.evaluator("buggy", weight=2.0)
