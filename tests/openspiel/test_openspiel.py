"""OpenSpiel both ways: every game (and the Connect Four plugin) registered as
a pyspiel game passes OpenSpiel's own checks and is played to the end by its
MCTS bot; OpenSpiel's games are played, counted and solved by the library."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from click.testing import CliRunner

from support.extras import require

pyspiel = require("pyspiel")

import connect_four  # noqa: E402,F401  (registers connect4)
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402

from boardgames.ai import make_player  # noqa: E402
from boardgames.cli import main  # noqa: E402
from boardgames.errors import NotationError, OptionError, UnknownNameError  # noqa: E402
from boardgames.game import perft  # noqa: E402
from boardgames.openspiel.registration import register, short_name  # noqa: E402
from boardgames.planes import MovePlanes  # noqa: E402
from boardgames.registry import game_names, game_planes, get_game  # noqa: E402

#: Every game with small parameters.
CASES = {
    "andantino": {},
    "squatter": {"size": 4},
    "hadron": {"rows": 4, "cols": 4},
    "hexifence": {"size": 2},
    "dots": {"rows": 2, "cols": 2},
    "connect4": {},
}
NAMES = list(CASES)


@pytest.fixture(scope="module", autouse=True)
def _registered():
    register()


def spiel(name):
    return pyspiel.load_game(short_name(name), CASES[name])


def test_every_declared_game_is_registered():
    names = register()
    assert {short_name(n) for n in NAMES} <= set(names)
    assert set(names) <= set(pyspiel.registered_names())
    game = pyspiel.load_game("boardgames_squatter")
    assert game.get_parameters() == {"size": 6} and game.num_distinct_actions() == 36


@pytest.mark.parametrize("name", NAMES)
def test_random_simulation_test_with_serialisation(name):
    pyspiel.random_sim_test(spiel(name), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_game_and_state_round_trips(name):
    game = spiel(name)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(3):
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    assert state2.history() == state.history()
    state3 = pickle.loads(pickle.dumps(state))
    assert str(state3) == str(state) and state3.history() == state.history()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(state.history()) == 3  # the clone is independent


@pytest.mark.parametrize("name", NAMES)
def test_tensors_are_the_games_planes(name):
    game = spiel(name)
    library = get_game(name, **CASES[name])
    planes = game_planes(library)
    assert not isinstance(planes, MovePlanes)
    assert game.observation_tensor_shape() == list(planes.full_shape)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[-1])
    position = library.replay([state.history()[0]])
    for player in (0, 1):
        expected = planes.encode(position, player).astype(np.float32).ravel()
        assert np.array_equal(np.array(state.observation_tensor(player)), expected)
        assert np.array_equal(np.array(state.information_state_tensor(player)), expected)
    assert state.information_state_string(0) == str(state.history()[0])
    assert state.legal_actions() == sorted(position.legal_moves())


@pytest.mark.parametrize("name", NAMES)
def test_mcts_bots_play_a_full_game(name):
    game = spiel(name)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 1.4, 8, evaluator, random_state=rng) for _ in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


# --- OpenSpiel's games played here ----------------------------------------------------------


def count(state, depth: int) -> tuple[int, int]:
    """(complete games from `state`, each counted once whatever its length;
    sequences of exactly `depth` moves, as perft counts them), in one walk."""
    if state.is_over():
        return 1, int(depth == 0)
    if depth == 0:
        return 0, 1
    finished = sequences = 0
    for move in state.legal_moves():
        state.make(move)
        games, lines = count(state, depth - 1)
        state.undo()
        finished += games
        sequences += lines
    return finished, sequences


def test_tic_tac_toe_counts():
    game = get_game("openspiel:tic_tac_toe")
    state = game.new_state()
    # nine moves fill the board: perft(9) counts those games, not the shorter ones
    assert count(state, 9) == (255_168, 127_872)
    assert perft(state, 9) == 127_872 and perft(state, 9, leaves=True) == 255_168
    assert state.history == [] and state.legal_moves() == list(range(9))
    state.play("4")
    state.play("0")
    assert perft(state, 7) == count(state, 7)[1]


def test_connect_four_perft_counts_agree_with_ours():
    theirs = get_game("openspiel:connect_four").new_state()
    ours = get_game("connect4").new_state()
    for depth in range(1, 6):
        assert perft(theirs, depth) == perft(ours, depth), depth


def test_moves_by_number_or_openspiel_text():
    game = get_game("openspiel:tic_tac_toe")
    state = game.new_state()
    assert state.play("x(1,1)") == 4 and state.play("0") == 0
    assert game.format_move(4) == "4"
    before = state.to_text()
    for bad in ("9", "x(3,3)", "centre"):
        with pytest.raises(NotationError):
            state.play(bad)
    assert state.to_text() == before
    state.undo()
    assert state.history == [4] and state.to_move == 1


def test_games_the_library_cannot_play_are_refused():
    with pytest.raises(OptionError, match="chance"):
        get_game("openspiel:backgammon")
    with pytest.raises(OptionError, match="no game"):
        get_game("openspiel:no_such_game")
    with pytest.raises(UnknownNameError):
        get_game("nosuchfamily:tic_tac_toe")
    # a refused name leaves nothing behind (any text could otherwise grow the registry)
    assert not {"openspiel:backgammon", "openspiel:no_such_game"} & set(game_names())
    get_game("openspiel:tic_tac_toe")
    assert "openspiel:tic_tac_toe" in game_names()


def test_solve_and_perft_on_the_command_line():
    runner = CliRunner()
    result = runner.invoke(main, ["perft", "openspiel:tic_tac_toe", "4"])
    assert result.exit_code == 0 and "perft(4) = 3024" in result.output
    # X can first win at ply 5, in 1,440 ways: those games are leaves of the tree cut at 6
    # (13,680 unfinished five-move positions have 4 replies each: 54,720 + 1,440)
    result = runner.invoke(main, ["perft", "openspiel:tic_tac_toe", "6", "--leaves"])
    assert result.exit_code == 0 and "perft(6) = 56160" in result.output, result.output
    plain = runner.invoke(main, ["perft", "openspiel:tic_tac_toe", "6"])
    assert "perft(6) = 54720" in plain.output
    result = runner.invoke(main, ["solve", "openspiel:tic_tac_toe"])
    assert result.exit_code == 0 and "winner: draw" in result.output


def test_play_on_the_command_line():
    result = CliRunner().invoke(
        main, ["play", "openspiel:tic_tac_toe", "--ai", "alphabeta", "--ai2", "alphabeta"]
    )
    assert result.exit_code == 0, result.output
    assert "draw" in result.output


def never_loses(state, ai, side) -> bool:
    """`ai` playing `side` loses no game against any sequence of replies."""
    if state.is_over():
        return state.winner() in (side, None)
    moves = [ai.choose(state)] if state.to_move == side else state.legal_moves()
    for move in moves:
        state.make(move)
        safe = never_loses(state, ai, side)
        state.undo()
        if not safe:
            return False
    return True


@pytest.mark.parametrize("side", [0, 1])
def test_alphabeta_never_loses_tic_tac_toe(side):
    game = get_game("openspiel:tic_tac_toe")
    assert never_loses(game.new_state(), make_player(game, "alphabeta"), side)


def test_the_web_app_offers_and_plays_an_openspiel_game():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient

    from boardgames.web.app import create_app

    with TestClient(create_app(games=("openspiel:connect_four",))) as client:
        names = [g["name"] for g in client.get("/api/catalog").json()["games"]]
        assert "openspiel:connect_four" in names
        body = {"game": "openspiel:connect_four", "options": {}, "sides": [{}, {}]}
        snap = client.post("/api/sessions", json=body).json()
        after = client.post(f"/api/sessions/{snap['id']}/move", json={"move": "3"}).json()
        assert [m["text"] for m in after["moves"]] == ["3"] and after["to_move"] == 1


def test_web_refuses_an_unknown_family_member():
    result = CliRunner().invoke(main, ["web", "--port", "0", "--game", "openspiel:nonsense"])
    assert result.exit_code == 2 and "error: OpenSpiel has no game" in result.output
