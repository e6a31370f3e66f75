"""Squatter knowledge: the two seed evaluators, the library's own (`Territory`,
in territory.py), move orders, the features of `Squatter.analyse`, and the
`EVALUATORS` table.

Every evaluator is a callable `state -> float` from the side to move, built
by a factory whose keyword arguments are its weights (so a tuner or an AI
spec such as `eval=seed001,corner=-500` can change them).

The seed evaluators were written for a minimax that always scores from the
AI's own colour; their terms are not symmetric (seed 001 counts its own
side stones but not the enemy's).  `perspective` reproduces that: when set,
the terms are computed for that colour and negated when the other side is
to move.  When it is None the side to move is "own", as negamax expects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...weights import Weight, Weights
from .geometry import bits
from .territory import Territory, half_diamonds, threats

if TYPE_CHECKING:
    from .rules import SquatterState


class _PerspectiveEvaluator:
    """Base of the seed evaluators: terms for one colour, negamax sign."""

    weights: dict[str, float]

    def __init__(self, perspective: int | None = None) -> None:
        self.perspective = perspective

    def terms(self, state: SquatterState, me: int) -> float:
        raise NotImplementedError

    def __call__(self, state: SquatterState) -> float:
        me = self.perspective
        if me is None:
            return self.terms(state, state.to_move)
        value = self.terms(state, me)
        return value if state.to_move == me else -value

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v:g}" for k, v in self.weights.items())
        return f"{type(self).__name__}({args})"


class Seed001(_PerspectiveEvaluator):
    """Seed 001 (HeZhao): a linear evaluator of four features.

    own captured x 100 and enemy captured x -200, both as a share of the
    cells; own side stones x 10 as a share of the side (border) cells; own
    corner stones x -2000 (a corner stone can neither capture nor be captured).
    """

    def __init__(
        self,
        own_captured: float = 100.0,
        enemy_captured: float = -200.0,
        side: float = 10.0,
        corner: float = -2000.0,
        perspective: int | None = None,
    ) -> None:
        super().__init__(perspective)
        self.weights = {
            "own_captured": own_captured,
            "enemy_captured": enemy_captured,
            "side": side,
            "corner": corner,
        }
        self.own_captured, self.enemy_captured = own_captured, enemy_captured
        self.side, self.corner = side, corner

    def terms(self, state: SquatterState, me: int) -> float:
        """Seed 001's weighted terms for player `me`: the cells each side has
        captured, `me`'s stones on the border and in the corners."""
        geo = state.game.geometry
        cells = geo.cells
        mine = state.stones[me]
        side_cells = geo.border.bit_count()
        return (
            self.own_captured * state.terr[me].bit_count() / cells
            + self.enemy_captured * state.terr[1 - me].bit_count() / cells
            + self.side * (mine & geo.border).bit_count() / side_cells
            + self.corner * (mine & geo.corners).bit_count()
        )


class Seed003(_PerspectiveEvaluator):
    """Seed 003 (Sutanahadi & Thamrin): layer + capture + clump + corners.

    layer: while more than half the board is free, each own stone scores its
    distance (in rings) from the centre, the enemy's the same negated;
    capture: own minus enemy captured cells, x 100; clump: each own stone
    with one or two own neighbours (8 directions) scores +1, one with more
    than two -1 (clumps waste stones), minus the same for the enemy, x 10;
    corner: own corner stones x -9001.
    """

    def __init__(
        self,
        layer: float = 1.0,
        capture: float = 100.0,
        clump: float = 10.0,
        corner: float = -9001.0,
        perspective: int | None = None,
    ) -> None:
        super().__init__(perspective)
        self.weights = {"layer": layer, "capture": capture, "clump": clump, "corner": corner}
        self.layer, self.capture, self.clump, self.corner = layer, capture, clump, corner

    def terms(self, state: SquatterState, me: int) -> float:
        """Seed 003's weighted terms for player `me`: the captured cells' margin,
        stones in the corners and, early on, the layers."""
        geo = state.game.geometry
        stones = state.stones
        value = self.capture * (state.terr[me].bit_count() - state.terr[1 - me].bit_count())
        value += self.corner * (stones[me] & geo.corners).bit_count()
        if self.layer and state.free.bit_count() * 2 > geo.cells:
            depth = geo.max_layer
            layer = geo.layer
            value += self.layer * (
                sum(depth - layer[c] for c in bits(stones[me]))
                - sum(depth - layer[c] for c in bits(stones[1 - me]))
            )
        if self.clump:
            value += self.clump * (clumping(state, me) - clumping(state, 1 - me))
        return value


