"""The SPRT's statistics (tournament/sprt.py): bounds, LLR, Elo, and error rates
checked against simulated matches of known strength."""

from __future__ import annotations

import math
import random

import pytest

from boardgames.errors import OptionError
from boardgames.tournament.sprt import (
    Pentanomial,
    Sprt,
    SprtState,
    elo_of,
    expected_score,
)


def test_bounds_follow_alpha_and_beta():
    lower, upper = Sprt(0, 10, alpha=0.05, beta=0.05).bounds
    assert upper == pytest.approx(math.log(0.95 / 0.05)) and lower == pytest.approx(-upper)
    lower, upper = Sprt(0, 10, alpha=0.01, beta=0.1).bounds
    assert lower == pytest.approx(math.log(0.1 / 0.99))
    assert upper == pytest.approx(math.log(0.9 / 0.01))


def test_parse_and_refuse():
    assert Sprt.parse("elo0=0,elo1=10") == Sprt(0, 10)
    assert Sprt.parse(" elo0=-5, elo1=5, alpha=0.1,beta=0.2") == Sprt(-5, 5, 0.1, 0.2)
    for bad, says in [
        ("elo0=0", "needs elo0 and elo1"),
        ("elo0=10,elo1=0", "elo1 must be above elo0"),
        ("elo0=0,elo1=10,alpha=0.7", "alpha must be"),
        ("elo0=0,elo1=10,beta=0", "beta must be a probability"),
        ("elo0=0,elo1=nan", "elo1"),
        ("elo0=0,elo1=10,gamma=1", r"unknown SPRT option\(s\) gamma"),
        ("elo0=0,elo1=5000", "elo1 must be"),
        ("", "--sprt takes"),
    ]:
        with pytest.raises(OptionError, match=says):
            Sprt.parse(bad)


def test_the_llr_leans_to_the_hypothesis_the_results_fit():
    test = Sprt(0, 10)
    equal = Pentanomial([10, 20, 40, 20, 10])
    assert equal.score == 0.5 and equal.llr(test) < 0
    assert equal.elo()[0] == 0.0
    stronger = Pentanomial([5, 20, 40, 25, 10])  # 0.5375 a game: about +26 Elo
    assert stronger.llr(test) > 0
    elo, low, high = stronger.elo()
    assert elo == pytest.approx(elo_of(0.5375)) and low < 10 < elo < high
    # Only wins: finite LLR (pseudo-counts), positive, growing with the pairs.
    assert 0 < Pentanomial([0, 0, 0, 0, 3]).llr(test) < Pentanomial([0, 0, 0, 0, 30]).llr(test)


def test_the_llr_is_the_likelihood_ratio_of_the_closest_distributions():
    """For trinomial-like data the constrained maximum-likelihood distribution has
    the hypothesis's mean, and the LLR is the log of the two likelihoods' ratio."""
    from boardgames.tournament import sprt

    observed = [0.1, 0.2, 0.4, 0.2, 0.1]
    for elo in (-30, 0, 15):
        q = sprt._closest(observed, expected_score(elo))
        assert sum(q) == pytest.approx(1)
        assert sum(x * a for x, a in zip(q, sprt.PAIR_SCORES)) == pytest.approx(
            expected_score(elo)
        )
    counts = [3, 7, 20, 9, 1]
    results = Pentanomial(counts)
    total = sum(counts) + 5 * sprt.PSEUDO_COUNT
    freq = [(n + sprt.PSEUDO_COUNT) / total for n in counts]
    q0, q1 = sprt._closest(freq, expected_score(0)), sprt._closest(freq, expected_score(10))
    expected = sum(n * math.log(b / a) for n, a, b in zip(counts, q0, q1))
    assert results.llr(Sprt(0, 10)) == pytest.approx(expected)


def test_a_pair_scores_by_halves():
    results = Pentanomial()
    for points in (0, 0.5, 1, 1.5, 2, 2):
        results.add(points)
    assert results.counts == [1, 1, 1, 1, 2] and results.games == 12
    for bad in (2.5, 0.3, -0.5):
        with pytest.raises(OptionError):
            results.add(bad)


def _simulated_verdict(rng: random.Random, elo: float, test: Sprt, draws: float) -> str:
    """Play pairs of independent games of a player `elo` stronger (draw rate
    `draws`) until the test decides."""
    win = expected_score(elo) - draws / 2
    results = Pentanomial()
    while True:
        points = 0.0
        for _ in range(2):
            r = rng.random()
            points += 1.0 if r < win else 0.5 if r < win + draws else 0.0
        results.add(points)
        state = SprtState.of(test, results)
        if state.verdict is not None:
            return state.verdict


def test_error_rates_agree_with_alpha_and_beta_on_simulated_matches():
    """150 simulated tests at each true strength: H1 is accepted about alpha of the
    time at elo0, 1 - beta at elo1 and half the time half-way (within three
    standard errors of sampling)."""
    test, runs = Sprt(0, 40), 150
    rng = random.Random(2024)
    rate = {
        elo: sum(_simulated_verdict(rng, elo, test, 0.3) == "H1" for _ in range(runs)) / runs
        for elo in (0, 20, 40)
    }
    error = 3 * math.sqrt(0.05 * 0.95 / runs)
    assert rate[0] <= test.alpha + error
    assert rate[40] >= 1 - test.beta - error
    assert 0.3 <= rate[20] <= 0.7
