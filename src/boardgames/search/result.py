"""What a search returns: the move, its score, and how the search went.

Scores are from the side to move at the root.  A forced win scores
`WIN - plies` (a loss the negative), so a quicker win scores more; any
score beyond `MATE_BOUND` in absolute value is a proven result.

- `SearchResult`: one search (or one depth of `Searcher.iterate`);
- `SearchStats`: the counters of the negamax core (`Core.stats()`);
- `RootBest`: the best root move of the iteration under way (`Core.root_best`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from ..game import Game

#: Score of a won terminal position at the root; a win after `p` plies scores WIN - p.
WIN = 10**9
#: Scores at least this large (in absolute value) come from terminal positions.
MATE_BOUND = WIN // 2


def is_proven(score: float) -> bool:
    """True when `score` comes from a forced game end, not from the evaluator."""
    return abs(score) >= MATE_BOUND


def describe_score(score: float, scored: bool = False) -> str:
    """'+12.5', or 'win in 3' / 'loss in 4' for proven results.

    In scored games a proven score also carries the final margin, which
    blurs the distance, so only 'forced win' / 'forced loss' is shown.
    """
    if abs(score) < MATE_BOUND:
        return f"{score + 0.0:+.6g}"  # + 0.0 turns -0.0 into 0.0
    if not math.isfinite(score):
        return "nan" if score != score else f"{score:+}"  # a broken evaluator's
    word = "win" if score > 0 else "loss"
    if scored:
        return f"forced {word}"
    return f"{word} in {round(WIN - abs(score))}"


class SearchStats(NamedTuple):
    """The counters of one search so far (`Core.stats()`).

    `horizon` counts the places where the depth limit cut the tree: an
    evaluator call, or a TT answer that was itself depth-limited.  A
    search that adds none saw every line it needed to the end of the
    game, so its result holds at any depth.  `deferred` counts the moves
    of a parallel search left for later because another process was
    searching them (search/alphabeta.py).
    """

    nodes: int
    tt_probes: int
    tt_hits: int
    cutoffs: int
    first_move_cutoffs: int
    horizon: int
    deferred: int = 0


class RootBest(NamedTuple):
    """The best root move found so far in one iteration (`Core.root_best`).

    `inside` is True when the move was found inside the search window
    (it beat the previous best), so that an iteration stopped by a limit
    may still play it; `pv` starts with `move`.
    """

    move: int
    score: float
    pv: list[int]
    inside: bool


@dataclass
class SearchResult:
    """The outcome of one `search` call, or of one depth of `Searcher.iterate`.

    `move` is None only when the position has no legal move.  `depth` is the
    last fully searched depth (0 if none finished); `completed` is False when
    a limit stopped the search before it reached the requested depth (or
    the point where deeper search changes nothing).
    `first_move_cutoffs / cutoffs` measures move ordering: close to 1 means
    the best move was almost always tried first.  `deferred` counts the
    moves this process of a parallel search put off because another
    process was searching them; `threads` is the number of processes that
    searched (`nodes` and the other counts are this process's alone).
    """

    move: int | None
    score: float = 0.0
    pv: list[int] = field(default_factory=list)
    depth: int = 0
    nodes: int = 0
    time: float = 0.0
    tt_hits: int = 0
    tt_probes: int = 0
    cutoffs: int = 0
    first_move_cutoffs: int = 0
    completed: bool = True
    algorithm: str = ""
    deferred: int = 0
    threads: int = 1

    @property
    def nps(self) -> float:
        """Nodes per second."""
        return self.nodes / self.time if self.time > 0 else 0.0

    @property
    def tt_hit_rate(self) -> float:
        """The share of table probes that found an entry (0 without probes)."""
        return self.tt_hits / self.tt_probes if self.tt_probes else 0.0

    @property
    def first_move_cutoff_rate(self) -> float:
        """The share of cutoffs made by the first move searched (0 without cutoffs)."""
        return self.first_move_cutoffs / self.cutoffs if self.cutoffs else 0.0

    def summary(self, game: Game[Any]) -> str:
        """A few lines for humans: move and PV in notation, score, speed, ordering."""
        move = "none" if self.move is None else game.format_move(self.move)
        pv = " ".join(game.format_move(m) for m in self.pv) or "-"
        status = "" if self.completed else " (stopped by a limit)"
        lines = [
            f"move:     {move}",
            f"score:    {describe_score(self.score, game.scored)}",
            f"pv:       {pv}",
            f"depth:    {self.depth}{status}",
            f"nodes:    {self.nodes} in {self.time:.3f} s ({self.nps:,.0f} nodes/s)",
        ]
        if self.tt_probes:
            lines.append(f"tt:       {self.tt_hits}/{self.tt_probes} hits ({self.tt_hit_rate:.1%})")
        if self.cutoffs:
            lines.append(
                f"cutoffs:  {self.cutoffs}, {self.first_move_cutoff_rate:.1%} on the first move"
            )
        if self.threads > 1:
            lines.append(f"threads:  {self.threads} processes sharing one table (nodes: this one)")
        if self.deferred:
            lines.append(f"deferred: {self.deferred} moves another process was searching")
        return "\n".join(lines)