def clumping(state: SquatterState, player: int) -> int:
    """+1 per stone with one or two own neighbours, -1 per stone with more."""
    mine = state.stones[player]
    ones, _, threes = state.game.geometry.neighbour_counts(mine)
    return (mine & ones & ~threes).bit_count() - (mine & threes).bit_count()


def seed003_order(state: SquatterState, moves: list[int]) -> list[int]:
    """Seed 003's move order: cells next to stones first, border and corners last.

    Stable within each class, so the static order breaks ties.
    """
    geo = state.game.geometry
    occupied = state.stones[0] | state.stones[1]
    ring_mask = geo.ring_mask
    border, corners = geo.border, geo.corners
    near, far, edge, corner = [], [], [], []
    for m in moves:
        bit = 1 << m
        if bit & corners:
            corner.append(m)
        elif bit & border:
            edge.append(m)
        elif occupied & ring_mask[m]:
            near.append(m)
        else:
            far.append(m)
    return near + far + edge + corner


# --- the report of `Squatter.analyse` --------------------------------------------------------


def report(state: SquatterState) -> str:
    """Per colour: live and captured stones, threats (cells that capture at
    once, and the best gain), half diamonds and fork cells."""
    names = state.game.player_names
    lines = []
    for p in (0, 1):
        gains = threats(state, p)
        half, forks = half_diamonds(state, p)
        best = f" (best +{max(gains)})" if gains else ""
        lines.append(
            f"{names[p]}: {state.stones[p].bit_count()} live stones, "
            f"{state.dead[p].bit_count()} captured stones; threats {len(gains)}{best}; "
            f"half diamonds {half.bit_count()}; forks {forks.bit_count()}"
        )
    return "\n".join(lines)


# --- the table ---------------------------------------------------------------------------------


def score(capture: float = 1.0) -> Territory:
    """Captured cells only (own minus enemy, x `capture`)."""
    return Territory(capture, tempo=0, pressure=0, shape=0, corner=0, side=0, potential=0, fork=0)


#: Territory's weights, as the tuners and `params=FILE` see them.
TERRITORY_WEIGHTS = Weights(
    "squatter",
    "territory",
    (
        Weight("capture", 100.0, 0.0, 1000.0, "captured cells, own minus enemy"),
        Weight("tempo", 60.0, 0.0, 1000.0, "the mover's best capture now"),
        Weight("pressure", 40.0, 0.0, 1000.0, "the opponent's second best capture"),
        Weight("shape", 0.0, -1000.0, 1000.0, "stones with one or two own neighbours"),
        Weight("corner", -30.0, -1000.0, 1000.0, "corner stones, own minus enemy"),
        Weight("side", -6.0, -1000.0, 1000.0, "side stones, own minus enemy"),
        Weight("potential", 3.0, -1000.0, 1000.0, "half diamonds, own minus enemy"),
        Weight("fork", 30.0, -1000.0, 1000.0, "fork cells, own minus enemy"),
    ),
    build=lambda weights: Territory(**weights),
    linear=("capture", "tempo", "pressure", "shape", "corner", "side", "potential", "fork"),
    random_plies=8,  # equal players draw from the empty board: the solver labels the ends
    solve_from=14,
)


def territory(
    params: str | None = None,
    capture: float | None = None,
    tempo: float | None = None,
    pressure: float | None = None,
    shape: float | None = None,
    corner: float | None = None,
    side: float | None = None,
    potential: float | None = None,
    fork: float | None = None,
) -> Territory:
    """Territory with the weights of the params file `params`, then the
    weights given (None: not given), each checked against `TERRITORY_WEIGHTS`."""
    given = {
        "capture": capture, "tempo": tempo, "pressure": pressure, "shape": shape,
        "corner": corner, "side": side, "potential": potential, "fork": fork,
    }  # fmt: skip
    return Territory(**TERRITORY_WEIGHTS.resolve(params, given))


#: Named evaluator factories (`Squatter.evaluators`); their keyword
#: arguments are the weights (`eval=seed001,corner=-500`).
EVALUATORS: dict[str, Callable[..., Callable[[SquatterState], float]]] = {
    "default": territory,
    "territory": territory,
    "seed001": Seed001,
    "seed003": Seed003,
    "score": score,
}
