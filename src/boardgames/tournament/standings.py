"""A tournament's results: the table, the cross table and the Elo ratings.

`TournamentResult` holds the games (sorted by pair and index) and says what
they mean: wins and draws per pair, maximum-likelihood Elo ratings with 95%
intervals (`tournament.elo`), the standings as text (`format`) or as JSON
(`to_dict`, the body of a tournament directory's summary.json).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..game import End
from .elo import EloFit, fit_elo, games_for_error
from .tasks import GameResult, record_name


@dataclass(frozen=True)
class Standing:
    """One player's line in the results table."""

    player: int
    label: str
    games: int
    wins: int
    draws: int
    losses: int
    elo: float
    elo_error: float

    @property
    def points(self) -> float:
        """Wins plus half the draws."""
        return self.wins + 0.5 * self.draws

    @property
    def score_percent(self) -> float:
        """Points as a percentage of games played (NaN with none)."""
        return 100.0 * self.points / self.games if self.games else math.nan


@dataclass
class TournamentResult:
    """The games of a tournament (sorted by pair and index) and what they say."""

    labels: list[str]
    results: list[GameResult]
    errors: list[GameResult] = field(default_factory=list)
    planned: int = 0
    #: Player rated 0 (the random player), None for mean 0.
    anchor: int | None = None

    @property
    def complete(self) -> bool:
        """Whether every planned game has finished."""
        return sum(r.finished for r in self.results) == self.planned

    def counts(self) -> tuple[list[list[int]], list[list[int]]]:
        """(`wins[i][j]`, `draws[i][j]`) over the finished games."""
        n = len(self.labels)
        wins = [[0] * n for _ in range(n)]
        draws = [[0] * n for _ in range(n)]
        for result in self.results:
            if not result.finished:
                continue
            i, j = result.pair
            winner = result.winner
            if winner is None:
                draws[i][j] += 1
                draws[j][i] += 1
            else:
                wins[winner][j if winner == i else i] += 1
        return wins, draws

    @property
    def rated_anchor(self) -> int | None:
        """The anchor if it has played (else ratings are relative to the mean)."""
        if self.anchor is None:
            return None
        played = any(r.finished and self.anchor in r.pair for r in self.results)
        return self.anchor if played else None

    def elo(self) -> EloFit:
        """The players' Elo ratings fitted to the results."""
        wins, draws = self.counts()
        return fit_elo(wins, draws, anchor=self.rated_anchor)

    def standings(self) -> list[Standing]:
        """Players from the highest Elo down."""
        wins, draws = self.counts()
        fit = fit_elo(wins, draws, anchor=self.rated_anchor)
        n = len(self.labels)
        rows = []
        for i in range(n):
            w = sum(wins[i])
            d = sum(draws[i])
            lost = sum(wins[j][i] for j in range(n))
            rows.append(
                Standing(i, self.labels[i], w + d + lost, w, d, lost, fit.ratings[i], fit.errors[i])
            )
        return sorted(rows, key=lambda s: (-s.elo, s.player))

    def games_needed(self, target: float = 50.0) -> dict[str, float]:
        """Each player's games per pair for a 95% interval of ±`target` Elo,
        were the players as strong as rated now (`elo.games_for_error`)."""
        wins, draws = self.counts()
        fit = fit_elo(wins, draws, anchor=self.rated_anchor)
        n = len(self.labels)
        met = [[wins[i][j] + wins[j][i] + draws[i][j] > 0 for j in range(n)] for i in range(n)]
        needed = games_for_error(fit.ratings, met, target, anchor=self.rated_anchor)
        return dict(zip(self.labels, needed, strict=True))

    def to_markdown(self) -> str:
        """The standings as a Markdown table (for the games' documentation)."""
        rated = self.rated_anchor
        lines = [
            "| # | AI | games | W / D / L | score | Elo | 95% interval |",
            "|---|---|---|---|---|---|---|",
        ]
        for rank, s in enumerate(self.standings(), start=1):
            if math.isnan(s.elo_error):
                interval = "-"
            elif s.player == rated:
                interval = "anchor"
            else:
                interval = f"{s.elo - s.elo_error:+.0f} .. {s.elo + s.elo_error:+.0f}"
            score = "-" if s.games == 0 else f"{s.score_percent:.1f}%"
            lines.append(
                f"| {rank} | {s.label} | {s.games} | {s.wins} / {s.draws} / {s.losses}"
                f" | {score} | {s.elo:+.0f} | {interval} |"
            )
        return "\n".join(lines)

    def ends(self) -> dict[str, int]:
        """How many games the rules did not end, by kind of end (`End`)."""
        counts: dict[str, int] = {}
        for result in self.results:
            if result.record is not None and result.record.end is not End.RULES:
                end = result.record.end.value
                counts[end] = counts.get(end, 0) + 1
        return dict(sorted(counts.items()))

    def format(self) -> str:
        """The results table as aligned text."""
        rows = self.standings()
        width = max(6, *(len(s.label) for s in rows))
        lines = [
            f"{'#':>2}  {'player':<{width}}  {'games':>5}  {'wins':>4}  {'draws':>5}"
            f"  {'losses':>6}  {'score':>6}  {'elo':>6}  {'95% CI':>15}"
        ]
        for rank, s in enumerate(rows, start=1):
            if math.isnan(s.elo_error):
                interval = "-"
            elif s.player == self.rated_anchor:
                interval = "anchor"
            else:
                interval = f"{s.elo - s.elo_error:+.0f} .. {s.elo + s.elo_error:+.0f}"
            score = "-" if s.games == 0 else f"{s.score_percent:.1f}%"
            lines.append(
                f"{rank:>2}  {s.label:<{width}}  {s.games:>5}  {s.wins:>4}  {s.draws:>5}"
                f"  {s.losses:>6}  {score:>6}  {s.elo:>+6.0f}  {interval:>15}"
            )
        played = sum(r.finished for r in self.results)
        notes = [f"{played} of {self.planned} games played"]
        notes += [f"{n} by {end}" for end, n in self.ends().items()]
        if self.errors:
            notes.append(f"{len(self.errors)} could not be played")
        rated = self.rated_anchor
        anchor = "mean = 0" if rated is None else f"{self.labels[rated]} = 0"
        lines.append(f"{'; '.join(notes)}; Elo by maximum likelihood, {anchor}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: standings, cross table and one line per game."""
        wins, draws = self.counts()
        rated = self.rated_anchor
        return {
            "players": self.labels,
            "planned": self.planned,
            "played": sum(r.finished for r in self.results),
            "anchor": None if rated is None else self.labels[rated],
            "standings": [
                {
                    "player": s.label,
                    "games": s.games,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "score_percent": _json_number(s.score_percent, 2),
                    "elo": round(s.elo, 1),
                    "elo_95": _json_number(s.elo_error, 1),
                }
                for s in self.standings()
            ],
            "wins": wins,
            "draws": draws,
            "ends": self.ends(),
            "games": [
                {
                    "pair": list(r.pair),
                    "index": r.index,
                    "first": self.labels[r.players[0]],
                    "second": self.labels[r.players[1]],
                    "winner": None if r.winner is None else self.labels[r.winner],
                    "end": r.record.end.value if r.record else None,
                    "reason": r.record.reason if r.record else None,
                    "moves": len(r.record.moves) if r.record else 0,
                    "file": record_name(r.pair, r.index),
                }
                for r in self.results
            ],
            "errors": [
                {"pair": list(r.pair), "index": r.index, "error": r.error} for r in self.errors
            ],
        }


def _json_number(value: float, digits: int) -> float | None:
    return None if math.isnan(value) else round(value, digits)
