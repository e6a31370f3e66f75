"""Focused rounds: the rank-one covariance updates, the greedy choice, and
the per-pair game counts they write into a tournament's settings."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.errors import BadFileError, OptionError
from boardgames.tournament.elo import fit_elo
from boardgames.tournament.focus import Focus, covariance
from boardgames.tournament.schedule import TournamentSettings, round_robin_tasks

#: The 0.2 s HexiFence ladder's ratings (docs/results/hexifence.md); alphabeta (2) is
#: the anchor and random (7) lost nearly every game.
HEXIFENCE = [117, 106, 0, 0, -47, -159, -436, -727]


def full(n: int, per_pair: float) -> np.ndarray:
    games = np.full((n, n), float(per_pair))
    np.fill_diagonal(games, 0.0)
    return games


@st.composite
def tables(draw):
    n = draw(st.integers(3, 6))
    ratings = draw(st.lists(st.integers(-600, 600), min_size=n, max_size=n))
    games = np.zeros((n, n))
    for i, j in itertools.combinations(range(n), 2):
        games[i, j] = games[j, i] = draw(st.integers(1, 30))
    anchor = draw(st.none() | st.integers(0, n - 1))
    return ratings, games, anchor


@settings(max_examples=60, deadline=None)
@given(tables(), st.integers(1, 12))
def test_the_rank_one_updates_equal_a_fresh_inverse(table, picks):
    ratings, games, anchor = table
    rated = [i for i in range(len(ratings)) if i != anchor]
    focus = Focus(ratings, games, anchor=anchor, rated=rated)
    chosen = focus.round(picks)
    assert len(chosen) == picks
    assert focus.games.sum() == pytest.approx(games.sum() + 4 * picks)
    fresh = covariance(ratings, focus.games, anchor)
    assert np.allclose(focus.cov, fresh, rtol=1e-6, atol=1e-6)


def test_the_widest_interval_is_the_fits():
    wins = [[0, 6, 9], [4, 0, 7], [1, 3, 0]]
    draws = [[0, 2, 0], [2, 0, 1], [0, 1, 0]]
    fit = fit_elo(wins, draws, anchor=0)
    w, d = np.array(wins, float), np.array(draws, float)
    games = w + w.T + d + 1.0 * (w + w.T + d > 0)  # with the fit's prior draws
    focus = Focus(fit.ratings, games, anchor=0, rated=[1, 2])
    assert focus.widest() == pytest.approx(max(fit.errors[1:]))


def test_games_go_where_they_tell_most():
    # b is rated against the anchor a; c is far below both and not rated:
    # games against c tell almost nothing about b.
    focus = Focus([0, 0, -800], full(3, 4), anchor=0, rated=[1])
    assert set(focus.round(5)) == {(0, 1)}
    # Two rated players tied for the widest: both get games.
    focus = Focus([0, 0, 0], full(3, 4), anchor=0, rated=[1, 2])
    assert {pair for pair in focus.round(4)} >= {(0, 1), (0, 2)}


def test_focused_rounds_need_far_fewer_games_than_a_round_robin():
    rated = [0, 1, 3, 4, 5, 6]  # all but the anchor and random
    start = Focus(HEXIFENCE, full(8, 4), anchor=2, rated=rated)
    focus = Focus(HEXIFENCE, full(8, 4), anchor=2, rated=rated)
    more = focus.games_to_target(50)
    assert focus.widest() <= 50 < start.widest()
    per_pair = next(
        n for n in itertools.count(4, 2)
        if Focus(HEXIFENCE, full(8, n), anchor=2, rated=rated).widest() <= 50
    )
    round_robin = (per_pair - 4) * 28
    assert more < 0.6 * round_robin


def test_a_cap_stops_the_picks():
    cap = full(3, 6)
    focus = Focus([0, 0, 0], full(3, 4), anchor=0, rated=[1, 2], cap=cap)
    assert len(focus.round(10)) == 3  # every pair once, then none may play
    assert focus.pick() is None
    assert math.isinf(focus.games_to_target(1))
    assert Focus([0, 0], full(2, 4), anchor=0, rated=[]).widest() == 0


def test_pair_games_add_games_to_chosen_pairs_and_survive_the_manifest():
    made = TournamentSettings(
        game="connect4", params={}, players=["random", "alphabeta", "negascout"],
        games_per_pair=2, pair_games={(1, 0): 5, (1, 2): 1},
    )
    assert made.pair_games == {(0, 1): 5, (1, 2): 1}
    assert [made.games_for(p) for p in made.pair_list] == [5, 2, 2]
    assert made.planned == 9
    tasks = round_robin_tasks(made)
    assert sorted(t.key for t in tasks if t.pair == (0, 1)) == [(0, 1, k) for k in range(5)]
    assert len(tasks) == 9 and len({t.key for t in tasks}) == 9
    back = TournamentSettings.from_dict(made.to_dict(), "m.json")
    assert back == made
    with pytest.raises(OptionError, match="not a pair"):
        TournamentSettings(game="connect4", params={}, players=["a", "b"], pair_games={(0, 2): 4})
    with pytest.raises(OptionError, match="pair_games"):
        TournamentSettings(game="connect4", params={}, players=["a", "b"], pair_games={(0, 1): 0})
    data = made.to_dict()
    data["pair_games"] = [[0, 1]]
    with pytest.raises(BadFileError, match="wrong type"):
        TournamentSettings.from_dict(data, "m.json")
    data["pair_games"] = [[0, 1, -3]]
    with pytest.raises(BadFileError, match="m.json"):
        TournamentSettings.from_dict(data, "m.json")
