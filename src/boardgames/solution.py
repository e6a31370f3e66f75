"""`SolveResult`: the exact value of a position under perfect play, and its
line; `SolverBase`: the skeleton the exact solvers share.

It sits below the games and the search, so a game's own solver
(`games/<name>/solver.py`) and the generic `search.solve` return the same
type without the games importing the search.
"""

from __future__ import annotations

import mmap
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from .budget import NO_NODE_LIMIT, Budget, Limits
from .busy import busy_marks
from .errors import OptionError

if TYPE_CHECKING:
    from .game import Game, State

T = TypeVar("T")

#: `SolveResult.bound`: the value is exact, or (a search in a window) only a bound.
EXACT, LOWER, UPPER = "exact", "lower", "upper"

@dataclass
class SolveResult:
    """The exact value of a position under perfect play (see `solve`).

    `value` is from the side to move at the root: +1 win, 0 draw, -1 loss
    for unscored games; the final score margin (own minus opponent's) for
    scored games.  `winner` is the winning player's index (0 or 1) or None
    for a draw.  `best` holds every optimal root move when solved with
    `all_moves=True`, otherwise one of them (empty when the game is over).

    `line` is a principal line: moves of optimal play for both sides from
    the position to the end of the game (extra turns included, so the same
    player may move twice running); replaying it ends the game with
    `value`.  In a won or lost position of an unscored game every move of
    the loser is as good as another, and the line shows one of them.  It
    is None when the solver was not asked for a line or cannot give one
    (never a made-up line), and [] when the game is over.

    `bound` is EXACT unless the solve ran in a window (alpha, beta) and the
    value fell outside it: LOWER means the true value is >= `value`
    (fail high), UPPER that it is <= `value` (fail low).  Only an exact
    result has meaningful `best` and `line`.
    """

    value: int
    winner: int | None
    best: list[int]
    nodes: int
    time: float
    line: list[int] | None = None
    bound: str = EXACT

    def summary(self, game: Game[Any]) -> str:
        """The result as text: the value and who wins, the best moves, the line
        and the node count."""
        who = "draw" if self.winner is None else f"{game.player_names[self.winner]} wins"
        best = " ".join(game.format_move(m) for m in self.best) or "-"
        lines = [f"value:    {self.value:+d} ({who})", f"best:     {best}"]
        if self.line is not None:
            line = " ".join(game.format_move(m) for m in self.line) or "-"
            lines.append(f"line:     {line}")
        lines.append(f"nodes:    {self.nodes} in {self.time:.3f} s")
        return "\n".join(lines)


def line_by_solving(
    state: State[Any],
    solved: SolveResult,
    solve: Callable[[State[Any], Limits | None], SolveResult],
    budget: Budget | None = None,
) -> list[int] | None:
    """A principal line from `state`, whose exact solve is `solved`: the first
    move is `solved.best[0]`, each later one the best move of a solve of the
    position reached (`solve(state, what is left of the budget)`).  Where a
    solver names no best move (a lost position of an unscored game: every
    move loses) the first legal move is played.  None if a solver names no
    move elsewhere.  SearchStopped when the budget runs out."""
    work = state.copy()
    line: list[int] = []
    result = solved
    scored = state.game.scored
    while not work.is_over():
        if result.best:
            move = result.best[0]
        elif not scored and result.value < 0:
            move = work.legal_moves()[0]  # lost whatever is played
        else:
            return None
        work.make(move)
        line.append(move)
        if work.is_over():
            break
        result = solve(work, None if budget is None else budget.remaining())
    return line


