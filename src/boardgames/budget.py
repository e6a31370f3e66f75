"""The search budget: one `Limits` value, and the one meter that spends it.

`Limits(depth, time, nodes, stop)` is what every search, solver and player
is given.  `Budget` is the running meter made from it: every search, solver
and AI polls its budget and reads no clock of its own.

- Hot loops count their nodes and call `Budget.check` when the count
  reaches the checkpoint it returned last time; it raises `SearchStopped`
  (the library's one "stopped early" exception) once a limit is reached.
- Everything else asks `elapsed()`, `left()`, `expired()` or `stopped()`,
  or `poll()` (raise once expired), and hands a part of its budget on:
  `share(fraction)` of the time left, `until(fraction)` of the whole
  counted from the start, `part(fraction)` of the whole counted from now;
  `remaining()` is what is left as a `Limits` for a search or solve started
  now.

`given_limits` reads the limits of a search call (the `Limits` value or the
keywords), and `gc_paused` keeps the garbage collector out of timed searches.
"""

from __future__ import annotations

import gc
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from time import perf_counter
from typing import Protocol

from .errors import OptionError, SearchStopped, quote
from .options import MAX_SECONDS, check_real, check_seconds, check_whole

INF = math.inf

#: Node counts that stand for "no node limit".
NO_NODE_LIMIT = 1 << 62
#: The least time `Budget.remaining` hands on (a Limits time is > 0).
MIN_TIME = 1e-6


class Stop(Protocol):
    """A "move now" signal: anything with `is_set()`, e.g. a `threading.Event`."""

    def is_set(self) -> bool:
        """Whether the stop has been asked for."""


@dataclass(frozen=True, slots=True)
class Limits:
    """A checked search budget: depth (plies), time (seconds), nodes; None = no limit.

    `stop`, when given, is polled where the clock is: once it is set the
    search ends as if its time had run out and plays the best move found so
    far (the web page's "move now").  It is not part of the value (equality,
    hash, repr); a Limits with a stop stays in its process.

    `left` and `increment` describe the mover's game clock when the game has
    one (seconds left when the move began, seconds added after it).  The
    library's searches go by `time`, which the referee's time manager allots
    from that clock; a player that manages its own time (an external
    program, told `left=` and `inc=`) reads them.
    """

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None
    stop: Stop | None = field(default=None, compare=False, repr=False)
    left: float | None = None
    increment: float | None = None

    def __post_init__(self) -> None:
        if self.depth is not None:
            check_whole("depth", self.depth, 1, 1000)
        if self.time is not None:
            object.__setattr__(self, "time", check_seconds("time", self.time))
        if self.nodes is not None:
            check_whole("nodes", self.nodes, 1)
        for name in ("left", "increment"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, check_real(name, value, 0, MAX_SECONDS))
        if self.stop is not None and not callable(getattr(self.stop, "is_set", None)):
            raise OptionError(f"stop must have an is_set() method, not {quote(self.stop)}")

    @property
    def unlimited(self) -> bool:
        """No depth, time or node limit (a stop signal alone limits nothing)."""
        return self.depth is None and self.time is None and self.nodes is None


#: No limit at all.
NO_LIMITS = Limits()


