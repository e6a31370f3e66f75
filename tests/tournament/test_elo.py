"""Elo by maximum likelihood, checked against tables whose answer is known by hand."""

import math

import pytest

from boardgames.tournament.elo import K, expected_score, fit_elo

LOG3 = 400 * math.log10(3)  # the Elo difference of a 3:1 score (190.85)
Z95 = 1.959963984540054


def test_two_players_three_to_one():
    # A scores 3/4 against B: the likelihood peaks where expected_score(d) = 3/4.
    fit = fit_elo([[0, 3], [1, 0]], prior_draws=0)
    assert fit.ratings[0] - fit.ratings[1] == pytest.approx(LOG3)
    assert sum(fit.ratings) == pytest.approx(0, abs=1e-9)
    assert expected_score(LOG3) == pytest.approx(0.75)


def test_interval_from_fisher_information():
    # Fisher information of the difference: n * K^2 * p * (1 - p) = 4 * K^2 * 3/16.
    fit = fit_elo([[0, 3], [1, 0]], prior_draws=0, anchor=1)
    sd = 1 / math.sqrt(4 * K * K * 0.75 * 0.25)
    assert fit.ratings == pytest.approx([LOG3, 0.0])
    assert fit.errors[0] == pytest.approx(Z95 * sd)
    assert fit.errors[1] == 0.0
    low, high = fit.interval(0)
    assert (low, high) == pytest.approx((LOG3 - Z95 * sd, LOG3 + Z95 * sd))
    # Around the mean, each player carries half of the difference's variance.
    centred = fit_elo([[0, 3], [1, 0]], prior_draws=0)
    assert centred.errors[0] == pytest.approx(Z95 * sd / 2)


def test_three_players_with_consistent_odds():
    # Odds 3 (A-B), 3 (B-C) and 9 (A-C) fit Bradley-Terry exactly, so the
    # maximum-likelihood ratings are 0, 190.85 and 381.70 above C.
    wins = [[0, 3, 9], [1, 0, 3], [1, 1, 0]]
    fit = fit_elo(wins, prior_draws=0, anchor=2)
    assert fit.ratings == pytest.approx([2 * LOG3, LOG3, 0.0])


def test_draws_count_as_half_points():
    # 2 wins and 2 draws in 4 games is a 3/4 score, like 3 wins and 1 loss.
    fit = fit_elo([[0, 2], [0, 0]], [[0, 2], [2, 0]], prior_draws=0, anchor=1)
    assert fit.ratings[0] == pytest.approx(LOG3)


def test_prior_keeps_a_perfect_score_finite():
    with pytest.raises(ValueError, match="diverge"):
        fit_elo([[0, 4], [0, 0]], prior_draws=0)
    fit = fit_elo([[0, 4], [0, 0]], anchor=1)
    # One virtual draw: 4.5 points out of 5, odds 9.
    assert fit.ratings[0] == pytest.approx(400 * math.log10(9))
    assert math.isfinite(fit.errors[0])


def test_player_without_games_is_unrated():
    fit = fit_elo([[0, 3, 0], [1, 0, 0], [0, 0, 0]], prior_draws=0)
    assert fit.ratings[2] == 0.0
    assert math.isnan(fit.errors[2])
    assert fit.ratings[0] - fit.ratings[1] == pytest.approx(LOG3)
    assert fit.ratings[0] + fit.ratings[1] == pytest.approx(0, abs=1e-9)


def test_equal_players_are_level():
    fit = fit_elo([[0, 5, 5], [5, 0, 5], [5, 5, 0]], anchor=0)
    assert fit.ratings == pytest.approx([0, 0, 0], abs=1e-9)


@pytest.mark.parametrize(
    ("wins", "draws", "message"),
    [
        ([[0, 1]], None, "square"),
        ([[0, 1], [1, 0]], [[0, 1], [0, 0]], "symmetric"),
        ([[1, 0], [0, 0]], None, "diagonal"),
        ([[0, -1], [0, 0]], None, "non-negative"),
    ],
)
def test_malformed_tables(wins, draws, message):
    with pytest.raises(ValueError, match=message):
        fit_elo(wins, draws)
