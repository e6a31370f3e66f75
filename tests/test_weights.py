"""Tunable weights: declarations, params files, and every default AI loading its own."""

from __future__ import annotations

import json

import pytest

from boardgames.ai import make_player
from boardgames.errors import BadFileError, OptionError
from boardgames.registry import game_names, get_game
from boardgames.weights import FORMAT, Weight, Weights

DECL = Weights("squatter", "territory", (Weight("a", 1.0, 0.0, 10.0), Weight("b", -2.0, -5.0, 5.0)))


def _tunable_games():
    games = []
    for name in game_names():
        game = get_game(name)
        if game.tunable_weights() is not None:
            games.append(game)
    return games


def test_the_built_in_games_declare_the_weights_of_their_default_evaluators():
    declared = {g.name: g.tunable_weights().evaluator for g in _tunable_games()}
    assert declared == {"andantino": "threats", "hadron": "sums", "squatter": "territory"}


def test_params_round_trip_any_subset(tmp_path):
    path = tmp_path / "p.json"
    DECL.save(path, {"b": 3.5}, method="test")
    assert DECL.load(path) == {"b": 3.5}
    assert DECL.resolve(str(path), {}) == {"a": 1.0, "b": 3.5}
    # An option given next to the file wins over it; None means not given.
    assert DECL.resolve(str(path), {"a": 2, "b": None}) == {"a": 2.0, "b": 3.5}
    data = json.loads(path.read_text())
    assert (data["format"], data["game"], data["evaluator"], data["method"]) == (
        FORMAT, "squatter", "territory", "test")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"weights": {"a": 1}}, "not a params file"),
        ({"format": FORMAT, "game": "squatter", "evaluator": "seed001", "weights": {}},
         "params for the 'seed001' evaluator of 'squatter', not for the territory evaluator"),
        ({"format": FORMAT, "game": "hadron", "evaluator": "territory", "weights": {}},
         "of 'hadron', not for the territory evaluator of squatter"),
        ({"format": FORMAT, "game": "squatter", "evaluator": "territory", "weights": {"c": 1}},
         "unknown weight 'c'"),
        ({"format": FORMAT, "game": "squatter", "evaluator": "territory", "weights": {"a": 11}},
         "a must be a number >= 0 and <= 10"),
        ({"format": FORMAT, "game": "squatter", "evaluator": "territory", "weights": {"a": True}},
         "a must be a number"),
        ({"format": FORMAT, "game": "squatter", "evaluator": "territory", "weights": [1]},
         "must be an object"),
    ],
)
def test_a_bad_params_file_is_refused_in_one_line(tmp_path, data, message):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BadFileError, match=message) as caught:
        DECL.load(path)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)


def test_nan_weights_are_refused_when_read_and_never_written(tmp_path):
    path = tmp_path / "p.json"
    path.write_text('{"format": "boardgames-params", "game": "squatter",'
                    ' "evaluator": "territory", "weights": {"a": NaN}}')
    with pytest.raises(BadFileError, match="a must be a number"):
        DECL.load(path)
    out = tmp_path / "out.json"
    with pytest.raises(OptionError, match="b must be a number"):
        DECL.save(out, {"b": float("nan")})
    assert list(tmp_path.iterdir()) == [path]  # no half-written file


def test_a_declaration_checks_its_defaults_and_names():
    with pytest.raises(ValueError, match="default outside"):
        Weight("a", 20.0, 0.0, 10.0)
    with pytest.raises(ValueError, match="duplicate"):
        Weights("g", "e", (Weight("a", 1, 0, 2), Weight("a", 1, 0, 2)))


def _non_default(weights: Weights) -> dict[str, float]:
    """Every weight moved a quarter of the way to the far end of its range."""
    out = {}
    for w in weights.weights:
        far = w.high if w.high - w.default >= w.default - w.low else w.low
        out[w.name] = w.default + (far - w.default) / 4
    return out


def _positions(game, count=6):
    import random

    rng = random.Random(3)
    state = game.new_state()
    found = []
    while len(found) < count and not state.is_over():
        state.make(rng.choice(state.legal_moves()))
        found.append(state.copy())
    return found


@pytest.mark.parametrize("name", ["andantino", "squatter", "hadron"])
def test_every_default_ai_plays_with_its_own_declared_params(tmp_path, name):
    game = get_game(name)
    weights = game.tunable_weights()
    values = _non_default(weights)
    path = tmp_path / "params.json"
    weights.save(path, values)
    player = make_player(game, f"default:params={path}")
    evaluate = player.engine.evaluator
    expected = weights.build(weights.complete(values))
    hand_set = weights.build(weights.defaults())
    states = _positions(game)
    assert [evaluate(s) for s in states] == [expected(s) for s in states]
    assert [evaluate(s) for s in states] != [hand_set(s) for s in states]
    # The generic AIs load the same file through the evaluator's factory.
    generic = make_player(game, f"alphabeta:eval={weights.evaluator},params={path}")
    assert [generic.engine.evaluator(s) for s in states] == [expected(s) for s in states]


def test_a_params_file_for_another_evaluator_is_refused_by_the_ai(tmp_path):
    path = tmp_path / "params.json"
    get_game("hadron").tunable_weights().save(path, {"up": 30})
    with pytest.raises(BadFileError, match="not for the territory evaluator of squatter"):
        make_player(get_game("squatter"), f"default:params={path}")
    with pytest.raises(OptionError, match="tempo must be a number >= 0 and <= 1000"):
        make_player(get_game("squatter"), "default:tempo=1e9")


def test_an_option_next_to_the_file_wins_over_it_and_the_file_over_the_default(tmp_path):
    path = tmp_path / "params.json"
    game = get_game("squatter")
    game.tunable_weights().save(path, {"fork": 12.5, "tempo": 70})
    player = make_player(game, f"default:params={path},tempo=5")
    weights = player.engine.evaluator.weights
    assert (weights["fork"], weights["tempo"], weights["capture"]) == (12.5, 5, 100)


def test_hadron_default_takes_each_evaluator_s_own_weights_only():
    game = get_game("hadron", rows=5, cols=5)
    assert make_player(game, "default:up=30").engine.evaluator.up == 30
    for spec, message in [
        ("default:w1_open=0.5", "w1_open: Aenigma parameters"),
        ("default:eval=aenigma,up=3", "unit and up are the sums evaluator's"),
        ("default:eval=regions,unit=3", "the regions evaluator takes no parameters"),
    ]:
        with pytest.raises(OptionError, match=message):
            make_player(game, spec)
