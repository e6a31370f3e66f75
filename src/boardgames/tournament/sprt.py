"""Sequential probability ratio tests (SPRT) between two players, on game pairs.

A fixed-count match cannot tell a 90% player from a 95% one after 20 games,
and plays on long after a clear difference is plain.  An SPRT plays until
the evidence is enough: it tests H0 "the tested player is `elo0` stronger"
against H1 "it is `elo1` stronger" (logistic Elo) and stops as soon as the
log-likelihood ratio (LLR) of the results leaves the interval

    lower = log(beta / (1 - alpha)),   upper = log((1 - beta) / alpha),

accepting H1 above it and H0 below it: the chance of accepting H1 when H0
holds is about `alpha`, of accepting H0 when H1 holds about `beta`.

Games are played in pairs from the same opening with the colours swapped,
which cancels most of an opening's bias, and a pair is scored as a whole:
0, 1/2, 1, 3/2 or 2 points for the tested player.  The counts of those five
outcomes are the *pentanomial* results (the model the Stockfish testing
framework uses).  The two games of a pair are not independent (both start
from one opening), so counting pairs rather than games is what makes the
statistics right.

The LLR is the generalized SPRT's: for each hypothesis, the distribution of
pair scores of the largest likelihood among those whose mean is the
hypothesis's expected score (Michel Van den Bergh's construction), and the
log of the ratio of the results' likelihoods under the two.  A category
never seen gets a tiny pseudo-count (`PSEUDO_COUNT`), so the first pairs
(all wins, say) give a finite LLR.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from ..errors import OptionError, quote
from ..options import check_real, parse_pairs

#: A pair's points for the tested player, halved (its mean score per game).
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: Added to every count when the LLR is computed (see the module docstring).
PSEUDO_COUNT = 1e-3
#: The Elo differences an SPRT may test (beyond, the scores are 0 or 1 to many digits).
MAX_ELO = 1000.0
#: The most games an SPRT match plays by default (`sprt_match`).
MAX_GAMES = 1000
#: Random plies that start each pair of an SPRT match when no opening is
#: given: enough for players that play alike from one position to play
#: many different games.
OPENING_PLIES = 4


def expected_score(elo: float) -> float:
    """The expected points per game of a player `elo` (logistic Elo) stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_of(score: float) -> float:
    """The logistic Elo difference of a mean score per game in (0, 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class Sprt:
    """The test: H0 elo = `elo0` against H1 elo = `elo1`, with error rates `alpha`
    (accepting H1 under H0) and `beta` (accepting H0 under H1)."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            check_real(name, getattr(self, name), -MAX_ELO, MAX_ELO)
        for name in ("alpha", "beta"):
            value = check_real(name, getattr(self, name), 0, 0.5)
            if not 0 < value < 0.5:
                raise OptionError(f"{name} must be a probability between 0 and 0.5, not {value:g}")
        if self.elo1 <= self.elo0:
            raise OptionError(f"elo1 must be above elo0 ({self.elo1:g} <= {self.elo0:g})")

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """From "elo0=0,elo1=10[,alpha=0.05,beta=0.05]" (the CLI's --sprt)."""
        if not isinstance(text, str) or not text.strip():
            raise OptionError("--sprt takes elo0=E0,elo1=E1[,alpha=A,beta=B]")
        items = [item.strip() for item in text.split(",") if item.strip()]
        given = parse_pairs(items, "SPRT option")
        unknown = sorted(set(given) - {"elo0", "elo1", "alpha", "beta"})
        if unknown:
            raise OptionError(
                f"unknown SPRT option(s) {', '.join(unknown)} in {quote(text)}"
                " (options: elo0, elo1, alpha, beta)"
            )
        if "elo0" not in given or "elo1" not in given:
            raise OptionError(
                f"--sprt needs elo0 and elo1, e.g. elo0=0,elo1=10 (got {quote(text)})"
            )
        return cls(**given)

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): the LLR accepts H0 at or below the first, H1 at or above the second."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def to_dict(self) -> dict[str, float]:
        """The test's parameters by name."""
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta}

    def __str__(self) -> str:
        return f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g}"


