"""Elo ratings from a results table, by maximum likelihood.

The model is Bradley-Terry on the Elo scale: player i beats player j with
probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))``.  A draw counts as half a
win for each side.  The ratings maximise the likelihood of the observed
points (Newton's method: the log-likelihood is concave, so it converges in a
handful of steps), and the 95% confidence intervals come from the inverse of
the Fisher information at the optimum.

A player who won (or lost) every game has an infinite maximum-likelihood
rating, which helps nobody.  As in Rémi Coulom's BayesElo, a small prior of
virtual draws is added to every pair that met (one by default), so such a
player gets a large but finite rating with a wide interval.  Pass
``prior_draws=0`` for the plain maximum-likelihood estimate.

Ratings are only defined up to a constant: they are anchored so that one
player (the random player in a tournament) is at 0, or else so that the
mean is 0.  An interval is then the uncertainty of the difference to the
anchor (or to the mean).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

#: d(win probability)/d(rating difference) = K * p * (1 - p) on the Elo scale.
K = math.log(10) / 400
#: Virtual draws added to every pair that met (see the module doc).
PRIOR_DRAWS = 1.0


@dataclass(frozen=True)
class EloFit:
    """Ratings with the half-width of their confidence intervals.

    ``errors[i]`` is NaN for a player who played no game and 0 for the anchor.
    """

    ratings: list[float]
    errors: list[float]
    anchor: int | None
    confidence: float

    def interval(self, player: int) -> tuple[float, float]:
        """The player's rating minus and plus its error."""
        r, e = self.ratings[player], self.errors[player]
        return r - e, r + e


def expected_score(difference: float) -> float:
    """The expected points per game of a player rated `difference` above the opponent."""
    return 1.0 / (1.0 + math.pow(10.0, -difference / 400.0))


def fit_elo(
    wins: Sequence[Sequence[float]],
    draws: Sequence[Sequence[float]] | None = None,
    *,
    anchor: int | None = None,
    prior_draws: float = PRIOR_DRAWS,
    confidence: float = 0.95,
    max_iterations: int = 200,
) -> EloFit:
    """Fit Elo ratings to ``wins[i][j]`` (games i won against j) and the
    symmetric ``draws[i][j]``.

    `anchor` is the index of the player rated 0 (None: mean 0 over the
    players who played).  Raises ValueError on a malformed table, and when
    the ratings diverge (a perfect score with ``prior_draws=0``).
    """
    w = np.asarray(wins, dtype=float)
    n_players = len(w)
    if w.shape != (n_players, n_players):
        raise ValueError(f"wins must be a square table, got shape {w.shape}")
    d = np.zeros_like(w) if draws is None else np.asarray(draws, dtype=float)
    if d.shape != w.shape:
        raise ValueError(f"draws must have the shape of wins {w.shape}, got {d.shape}")
    if not np.allclose(d, d.T):
        raise ValueError("draws must be symmetric")
    if (w < 0).any() or (d < 0).any() or np.diag(w).any() or np.diag(d).any():
        raise ValueError("counts must be non-negative with an empty diagonal")
    if anchor is not None and not 0 <= anchor < n_players:
        raise ValueError(f"anchor {anchor} is not a player index")
    if prior_draws < 0:
        raise ValueError("prior_draws must be >= 0")

    games = w + w.T + d
    met = games > 0
    games = games + prior_draws * met
    points = w + 0.5 * d + 0.5 * prior_draws * met
    played = met.any(axis=1)

    ratings = np.zeros(n_players)
    for _ in range(max_iterations):
        p, info = _probabilities_and_information(ratings, games)
        gradient = K * (points - games * p).sum(axis=1)
        step = np.linalg.pinv(info) @ gradient
        biggest = np.abs(step).max(initial=0.0)
        if biggest > 400:  # damp the first steps from far away; Newton finishes the job
            step *= 400 / biggest
        ratings += step
        if played.any():
            ratings[played] -= ratings[played].mean()
        if biggest < 1e-9:
            break
    else:
        raise ValueError(
            "the ratings diverge (a player won or lost every game); use prior_draws > 0"
        )

    _, info = _probabilities_and_information(ratings, games)
    covariance = np.linalg.pinv(info)
    variance = np.diag(covariance).copy()
    if anchor is not None:
        ratings = ratings - ratings[anchor]
        variance = variance + covariance[anchor, anchor] - 2 * covariance[:, anchor]
        if not played[anchor]:
            variance[:] = np.nan
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    errors = z * np.sqrt(np.maximum(variance, 0.0))
    errors[~played] = np.nan
    if anchor is not None:
        errors[anchor] = 0.0
    return EloFit(
        ratings=[float(r) for r in ratings],
        errors=[float(e) for e in errors],
        anchor=anchor,
        confidence=confidence,
    )


def _probabilities_and_information(
    ratings: np.ndarray, games: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Win probabilities p[i][j] and the Fisher information matrix."""
    difference = ratings[:, None] - ratings[None, :]
    p = 1.0 / (1.0 + 10.0 ** (-difference / 400.0))
    weight = K * K * games * p * (1.0 - p)
    info = np.diag(weight.sum(axis=1)) - weight
    return p, info


def games_for_error(
    ratings: Sequence[float],
    met: Sequence[Sequence[bool]],
    target: float,
    *,
    anchor: int | None = None,
    confidence: float = 0.95,
) -> list[float]:
    """Games per pair each player needs for a `confidence` interval of ±`target` Elo.

    The players are taken to be as strong as `ratings` say, and every pair
    that `met` to play the same number of games n.  The Fisher information
    grows as n, so an interval's half-width shrinks as 1/sqrt(n): with e1
    the half-width at one game per pair, n = (e1 / target) ** 2.  The
    anchor (rated 0 by definition) needs none; a player in no pair, inf.
    """
    if not target > 0:
        raise ValueError("target must be > 0")
    r = np.asarray(ratings, dtype=float)
    games = np.asarray(met, dtype=float)
    if games.shape != (len(r), len(r)):
        raise ValueError("met must be a square table, one row per rating")
    games = np.where(games + games.T > 0, 1.0, 0.0)
    np.fill_diagonal(games, 0.0)
    _, info = _probabilities_and_information(r, games)
    covariance = np.linalg.pinv(info)
    variance = np.diag(covariance).copy()
    if anchor is not None:
        variance = variance + covariance[anchor, anchor] - 2 * covariance[:, anchor]
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    needed = (z * np.sqrt(np.maximum(variance, 0.0)) / target) ** 2
    needed[games.sum(axis=1) == 0] = math.inf
    if anchor is not None:
        needed[anchor] = 0.0
    return [float(n) for n in needed]