class Budget:
    """The meter of one search, solve or move: its clock, its node limit and
    its stop signal, started when it is made (or at `start`, a perf_counter
    time).  `what` names the work in the SearchStopped message ("solve gave
    up after 2.00 s (1234 nodes)").

    Hot loops: with a time limit the clock is read about every TARGET
    seconds of search, so the search stops within a fraction of a
    millisecond of its deadline (plus whatever the operating system takes
    from it).  The interval in nodes follows the cost of a node, taken as
    the highest cost measured lately (forgotten with a half-life of
    HALF_LIFE seconds), not the last average: cheap nodes (TT hits, cutoffs)
    between runs of costly ones (evaluations at the horizon) do not widen
    it.  It also at most doubles from one check to the next and never passes
    MAX_INTERVAL.  A read costs well under a microsecond against 5-100 µs per
    node, about 0.1% of the search.  Without a time limit or a stop only the
    node limit is checked, with no clock reads at all.  A jump in cost is
    still seen one interval late: the first read after cheap nodes turn
    costly comes after the interval the cheap ones set.

    With `every`, the checks come every `every` nodes instead: for the exact
    solvers' hot loops, whose nodes cost a few microseconds and vary little,
    and where the adaptive interval, set by the costliest recent stretch (a
    descheduled moment of a loaded machine), would read the clock every few
    nodes, 20-40% of their time.

    A `stop` signal (`Limits.stop`) is polled at the same checkpoints as the
    clock (a budget with a stop and no time limit checks as often as a
    timed one): once set, the work stops as if its time had run out.
    """

    TARGET = 0.00025
    HALF_LIFE = 0.005
    MAX_INTERVAL = 1024

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        start: float | None = None,
        what: str = "search",
        every: int | None = None,
    ) -> None:
        limits = NO_LIMITS if limits is None else limits
        self.limits = limits
        self.what = what
        self.start = perf_counter() if start is None else start
        self.deadline = INF if limits.time is None else self.start + limits.time
        self.stop = limits.stop
        self.node_limit = NO_NODE_LIMIT if limits.nodes is None else limits.nodes
        self.timed = limits.time is not None or limits.stop is not None
        self.every = every
        self.interval = 4 if every is None else every
        self.last_nodes = 0
        self.last_time = self.start
        self.cost = 0.0  # seconds a node, the highest lately

    def __repr__(self) -> str:
        return f"Budget(time={self.time}, left={self.left():.3f}, nodes={self.limits.nodes})"

    @property
    def time(self) -> float | None:
        """The whole budget's seconds from its start (None: no time limit)."""
        return None if self.deadline == INF else self.deadline - self.start

    # --- the clock and the stop signal ---------------------------------------------------
    def elapsed(self) -> float:
        """Seconds since the start."""
        return perf_counter() - self.start

    def left(self) -> float:
        """Seconds left before the deadline (inf without a time limit; <= 0 once past it)."""
        return self.deadline - perf_counter()

    def stopped(self) -> bool:
        """Whether the stop signal is set."""
        return self.stop is not None and self.stop.is_set()

    def expired(self) -> bool:
        """Whether the time is up or the stop signal set."""
        return perf_counter() >= self.deadline or self.stopped()

    def gave_up(self, nodes: int | None = None) -> SearchStopped:
        """The SearchStopped to raise: "search gave up after 0.20 s (1234 nodes)"."""
        return SearchStopped.gave_up(self.elapsed(), nodes, self.what)

    def poll(self, nodes: int | None = None) -> None:
        """Raise SearchStopped once the time is up or the stop signal set."""
        if self.expired():
            raise self.gave_up(nodes)

    # --- parts of the budget, for the work it pays for -------------------------------------
    def _part(self, deadline: float) -> Budget:
        """A budget from now to `deadline`, with this one's stop, depth and nodes."""
        part = Budget(replace(self.limits, time=None), what=self.what, every=self.every)
        part.deadline = deadline
        part.timed = True
        return part

    def share(self, fraction: float) -> Budget:
        """A budget from now for `fraction` of the time left (no time limit
        when this one has none); the same stop signal, depth and nodes."""
        if self.deadline == INF:
            return Budget(self.limits, what=self.what)
        now = perf_counter()
        return self._part(now + fraction * max(0.0, self.deadline - now))

    def until(self, fraction: float) -> Budget:
        """A budget that ends once `fraction` of this one's time has passed
        since its start (a fraction above 1 reaches past this budget's end,
        into the margin a player keeps under its move's limit)."""
        if self.deadline == INF:
            return Budget(self.limits, what=self.what)
        return self._part(self.start + fraction * (self.deadline - self.start))

    def part(self, fraction: float) -> Budget:
        """A budget from now for `fraction` of this one's whole time."""
        if self.deadline == INF:
            return Budget(self.limits, what=self.what)
        return self._part(perf_counter() + fraction * (self.deadline - self.start))

    def with_default_time(self, seconds: float) -> Budget:
        """This budget, or when it has no time limit the same from its start
        with `seconds` (work that must end, such as a player's solver try)."""
        if self.deadline != INF:
            return self
        return Budget(replace(self.limits, time=seconds), start=self.start, what=self.what)

    def remaining(self, floor: float = MIN_TIME) -> Limits:
        """What is left, as the Limits of a search or solve started now: the
        time left but at least `floor` (work handed a spent budget stops at
        its first check, or, searching for a move, finds one in `floor`),
        the depth, the nodes and the stop signal."""
        if self.deadline == INF:
            return self.limits
        return replace(self.limits, time=max(self.deadline - perf_counter(), floor))

    # --- the hot loops' node checks ------------------------------------------------------
    def first_checkpoint(self, nodes: int) -> int:
        """The node count at which to call `check` first (counting from `nodes`)."""
        if not self.timed:
            return self.node_limit
        return min(nodes + self.interval, self.node_limit)

    def check(self, nodes: int) -> int:
        """Raise SearchStopped when a limit is reached; else the next checkpoint."""
        if nodes >= self.node_limit:
            raise self.gave_up(nodes)
        if not self.timed:
            return self.node_limit
        now = perf_counter()
        if now >= self.deadline or (self.stop is not None and self.stop.is_set()):
            raise self.gave_up(nodes)
        if self.every is not None:
            return min(nodes + self.every, self.node_limit)
        elapsed = now - self.last_time
        done = nodes - self.last_nodes
        interval = self.interval
        if elapsed > 0 and done > 0:
            self.cost = max(elapsed / done, self.cost * 0.5 ** (elapsed / self.HALF_LIFE))
            wanted = int(self.TARGET / self.cost)
            interval = max(1, min(wanted, 2 * interval, self.MAX_INTERVAL))
            self.interval = interval
        self.last_nodes, self.last_time = nodes, now
        return min(nodes + interval, self.node_limit)