@dataclass
class Pentanomial:
    """Results of game pairs: how many pairs the tested player scored 0, 1/2, 1,
    3/2 and 2 points in (`counts`, in that order)."""

    counts: list[int] = field(default_factory=lambda: [0] * 5)

    @classmethod
    def of(cls, pair_points: Iterable[float]) -> Pentanomial:
        """From each pair's points for the tested player (0, 0.5, ..., 2)."""
        results = cls()
        for points in pair_points:
            results.add(points)
        return results

    def add(self, points: float) -> None:
        """Count one pair in which the tested player scored `points` (0 to 2 by halves)."""
        index = round(points * 2)
        if not 0 <= index <= 4 or abs(points * 2 - index) > 1e-9:
            raise OptionError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {quote(points)}")
        self.counts[index] += 1

    @property
    def pairs(self) -> int:
        """The number of game pairs counted."""
        return sum(self.counts)

    @property
    def games(self) -> int:
        """The number of games counted (two per pair)."""
        return 2 * self.pairs

    @property
    def score(self) -> float:
        """The tested player's mean points per game (0.5 with no pair)."""
        if not self.pairs:
            return 0.5
        return sum(n * a for n, a in zip(self.counts, PAIR_SCORES)) / self.pairs

    def llr(self, test: Sprt) -> float:
        """The log-likelihood ratio of H1 against H0 for these results (0 with no pair)."""
        if not self.pairs:
            return 0.0
        counts = [n + PSEUDO_COUNT for n in self.counts]
        total = sum(counts)
        observed = [n / total for n in counts]
        h0 = _closest(observed, expected_score(test.elo0))
        h1 = _closest(observed, expected_score(test.elo1))
        return sum(n * math.log(q1 / q0) for n, q0, q1 in zip(self.counts, h0, h1) if n)

    def elo(self, confidence: float = 0.95) -> tuple[float, float, float]:
        """(estimate, low, high): the Elo difference with its confidence interval,
        from the pairs' mean and variance (infinite where the score is 0 or 1)."""
        n = self.pairs
        if not n:
            return 0.0, -math.inf, math.inf
        mean = self.score
        variance = sum(c * (a - mean) ** 2 for c, a in zip(self.counts, PAIR_SCORES)) / n
        half = NormalDist().inv_cdf(0.5 + confidence / 2) * math.sqrt(variance / n)
        return _elo_or_inf(mean), _elo_or_inf(mean - half), _elo_or_inf(mean + half)

    def to_list(self) -> list[int]:
        """The counts of pairs scoring 0, 0.5, 1, 1.5 and 2 points."""
        return list(self.counts)


def _elo_or_inf(score: float) -> float:
    if score == 0.5:
        return 0.0
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return elo_of(score)


def _closest(observed: Sequence[float], mean: float) -> list[float]:
    """The distribution over PAIR_SCORES with mean `mean` that gives the observed
    frequencies (all > 0) the largest likelihood.

    Maximising sum(p_i log q_i) under sum(q_i) = 1 and sum(q_i a_i) = mean
    gives q_i = p_i / (1 + t (a_i - mean)) for the t where the q_i sum to 1,
    that is where g(t) = sum(p_i (a_i - mean) / (1 + t (a_i - mean))) = 0.
    g falls with t, and every q_i stays positive for t strictly between
    -1 / (max a - mean) and 1 / (mean - min a): bisection finds it.
    """
    shifts = [a - mean for a in PAIR_SCORES]
    low = -1.0 / max(shifts)
    high = 1.0 / -min(shifts)

    def g(t: float) -> float:
        return sum(p * d / (1 + t * d) for p, d in zip(observed, shifts))

    # Shrink towards the open ends until g changes sign, then bisect.
    lo, hi = low * (1 - 1e-12), high * (1 - 1e-12)
    for _ in range(200):
        middle = (lo + hi) / 2
        if g(middle) > 0:
            lo = middle
        else:
            hi = middle
        if hi - lo < 1e-15 * max(1.0, abs(middle)):
            break
    t = (lo + hi) / 2
    q = [p / (1 + t * d) for p, d in zip(observed, shifts)]
    total = sum(q)
    return [x / total for x in q]


@dataclass(frozen=True)
class SprtState:
    """Where a test stands: its results, LLR, bounds and verdict."""

    test: Sprt
    results: Pentanomial
    llr: float
    verdict: str | None  #: "H1" (accepted: elo1), "H0" (rejected), None (go on)

    @classmethod
    def of(cls, test: Sprt, results: Pentanomial) -> SprtState:
        """Where `test` stands on `results`: the LLR and the verdict once it
        crosses a bound."""
        llr = results.llr(test)
        lower, upper = test.bounds
        verdict = "H1" if llr >= upper else "H0" if llr <= lower else None
        return cls(test, results, llr, verdict)

    def line(self) -> str:
        """One progress line: games, pentanomial counts, LLR within its bounds, Elo."""
        lower, upper = self.test.bounds
        elo, low, high = self.results.elo()
        return (
            f"games {self.results.games}  pairs {' '.join(map(str, self.results.counts))}"
            f"  LLR {self.llr:+.2f} ({lower:+.2f}, {upper:+.2f})"
            f"  Elo {_signed(elo)} [{_signed(low)}, {_signed(high)}]"
        )

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON data: the test, the counts, the LLR, the bounds, the
        verdict and the Elo estimate."""
        elo, low, high = self.results.elo()
        lower, upper = self.test.bounds
        return {
            "sprt": self.test.to_dict(),
            "pentanomial": self.results.to_list(),
            "games": self.results.games,
            "llr": self.llr,
            "bounds": [lower, upper],
            "verdict": self.verdict,
            "elo": [_finite(elo), _finite(low), _finite(high)],
        }


def _signed(value: float) -> str:
    return f"{value:+.1f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def _finite(value: float) -> float | None:
    return round(value, 2) if math.isfinite(value) else None