class SolverBase:
    """The skeleton every exact solver shares (and seed 001's search, which
    keeps no table): a table of int entries that is purged when full, and
    the node count, the budget and the SolveResult of one solve.

    A solve starts with `begin(limits)`.  The hot loop counts `self.nodes`
    and calls `self.poll()` once the count reaches `self.next_check`, every
    CHECK_EVERY nodes (the budget raises SearchStopped there when a limit is
    reached; without a time limit or a stop signal the checkpoint is the
    node limit, so an unlimited solve never reads the clock).  It stores `table[key] = entry`,
    an int whose bits from WORK_SHIFT up are the work below the node (the
    bit length of its node count), and calls `make_room()` once the table
    holds `max_entries`: the cheaper entries go, and a hot loop that keeps
    the table in a local reads `self.table` again.  `result` builds the
    SolveResult with the winner, the nodes and the time of the solve.
    """

    #: The bits below the work field of a table entry.
    WORK_SHIFT = 0
    #: Nodes between two looks at the clock and the stop signal (1-5 ms of a
    #: solver's nodes: see `Budget`'s `every`).
    CHECK_EVERY = 256

    def __init__(self, max_entries: int) -> None:
        #: The most entries the table holds before `make_room` (0: no table).
        self.max_entries = max_entries
        self.table: dict[int, int] = {}
        self.purges = 0
        #: The nodes of the current (or last) solve.
        self.nodes = 0
        self.budget = Budget(what="solve")
        #: The node count at which the hot loop calls `poll`.
        self.next_check = NO_NODE_LIMIT
        #: 0, or the index of the parallel solve's helper this solver runs in
        #: (`vary`): its move order is then `helper_order`'s.
        self.variant = 0
        #: None, or the table shared with the other processes of a parallel
        #: solve (`share`): the hot loops keep every entry in `table` and
        #: share only the costlier ones (see `share`).
        self.shared: SharedTable | None = None

    def begin(self, limits: Limits | None = None, what: str = "solve") -> Budget:
        """Start one solve: no nodes yet, and a fresh budget of `limits`."""
        self.nodes = 0
        self.budget = budget = Budget(limits, what=what, every=self.CHECK_EVERY)
        self.next_check = budget.first_checkpoint(0)
        return budget

    def poll(self) -> None:
        """Raise SearchStopped when a limit is reached; else set the next checkpoint."""
        self.next_check = self.budget.check(self.nodes)

    def make_room(self) -> None:
        """Keep the costlier entries, about half of `max_entries` at most: those
        whose work is at least the smallest class that leaves no more (the
        classes counted on a sample of at most 4096 entries)."""
        table = self.table
        self.purges += 1
        shift = self.WORK_SHIFT
        step = max(1, len(table) // 4096)
        sample = [entry >> shift for entry in list(table.values())[::step]]
        counts = [0] * (max(sample, default=0) + 2)
        for work in sample:
            counts[work] += 1
        wanted = len(sample) * (self.max_entries // 2) / max(1, len(table))
        keep, threshold = len(sample), 0
        while keep > wanted and threshold < len(counts) - 1:
            keep -= counts[threshold]
            threshold += 1
        self.table = {k: e for k, e in table.items() if e >> shift >= threshold}

    def result(
        self,
        value: int,
        side: int,
        best: list[int],
        *,
        line: list[int] | None = None,
        bound: str = EXACT,
    ) -> SolveResult:
        """The SolveResult of this solve: `value` from `side`'s point of view
        (the winner follows from its sign; none for a bound)."""
        winner = None if value == 0 or bound != EXACT else side if value > 0 else 1 - side
        return SolveResult(value, winner, best, self.nodes, self.budget.elapsed(), line, bound)

    def clear(self) -> None:
        """Forget the table."""
        self.table.clear()

    def vary(self, index: int) -> bool:
        """Search in helper `index`'s move order from now on (a helper of a
        parallel solve, which then solves the same position as the main
        process).  False for a solver with one order only: such a helper
        solves the positions after the root's moves instead."""
        return False

    def share(self, entries: int) -> None:
        """Share the solver's costlier entries with the processes forked after
        this call: a `SharedTable` of `entries` entries beside the private
        table.  Each solver's hot loop stores every entry in its own table,
        and where the subtree below a node is big enough to matter (many
        free cells) also in the shared one, where it looks on a miss; the
        many small nodes near the end of the game stay private, at a dict's
        speed.  The shared table's `busy` marks let the hot loop leave a
        move another process is searching for later (busy.py)."""
        self.shared = SharedTable(entries, self.WORK_SHIFT)


def helper_order(moves: list[int], variant: int) -> list[int]:
    """`moves` in the order of a parallel solve's helper `variant`: two
    neighbours swapped, the first two for helper 1, the next two for helper
    2, and so on.  A small change, so that a helper searches nearly as few
    nodes as the main process, but in another order where every move must
    be searched."""
    if len(moves) < 2:
        return moves
    i = (variant - 1) % (len(moves) - 1)
    return [*moves[:i], moves[i + 1], moves[i], *moves[i + 2 :]]


def split_order(items: list[T], index: int) -> list[T]:
    """`items` in the order of a parallel solve's helper `index`, meant to
    meet the main process's order in the middle: reversed for odd helpers,
    rotated by `index` for the others."""
    if index % 2:
        return items[::-1]
    turn = index % max(len(items), 1)
    return items[turn:] + items[:turn]


#: Keys a SharedTable holds exactly: two 63-bit words.
SHARED_KEY_BITS = 126
_WORD = (1 << 63) - 1
#: Mixed into every check word, so that a slot never written (all zeros)
#: never checks out, whatever key is looked up.
_SALT = 0x5DEECE66D2545F49


def largest_prime(n: int) -> int:
    """The largest prime not above `n` (`n` itself below 3, at least 1)."""
    if n < 3:
        return max(n, 1)
    for candidate in range(n, 2, -1):
        if candidate % 2 and all(candidate % d for d in range(3, int(candidate**0.5) + 1, 2)):
            return candidate
    return 2


class SharedTable:
    """A solver's table (key -> int entry, as the dict of `SolverBase`) in one
    anonymous shared memory map, so that forked processes solving the same
    game share what each proves (solving/shared.py).

    Fixed size: `entries` slots (a power of two) of four 8-byte words (the
    key's low and high 63 bits, the entry, a check word), in buckets of two
    slots: one 64-byte cache line, so a look-up reads one line.  A key's
    bucket is the key modulo the number of buckets, a prime: the solvers'
    keys are exact encodings, not random hashes, and every bit of them
    must count (a mask would keep only the low bits).  The first slot of a
    bucket keeps the costlier entry (the work above `work_shift`), the
    second takes the others.  Keys are held whole (up to SHARED_KEY_BITS
    bits), so two positions never share an entry.  Processes write without
    locks: the check word is the key words and the entry XORed with a
    constant, and a read that finds it broken (two writes mixed) is a miss.
    A new map is all zeros, which reads as empty: nothing is written before
    use, and the kernel gives it memory page by page as entries land.  The
    map has no name: the kernel frees it with the last process that maps it.

    `get` and `put` are closures over the words (no attribute lookups),
    which the solvers' hot loops call.  `busy` holds the marks of what each
    process is searching (busy.py).
    """

    def __init__(self, entries: int, work_shift: int) -> None:
        size = 1 << (max(entries, 2).bit_length() - 1)
        self.size = size
        self.buckets = buckets = largest_prime(size >> 1)
        self.work_shift = work_shift
        self.memory = mmap.mmap(-1, 4 * 8 * size)
        self.words = words = cast("array[int]", memoryview(self.memory).cast("q"))

        def get(key: int, default: int | None = None) -> int | None:
            """The entry of `key`, or `default`."""
            low = key & _WORD
            high = key >> 63
            i = key % buckets << 3
            if words[i] != low or words[i + 1] != high:
                i += 4
                if words[i] != low or words[i + 1] != high:
                    return default
            entry = words[i + 2]
            if words[i + 3] == low ^ high ^ entry ^ _SALT:
                return entry
            return default

        def put(key: int, entry: int) -> None:
            """Store `entry` as the entry of `key` (the costlier entry of the
            bucket keeps the first slot)."""
            low, high = key & _WORD, key >> 63
            if high > _WORD or key < 0:
                raise OptionError(
                    f"threads: this board's positions need keys over {SHARED_KEY_BITS} bits,"
                    " more than a shared table holds; solve it in one process"
                )
            i = key % buckets << 3
            if (words[i] != low or words[i + 1] != high) and (
                words[i + 2] >> work_shift > entry >> work_shift
            ):
                i += 4
            words[i] = low
            words[i + 1] = high
            words[i + 2] = entry
            words[i + 3] = low ^ high ^ entry ^ _SALT

        self.get = get
        self.put = put
        self.busy = busy_marks()

    def clear(self) -> None:
        """Empty every slot."""
        self.memory[:] = bytes(len(self.memory))

    def __setitem__(self, key: int, entry: int) -> None:
        self.put(key, entry)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, int) and self.get(key) is not None

    def __len__(self) -> int:
        """The slots in use (a scan of the table)."""
        words = self.words
        return sum(1 for i in range(3, len(words), 4) if words[i])

    def __repr__(self) -> str:
        return f"SharedTable(size={self.size})"