#: Timed searches up to this long run with the cyclic garbage collector off
#: (see `gc_paused`); for longer ones a collection is far inside the slack.
GC_PAUSE_LIMIT = 10.0

_gc_lock = threading.Lock()
_gc_users = 0
_gc_was_enabled = False


@contextmanager
def gc_paused(active: bool = True) -> Iterator[None]:
    """The cyclic garbage collector off inside the block (when `active`).

    A full collection walks every container in the process and can take
    tens of milliseconds, more on a loaded machine; one that falls inside
    a 0.2 s move costs the time discipline dearly, and a search makes no
    cyclic garbage for it to find (its lists are freed by reference
    counting).  The collector is turned back on afterwards, unless the
    caller had it off; nested and concurrent blocks share one pause.
    """
    global _gc_users, _gc_was_enabled
    if not active:
        yield
        return
    with _gc_lock:
        if _gc_users == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_users += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_users -= 1
            if _gc_users == 0 and _gc_was_enabled:
                gc.enable()


def pause_gc_for(time: float | None) -> bool:
    """Whether a search with this time limit runs with the collector paused."""
    return time is not None and time <= GC_PAUSE_LIMIT


def given_limits(
    limits: Limits | None,
    depth: int | None = None,
    time: float | None = None,
    nodes: int | None = None,
) -> Limits:
    """The limits of a search call: the `Limits` value, or else the keywords
    (`depth=`, `time=`, `nodes=`, a convenience that builds the same value).

    OptionError for both at once, or for a `limits` that is not a Limits.
    """
    if limits is None:
        return Limits(depth, time, nodes)
    if not isinstance(limits, Limits):
        raise OptionError(f"limits must be a Limits(depth, time, nodes), not {quote(limits)}")
    if depth is not None or time is not None or nodes is not None:
        raise OptionError("give the limits as a Limits value or as depth/time/nodes, not both")
    return limits
