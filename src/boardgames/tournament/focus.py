"""Focused rounds: which games narrow a ladder's widest Elo interval most.

A round robin plays every pair as often as every other, yet a game tells
little about two ratings far apart (between a 95% favourite and its victim
it carries a fifth of the Fisher information of a game between equals), and
an interval is measured from the anchor, so games against the anchor narrow
every interval.  A focused round plays as many games as a round of the round
robin, two at a time (colours swapped), each pair chosen greedily: the one
whose two games narrow the widest intervals among the rated players most (the
sum of the variances, relative to the widest, to the 32nd power: a smooth
stand-in for the widest),
at the ratings fitted so far.

Adding n games to pair (i, j) adds w u u^T to the information matrix, with
u = e_i - e_j and w = n K^2 p (1 - p), so the covariance changes by a rank-one
update (Sherman-Morrison): every candidate pair is tried in O(players), and
the whole choice costs one matrix inverse.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Sequence
from statistics import NormalDist

import numpy as np

from .elo import K

#: Games a pair gets per pick: a colour-swapped pair of games.
PICK = 2
#: The power of the variances (over the widest) summed to rank the pairs: the
#: larger, the nearer to the widest alone (4: 14% more games on the dots ladder).
SHARPNESS = 32
#: More games than this are "out of reach" for `games_to_target`.
MAX_GAMES = 100_000


def covariance(
    ratings: Sequence[float] | np.ndarray, games: np.ndarray, anchor: int | None
) -> np.ndarray:
    """The ratings' covariance from `games[i][j]` games per pair: of the
    differences to `anchor` (its row and column 0), or to the mean (None)."""
    r = np.asarray(ratings, dtype=float)
    p = 1.0 / (1.0 + 10.0 ** (-(r[:, None] - r[None, :]) / 400.0))
    weight = K * K * games * p * (1.0 - p)
    info = np.diag(weight.sum(axis=1)) - weight
    if anchor is None:
        inverse: np.ndarray = np.linalg.pinv(info)
        return inverse
    keep = [i for i in range(len(r)) if i != anchor]
    out: np.ndarray = np.zeros_like(info)
    out[np.ix_(keep, keep)] = np.linalg.pinv(info[np.ix_(keep, keep)])
    return out


class Focus:
    """The greedy choice of pairs, at fixed `ratings` (see the module doc).

    `games` holds the games (with any prior) each pair has played; `rated`
    the players whose interval counts (not the anchor, nor a player who won
    or lost every game); `cap` the most games a pair may reach (None: no
    limit); `pairs` the pairs that may play (default: every pair)."""

    def __init__(
        self,
        ratings: Sequence[float],
        games: np.ndarray,
        *,
        anchor: int | None,
        rated: Collection[int],
        cap: np.ndarray | None = None,
        pairs: Sequence[tuple[int, int]] | None = None,
        confidence: float = 0.95,
    ) -> None:
        r = np.asarray(ratings, dtype=float)
        self.games = np.array(games, dtype=float)
        self.cap = cap
        self.pairs = list(pairs if pairs is not None else itertools.combinations(range(len(r)), 2))
        self.rated = sorted(rated)
        self.z = NormalDist().inv_cdf((1 + confidence) / 2)
        self.cov = covariance(r, self.games, anchor)
        i, j = np.array(self.pairs, dtype=int).reshape(-1, 2).T
        self.i, self.j = i, j
        p = 1.0 / (1.0 + 10.0 ** (-(r[i] - r[j]) / 400.0))
        self.weight = PICK * K * K * p * (1.0 - p)  # per pick of each pair

    def widest(self) -> float:
        """The widest interval's half-width among the rated players (0: none)."""
        if not self.rated:
            return 0.0
        variance = np.diag(self.cov)[self.rated]
        return float(self.z * math.sqrt(max(float(variance.max()), 0.0)))

    def pick(self) -> tuple[int, int] | None:
        """The pair to play next (and plays it here); None when no pair may."""
        open_ = np.ones(len(self.pairs), dtype=bool)
        if self.cap is not None:
            open_ = self.games[self.i, self.j] + PICK <= self.cap[self.i, self.j]
        if not open_.any() or not self.rated:
            return None
        cov = self.cov
        cu = cov[:, self.i] - cov[:, self.j]  # C u for every pair, a column each
        quad = cu[self.i, np.arange(len(self.pairs))] - cu[self.j, np.arange(len(self.pairs))]
        shrink = self.weight / (1.0 + self.weight * quad)
        variance = np.diag(cov)[self.rated, None] - shrink * cu[self.rated] ** 2
        # A smooth stand-in for the widest interval: the widest ones weigh most,
        # and when two are tied, narrowing either still counts.
        scale = max(float(np.diag(cov)[self.rated].max()), 1e-300)
        score = (np.maximum(variance, 0.0) / scale) ** SHARPNESS
        score = score.sum(axis=0)
        score[~open_] = np.inf
        best = int(np.argmin(score))  # ties: the first pair in order
        column, w = cu[:, best], shrink[best]
        self.cov = cov - w * np.outer(column, column)
        a, b = self.pairs[best]
        self.games[a, b] += PICK
        self.games[b, a] += PICK
        return a, b

    def round(self, picks: int) -> list[tuple[int, int]]:
        """`picks` pairs in turn (a pair may come more than once)."""
        chosen = []
        for _ in range(picks):
            pair = self.pick()
            if pair is None:
                break
            chosen.append(pair)
        return chosen

    def games_to_target(self, target: float) -> float:
        """How many more games focused rounds take to bring the widest
        interval to ±`target` (inf past `MAX_GAMES`, or when no pair may play)."""
        added = 0
        while self.widest() > target:
            if added >= MAX_GAMES or self.pick() is None:
                return math.inf
            added += PICK
        return float(added)
