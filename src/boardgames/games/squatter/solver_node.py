"""The node function of Squatter's exact solver (`solver.SquatterSolver`):
the one hot search loop, `build_node`, kept whole (every call it would make
costs a measurable share of the node rate), and the table it writes.

A table entry is one int: from the top, the log2 of the work below the
node, the best move in the canonical frame (+2: -2 none, -1 a pass), then
the lower and the upper bound of the value, 12 bits each (+2048).

In a parallel solve (`SolverBase.share`) a node with at least SHARE_FREE
free cells also reads and writes the shared table, and one with at least
EXCLUSIVE_FREE marks each move it searches as busy and leaves a move
another process is searching for after its other moves (busy.py).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ...busy import MASK as BUSY_MASK
from ...busy import move_mark
from ...solution import helper_order
from .rules import UNPACK

if TYPE_CHECKING:
    from ...solution import SharedTable
    from .rules import SquatterState

#: A pass (filling a dead cell) in move lists.
PASS = -1
#: Value fields in a table entry: 12 bits each, offset so that they are >= 0.
_BITS, _OFF = 12, 2048
_MASK = (1 << _BITS) - 1
#: The bits below the work field of a table entry (the best move's 10, two values).
WORK_SHIFT = 2 * _BITS + 10
#: Entries of the capturable-cells cache (walls -> cells) before it is emptied.
REACH_CAP = 1 << 18
#: A parallel solve shares the entries of nodes with this many free cells
#: or more: the subtrees below the others cost less to search again than
#: a look in the shared table costs at every node.
SHARE_FREE = 5
#: A node of a parallel solve with this many free cells or more leaves for
#: later a move another process is searching (busy.py).
EXCLUSIVE_FREE = 16
#: "Never": more moves than a node has.
NEVER = 1 << 30


def _no_entry(key: int, default: int | None = None) -> int | None:
    """No shared table: no entry (`default`)."""
    return default


def _no_store(key: int, entry: int) -> None:
    """No shared table: nothing to store."""


class NodeSolver(Protocol):
    """What the node function reads of its solver (`solver.SquatterSolver`):
    the table and its cap, the switches, the node count and the budget's
    checks (`solution.SolverBase`)."""

    table: dict[int, int]
    max_entries: int
    symmetry: bool
    passes: bool
    bounds: bool
    order: bool
    nodes: int
    next_check: int
    variant: int
    shared: SharedTable | None

    def poll(self) -> None:
        """Check the budget (raises SearchStopped when it has run out)."""

    def make_room(self) -> None:
        """Free room in the table when it is full."""


class NodeSearch(Protocol):
    """What the node function reads of one solve (`solver._Search`)."""

    @property
    def solver(self) -> NodeSolver:
        """The solver this search belongs to."""

    @property
    def state(self) -> SquatterState:
        """The position being solved (made and undone in place)."""

    @property
    def killers(self) -> list[list[int]]:
        """The killer moves of each depth."""

    @property
    def history(self) -> list[int]:
        """The history score of every move."""


def build_node(search: NodeSearch) -> Callable[[int, int, int], int]:
    """The node function (alpha, beta, used) -> value, a closure over the
    solver's tables: the hot search loop (kept whole: see the module doc).
    `used` counts the passes taken since the root."""
    solver, state = search.solver, search.state
    game = state.game
    geo = game.geometry
    make, undo = state.make, state.undo
    unpack = UNPACK[game.frames]
    hash_bytes = game.hash_bytes
    table, cap, shared = solver.table, solver.max_entries, solver.shared
    sharing = shared is not None
    if shared is not None:
        shared_get, shared_put, busy = shared.get, shared.put, shared.busy
    else:  # one process: never called, never read
        shared_get, shared_put, busy = _no_entry, _no_store, array("q")
    symmetry, use_passes, use_bounds, use_order = (
        solver.symmetry, solver.passes, solver.bounds, solver.order
    )
    maps, unmaps = game.symmetries, game.inverse_symmetries
    ring_mask, ring_seeds, seeds_at = geo.ring_mask, geo.ring_seeds, geo.seeds_at
    move_groups = geo.move_groups
    stones, terr, dead = state.stones, state.terr, state.dead
    killers, history = search.killers, search.history
    variant = solver.variant
    mask, off, width = _MASK, _OFF, _BITS
    most = geo.cells  # no margin can reach it
    full, border, interior, n = geo.full, geo.border, geo.interior, geo.n
    east, west = geo.not_west, geo.not_east  # masks of shifts towards the east / west
    reach: dict[int, int] = {}  # walls -> capturable cells

    def generate(me: int, live: int, tt_move: int, ply: int, passes: int) -> list[int]:
        """The moves but `tt_move`: closing moves, blocking moves, killers,
        the rest by history (the centre first on ties), a pass last.  In a
        helper of a parallel solve (`variant`) the moves after the first
        one tried come in the helper's order."""
        moves: list[int] = []
        for group, ordered in move_groups:
            part = live & group
            if part:
                moves += ordered[part]
        if use_order:
            mine, theirs = stones[me], stones[1 - me]
            first, second, rest = [], [], []
            k1, k2 = killers[ply]
            for m in moves:
                if m == tt_move:
                    continue
                ring = ring_mask[m]
                around = mine & ring
                seeds = ring_seeds[m].get(around)
                if seeds is None:
                    seeds = seeds_at(m, around)
                if seeds:
                    first.append(m)
                    continue
                around = theirs & ring
                seeds = ring_seeds[m].get(around)
                if seeds is None:
                    seeds = seeds_at(m, around)
                if seeds:
                    second.append(m)
                elif m != k1 and m != k2:
                    rest.append(m)
            rest.sort(key=history.__getitem__, reverse=True)
            moves = first + second
            for k in (k1, k2):
                if k >= 0 and live >> k & 1 and k != tt_move and k not in moves:
                    moves.append(k)
            moves += rest
        elif tt_move >= 0:
            moves.remove(tt_move)
        if passes > 0 and tt_move != PASS:
            moves.append(PASS)
        if variant:
            head = 1 if tt_move == -2 else 0  # the first move tried stays first
            moves = moves[:head] + helper_order(moves[head:], variant)
        return moves

    def node(alpha: int, beta: int, used: int) -> int:
        nonlocal table
        solver.nodes += 1
        if solver.nodes >= solver.next_check:
            solver.poll()
        me = state.to_move
        op = 1 - me
        free = state.free
        t_me, t_op = terr[me], terr[op]
        if use_passes or use_bounds:
            # potential.capturable for both colours, written out twice: one
            # loop over the colours measured 3% slower on the whole solve.
            c_me = reach.get(free | stones[me] | dead[me], -1)
            if c_me < 0:
                walls = free | stones[me] | dead[me]
                passable = full & ~walls
                region = passable & border
                while True:
                    grown = (
                        region | (region << 1 & east) | (region >> 1 & west)
                        | (region << n & full) | region >> n
                    ) & passable
                    if grown == region:
                        break
                    region = grown
                c_me = interior & ~(
                    region | (region << 1 & east) | (region >> 1 & west)
                    | (region << n & full) | region >> n
                )
                if len(reach) > REACH_CAP:
                    reach.clear()
                reach[walls] = c_me
            c_op = reach.get(free | stones[op] | dead[op], -1)
            if c_op < 0:
                walls = free | stones[op] | dead[op]
                passable = full & ~walls
                region = passable & border
                while True:
                    grown = (
                        region | (region << 1 & east) | (region >> 1 & west)
                        | (region << n & full) | region >> n
                    ) & passable
                    if grown == region:
                        break
                    region = grown
                c_op = interior & ~(
                    region | (region << 1 & east) | (region >> 1 & west)
                    | (region << n & full) | region >> n
                )
                if len(reach) > REACH_CAP:
                    reach.clear()
                reach[walls] = c_op
            if use_passes:
                both = c_me | c_op
                live = free & (
                    both | (both << 1 & east) | (both >> 1 & west)
                    | (both << n & full) | both >> n
                )
            else:
                live = free
        else:
            live = free
        if not live:
            return t_me.bit_count() - t_op.bit_count()
        passes = (free ^ live).bit_count() - used
        lo, hi = -most, most
        if use_bounds:
            hi = (
                t_me.bit_count()
                + (c_me & ~t_me & ~stones[me] & ~dead[me]).bit_count()
                - (t_op & ~c_me).bit_count()
            )
            lo = -(
                t_op.bit_count()
                + (c_op & ~t_op & ~stones[op] & ~dead[op]).bit_count()
                - (t_me & ~c_op).bit_count()
            )
            if hi <= alpha or lo == hi:
                return hi
            if lo >= beta:
                return lo
        frames = unpack(state.packed.to_bytes(hash_bytes, "little"))
        canon = min(frames) if symmetry else frames[0]
        frame = frames.index(canon)
        key = canon << 10 | passes
        entry = table.get(key)
        if entry is None and sharing and free.bit_count() >= SHARE_FREE:
            entry = shared_get(key)
        tt_move = -2
        if entry is not None:
            e_hi = (entry & mask) - off
            e_lo = (entry >> width & mask) - off
            if e_lo > lo:
                lo = e_lo
            if e_hi < hi:
                hi = e_hi
            if lo >= beta:
                return lo
            if hi <= alpha or lo == hi:
                return hi
            stored = (entry >> 2 * width & 1023) - 2
            if stored >= 0:
                tt_move = unmaps[frame][stored]
                if not live >> tt_move & 1:  # (a hash collision)
                    tt_move = -2
            elif stored == PASS and passes > 0:
                tt_move = PASS
        a = alpha if alpha > lo else lo
        b = beta if beta < hi else hi
        # The table's move first; the others only if it does not cut off.
        ply = len(state.history) + used
        if tt_move != -2:
            moves = [tt_move]
            pending = True
        else:
            moves = generate(me, live, tt_move, ply, passes)
            pending = False
        start_nodes = solver.nodes
        a0 = a
        g = -most
        best = -2
        i = 0
        exclusive = sharing and free.bit_count() >= EXCLUSIVE_FREE
        first_pass = NEVER  # the moves before any was put off
        while i < len(moves):
            m = moves[i]
            i += 1
            if exclusive:  # busy.py: this node's move m, marked while searched
                mark = move_mark(key, m)
                at = mark & BUSY_MASK
                if 1 < i <= first_pass and busy[at] == mark:
                    if first_pass > len(moves):
                        first_pass = len(moves)
                    moves.append(m)  # another process is on it: after the others
                    continue
                busy[at] = mark
            if m == PASS:
                state.to_move = op
                v = -node(-b, -a, used + 1)
                state.to_move = me
            else:
                make(m)
                v = -node(-b, -a, used)
                undo()
            if exclusive and busy[at] == mark:
                busy[at] = 0
            if v > g:
                g = v
                best = m
                if v > a:
                    a = v
                    if v >= b:
                        if m >= 0:
                            killer = killers[ply]
                            if killer[0] != m:
                                killer[1] = killer[0]
                                killer[0] = m
                            history[m] += solver.nodes - start_nodes
                        break
            if pending:
                pending = False
                moves += generate(me, live, tt_move, ply, passes)
        # Store the bounds this search proved (within the narrowed window).
        if g <= a0:
            hi = g
        elif g >= b:
            lo = g
        else:
            lo = hi = g
        work = (solver.nodes - start_nodes).bit_length()
        stored = maps[frame][best] if best >= 0 else best
        entry = ((work << 10 | (stored + 2)) << 2 * width) | ((lo + off) << width) | (hi + off)
        table[key] = entry
        if len(table) >= cap:
            solver.make_room()
            table = solver.table
        if sharing and free.bit_count() >= SHARE_FREE:
            shared_put(key, entry)
        return g

    return node
