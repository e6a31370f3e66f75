"""Edge-capture knowledge: safe moves, capture runs, chains and loops.

In the "loony" endgame (no safe move left: every empty edge gives cells
away) the board falls apart into chains and loops of cells with two empty
edges.  The player who must open one loses it, unless the opponent prefers
to keep control by the double-dealing sacrifice: take all but the last two
cells of a chain (four of a loop), hand those back, and so force the other
side to open the next component too.  `loony_value` scores such a position
exactly for independent chains and loops (Berlekamp's analysis) and
approximately where chains meet at a junction cell.

Ends with the features of `EdgeGame.analyse` (`report`) and the
`EVALUATORS` table.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import EdgeState

CHAIN, LOOP = 0, 1


# --- simple features ----------------------------------------------------------------


def margin(state: EdgeState) -> float:
    """Captured cells, side to move minus opponent."""
    p = state.to_move
    return float(state.score[p] - state.score[1 - p])


def seed_utility(state: EdgeState, player: int) -> int:
    """Seed 004's f(n): n - (cells // 2 + 1) when that is not negative, else -1,
    with n the cells `player` has captured (it only cares about winning)."""
    need = state.game.num_cells // 2 + 1
    n = state.score[player]
    return n - need if n >= need else -1


def giveaway(state: EdgeState, move: int) -> int:
    """Cells the opponent can take in a row after the non-capturing `move`."""
    state.make(move)
    taken = 0
    while True:
        edge = next(iter(state.captures()), None)
        if edge is None:
            break
        before = state.score[state.to_move]
        state.make(edge)
        taken += state.score[state.to_move] - before
    _undo_to(state, move)
    return taken


def _undo_to(state: EdgeState, move: int) -> None:
    """Undo moves until `move` (the first one made) is taken back too."""
    while state.history[-1] != move:
        state.undo()
    state.undo()


# --- chains and loops -------------------------------------------------------------------


def components(state: EdgeState) -> list[tuple[int, int]]:
    """(CHAIN or LOOP, length) of every chain and loop of two-empty-edge cells.

    A junction cell (three or more empty edges) joins the longest chain that
    touches it: it becomes part of a chain once the others are taken.
    """
    game = state.game
    empties, claimed = state.empties, state.claimed
    edge_cells, cell_edges = game.edge_cells, game.cell_edges
    seen = [False] * game.num_cells
    out: list[tuple[int, int]] = []
    junction_arms: dict[int, list[int]] = {}

    def step(cell: int, via: int) -> tuple[int, int]:
        """Walk from `cell` away through its other empty edge: (next cell or -1, edge)."""
        for e in cell_edges[cell]:
            if e != via and claimed[e] < 0:
                others = [c for c in edge_cells[e] if c != cell]
                return (others[0] if others else -1), e
        return -1, -1

    for start in range(game.num_cells):
        if seen[start] or empties[start] != 2:
            continue
        seen[start] = True
        length = 1
        ends = []
        loop = False
        open_edges = [e for e in cell_edges[start] if claimed[e] < 0]
        for first in open_edges:
            others = [c for c in edge_cells[first] if c != start]
            cell, via = (others[0] if others else -1), first
            while cell >= 0 and empties[cell] == 2 and not seen[cell]:
                seen[cell] = True
                length += 1
                cell, via = step(cell, via)
            if cell == start or (cell >= 0 and empties[cell] == 2 and seen[cell]):
                loop = True
                break
            ends.append(cell)
        if loop:
            out.append((LOOP, length))
            continue
        index = len(out)
        out.append((CHAIN, length))
        for end in ends:
            if end >= 0 and empties[end] >= 3:
                junction_arms.setdefault(end, []).append(index)
    for junction, arms in junction_arms.items():
        best = max(arms, key=lambda i: out[i][1])
        kind, length = out[best]
        out[best] = (kind, length + 1)
        seen[junction] = True
    for cell in range(game.num_cells):
        if not seen[cell] and state.owner[cell] < 0 and empties[cell] >= 3:
            out.append((CHAIN, 1))
    return out


@lru_cache(maxsize=1 << 16)
def simple_loony_value(parts: tuple[tuple[int, int], ...]) -> int:
    """Exact value, for the player who must open one, of independent chains
    and loops (sorted tuple of (kind, length)).

    Opening a component lets the opponent either take it all and open the
    next one, or keep control: decline the last two cells of a chain of 3+
    (four of a loop) so that the opener takes them and must open again.
    """
    if not parts:
        return 0
    best = None
    for i, part in enumerate(parts):
        if i and part == parts[i - 1]:
            continue
        rest = simple_loony_value(parts[:i] + parts[i + 1 :])
        kind, length = part
        opponent = length + rest
        if kind == CHAIN and length >= 3:
            opponent = max(opponent, length - 4 - rest)
        elif kind == LOOP and length >= 4:
            opponent = max(opponent, length - 8 - rest)
        if best is None or -opponent > best:
            best = -opponent
    assert best is not None
    return best


def loony_value(state: EdgeState) -> int:
    """Estimated margin of the cells still to capture, for the side to move,
    in a position without safe moves (exact for independent chains and loops)."""
    if state.captures():
        return resolve_captures(state)
    return simple_loony_value(tuple(sorted(components(state))))


def resolve_captures(state: EdgeState) -> int:
    """Value of taking what is on offer, keeping control when it pays.

    Captures are taken one by one; when the only thing left to take is the
    last two cells of a chain (four of an opened loop), the double-dealing
    move that hands them back is compared with taking them.
    """
    made = 0
    gained = 0
    p = state.to_move
    value = 0
    while True:
        caps = state.captures()
        if not caps:
            value = gained + (loony_value(state) if state.n_empty else 0)
            break
        single = single_hand_out(state, caps)
        if single is None:
            before = state.score[p]
            state.make(plain_capture(state, caps))
            made += 1
            gained += state.score[p] - before
            continue
        take, decline = hand_out_values(state, single)
        value = gained + max(take, decline)
        break
    for _ in range(made):
        state.undo()
    return value


def hand_out_values(state: EdgeState, hand: tuple[tuple[int, ...], int]) -> tuple[int, int]:
    """(taking them all, handing them back) for the side to move, each the
    cells gained plus the loony value of what is left."""
    edges, far = hand
    p = state.to_move
    before = state.score[p]
    for edge in edges:
        state.make(edge)
    cells = state.score[p] - before
    take = cells + (loony_value(state) if state.n_empty else 0)
    for _ in edges:
        state.undo()
    state.make(far)
    # Declining: the opponent takes them, then opens the rest (or it ends).
    decline = -cells - loony_value_after_pair(state)
    state.undo()
    return take, decline


def loony_value_after_pair(state: EdgeState) -> int:
    """After a hand-out: the taker takes every cell on offer, then must open."""
    caps = state.captures()
    made = 0
    while caps:
        state.make(caps[0])
        made += 1
        caps = state.captures()
    value = loony_value(state) if state.n_empty else 0
    for _ in range(made):
        state.undo()
    return value


def single_hand_out(state: EdgeState, caps: list[int]) -> tuple[tuple[int, ...], int] | None:
    """The one hand-out on offer, when every capture belongs to it (`hand_out`);
    None when a plain capture is on offer or several hand-outs are."""
    found = None
    for edge in caps:
        hand = hand_out(state, edge)
        if hand is None:
            return None
        if found is not None and set(found[0]) != set(hand[0]):
            return None
        found = hand
    return found


def plain_capture(state: EdgeState, caps: list[int]) -> int:
    """A capture to make now: one that is no hand-out, else the first."""
    return next((edge for edge in caps if hand_out(state, edge) is None), caps[0])


def hand_out(state: EdgeState, edge: int) -> tuple[tuple[int, ...], int] | None:
    """When capturing `edge` starts the last two cells of a chain (whose far
    edge completes nothing else) or the last four of an opened loop: (the
    edges that take them all, in order; the double-dealing edge that hands
    them back).  Otherwise None."""
    game = state.game
    empties, claimed = state.empties, state.claimed
    cells = game.edge_cells[edge]
    if len(cells) != 2:
        return None
    a, b = cells
    if empties[a] == 1 and empties[b] == 1:
        return None
    d = b if empties[a] == 1 else a
    if empties[d] != 2:
        return None
    far = next(e for e in game.cell_edges[d] if e != edge and claimed[e] < 0)
    beyond = [c for c in game.edge_cells[far] if c != d]
    if not beyond or empties[beyond[0]] >= 3:
        return (edge, far), far
    x = beyond[0]
    if empties[x] != 2:
        return None
    last = next(e for e in game.cell_edges[x] if e != far and claimed[e] < 0)
    end = [c for c in game.edge_cells[last] if c != x]
    if end and empties[end[0]] == 1:
        return (edge, far, last), far
    return None


# --- evaluators ------------------------------------------------------------------------------


def chain_eval(state: EdgeState) -> float:
    """Margin so far plus the loony-endgame value once no safe move is left."""
    value = margin(state)
    if state.n_empty and not state.safe_moves():
        value += loony_value(state)
    return value


def chains() -> Callable[[EdgeState], float]:
    """`chain_eval`: the margin plus the loony-endgame value (no options)."""
    return chain_eval


def margin_only() -> Callable[[EdgeState], float]:
    """`margin`: captured cells, side to move minus opponent (no options)."""
    return margin


#: Named evaluator factories (`EdgeGame.evaluators`).
EVALUATORS: dict[str, Callable[..., Callable[[EdgeState], float]]] = {
    "default": chains,
    "chains": chains,
    "margin": margin_only,
}


# --- the report of `EdgeGame.analyse` ------------------------------------------------------------


def report(state: EdgeState) -> str:
    """Safe moves and cells on offer; once no safe move is left (the loony
    endgame), its chains and loops and their value for the side to move."""
    on_offer = sum(1 for left in state.empties if left == 1)
    safe = len(state.safe_moves())
    lines = [
        f"safe moves: {safe}",
        f"captures: {len(state.captures())} edges take {on_offer} cells",
    ]
    if safe:
        risky = sum(1 for left in state.empties if left == 2)
        lines.append(f"cells with two empty edges: {risky}")
    else:
        parts = sorted(components(state), key=lambda part: -part[1])
        chains = " ".join(str(n) for kind, n in parts if kind == CHAIN) or "none"
        loops = " ".join(str(n) for kind, n in parts if kind == LOOP) or "none"
        lines.append(f"chains: {chains}; loops: {loops}")
        lines.append(f"loony value: {loony_value(state):+d} for the side to move")
    return "\n".join(lines)
