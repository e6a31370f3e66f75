"""boardgames.envs: every game (and the Connect Four plugin) passes
PettingZoo's own checks as an AEC environment, and Gymnasium's as one side
against a library AI; the observations, rewards, extra turns and illegal
actions behave as documented."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from support.extras import require
from support.imports import modules_after

require("pettingzoo")
require("gymnasium")

import connect_four  # noqa: E402,F401  (registers connect4)
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, performance_benchmark, render_test, seed_test  # noqa: E402

from boardgames.budget import Limits  # noqa: E402
from boardgames.envs import against, env, raw_env  # noqa: E402
from boardgames.errors import IllegalMoveError, OptionError  # noqa: E402
from boardgames.registry import get_game  # noqa: E402

#: Every game, on small boards (the tests stay fast), and the observation shape there.
CASES = {
    "andantino": ({}, (19, 19, 3)),
    "squatter": ({"size": 4}, (4, 4, 4)),
    "hadron": ({"rows": 4, "cols": 5}, (4, 5, 2)),
    "hexifence": ({"size": 2}, (7, 7, 4)),
    "dots": ({"rows": 2, "cols": 2}, (5, 5, 4)),
    "connect4": ({}, (6, 7, 2)),
}
NAMES = list(CASES)


def make(name, **kwargs):
    return env(name, **CASES[name][0], **kwargs)


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_api_test(name):
    api_test(make(name), num_cycles=300)


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_seed_test(name):
    seed_test(lambda **kw: make(name, **kw), num_cycles=300)


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_render_test(name):
    render_test(lambda **kw: make(name, **kw))


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_performance_benchmark(name, capsys):
    performance_benchmark(make(name))
    out = capsys.readouterr().out
    turns = float(out.split(" turns per second")[0].split()[-1])
    assert turns > 200, out  # every game steps far faster than that


@pytest.mark.parametrize("name", NAMES)
def test_observation_shapes_and_spaces(name):
    aec = make(name)
    aec.reset()
    shape = CASES[name][1]
    game = get_game(name, **CASES[name][0])
    for agent in aec.possible_agents:
        space = aec.observation_space(agent)
        assert space["observation"].shape == shape
        assert space["action_mask"].shape == (game.num_moves,)
        assert aec.action_space(agent).n == game.num_moves


@pytest.mark.parametrize("name", NAMES)
def test_the_planes_are_relative_to_the_observer(name):
    aec = make(name)
    aec.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(6):
        if any(aec.terminations.values()):
            break
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    first = aec.observe("player_0")["observation"]
    second = aec.observe("player_1")["observation"]
    names = aec.unwrapped.planes.names
    assert first.sum() > 0
    for i, plane in enumerate(names):
        if plane.startswith("mine") or plane.startswith("my"):
            j = names.index(plane.replace("mine", "theirs").replace("my", "their"))
            assert (first[..., i] == second[..., j]).all()
            assert (first[..., j] == second[..., i]).all()
        elif not plane.startswith("their"):
            assert (first[..., i] == second[..., i]).all()


def test_squatter_planes_show_the_board():
    aec = env("squatter", size=4)
    aec.reset()
    aec.step(get_game("squatter", size=4).parse_move("B3"))  # white (player_0): row 1, col 2
    mine = aec.observe("player_0")["observation"][..., 0]
    theirs = aec.observe("player_1")["observation"][..., 1]
    assert mine.sum() == 1 and mine[1, 2] == 1 and (theirs == mine).all()


def test_connect_four_planes_put_the_top_row_first():
    aec = env("connect4")
    aec.reset()
    aec.step(3)
    aec.step(3)
    board = aec.observe("player_0")["observation"]
    assert board[5, 3, 0] == 1 and board[4, 3, 1] == 1 and board.sum() == 2


def test_only_the_agent_to_act_has_legal_actions():
    aec = make("squatter")
    aec.reset()
    assert aec.observe("player_0")["action_mask"].sum() == 16
    assert aec.observe("player_1")["action_mask"].sum() == 0


def test_one_box_ends_the_game_with_the_winners_reward():
    aec = env("dots", rows=1, cols=1)  # one box of four edges
    aec.reset()
    agents = []
    for move in range(4):
        agents.append(aec.agent_selection)
        aec.step(move)
    assert agents == ["player_0", "player_1", "player_0", "player_1"]
    assert all(aec.terminations.values())
    assert aec.rewards == {"player_0": -1.0, "player_1": 1.0}


def test_completing_a_box_gives_the_same_agent_the_next_step():
    game = get_game("dots", rows=1, cols=2)
    aec = env("dots", rows=1, cols=2)
    aec.reset()
    box = sorted(game.cell_edges[0])
    agents = []
    for move in box:
        agents.append(aec.agent_selection)
        aec.step(move)
    assert agents == ["player_0", "player_1", "player_0", "player_1"]
    # player_1 completed the box: it acts again, and owns the box
    assert aec.agent_selection == "player_1" and not any(aec.terminations.values())
    assert aec.unwrapped.position.owner[0] == 1
    assert aec.observe("player_1")["observation"][..., 1].sum() == 1  # "my cells"
    assert aec.observe("player_1")["action_mask"].sum() == game.num_moves - 4


def test_the_score_margin_as_the_reward():
    aec = env("dots", rows=2, cols=2, margin=True)
    aec.reset(seed=0)
    rng = np.random.default_rng(0)
    while not any(aec.terminations.values()):
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    a, b = aec.unwrapped.position.scores()
    assert aec.rewards == {"player_0": float(a - b), "player_1": float(b - a)}
    assert abs(a - b) >= 1 or a == b


def test_an_illegal_action_ends_the_game_with_a_penalty():
    aec = make("squatter")
    aec.reset()
    aec.step(5)
    aec.step(5)  # player_1 plays on player_0's stone
    assert all(aec.terminations.values())
    assert aec.rewards["player_1"] == -1 and aec.rewards["player_0"] == 0
    with pytest.raises(IllegalMoveError):  # the raw environment refuses outright
        raw = raw_env("squatter", size=4)
        raw.reset()
        raw.step(5)
        raw.step(5)


def test_max_cycles_truncates():
    aec = make("squatter", max_cycles=3)
    aec.reset()
    for move in (0, 1, 2):
        aec.step(move)
    assert all(aec.truncations.values()) and not any(aec.terminations.values())


def test_reset_from_a_position():
    aec = make("squatter")
    start = get_game("squatter", size=4).replay("A1 D4")
    aec.reset(options={"position": start.to_text()})
    assert aec.unwrapped.position == start
    assert aec.observe("player_0")["observation"][..., :2].sum() == 2


def test_bad_options_are_refused():
    with pytest.raises(OptionError):
        env("squatter", render_mode="video")
    with pytest.raises(OptionError):
        env("squatter", max_cycles=0)
    with pytest.raises(OptionError):
        env("squatter", colour=3)


def test_rgb_image_shows_the_stones():
    aec = make("hadron", render_mode="rgb_array")
    aec.reset()
    empty = aec.render()
    aec.step(0)
    image = aec.render()
    assert image.dtype == np.uint8 and image.shape == empty.shape and image.shape[2] == 3
    assert (image != empty).any()


def test_nothing_of_the_extras_at_start_up():
    heavy = {"pettingzoo", "gymnasium", "pyspiel"}
    for code in ("import boardgames", "import boardgames.envs", "import boardgames.openspiel"):
        assert not {m.split(".")[0] for m in modules_after(code)} & heavy, code


# --- one agent against a library AI -------------------------------------------------------

FAST = Limits(depth=1, nodes=300)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("side", [0, 1, None])
def test_gymnasium_check_env(name, side):
    check_env(against(name, side=side, limits=FAST, **CASES[name][0]), skip_render_check=True)


def test_the_ai_answers_inside_step():
    single = against("squatter", ai="alphabeta", limits=FAST, size=4)
    obs, info = single.reset(seed=0)
    assert info["side"] == 0 and obs["action_mask"].sum() == 16
    obs, reward, terminated, truncated, _ = single.step(0)
    assert obs["observation"][..., 0].sum() == 1 and obs["observation"][..., 1].sum() == 1
    assert obs["action_mask"].sum() == 14 and reward == 0 and not terminated


def test_playing_second_the_ai_has_moved_at_reset():
    single = against("hadron", ai="random:seed=3", side=1, rows=4, cols=4)
    obs, info = single.reset(seed=0)
    assert info["side"] == 1 and obs["observation"][..., 1].sum() == 1


def test_an_illegal_action_loses_the_episode():
    single = against("squatter", ai="random", size=4)
    single.reset(seed=0)
    single.step(0)
    obs, reward, terminated, truncated, info = single.step(0)
    assert reward == -1 and terminated and info == {"illegal": 0}


def test_a_whole_game_ends_with_the_winners_reward():
    single = against("dots", ai="random:seed=1", rows=2, cols=2)
    obs, _ = single.reset(seed=0)
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        obs, reward, terminated, _, info = single.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
    winner = info["outcome"].winner
    assert reward == (0.0 if winner is None else (1.0 if winner == 0 else -1.0))
