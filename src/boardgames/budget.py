"""The search budget: time and node limits and the stop signal, checked
every few nodes, and the garbage-collector pause of timed searches.

`Budget.check` is called by the node functions when their node counter
reaches the checkpoint it returned last time; it raises `SearchStopped`
(the library's one "stopped early" exception) when a limit is reached.
`given_limits` reads the limits of a search call (`options.Limits`).
"""

from __future__ import annotations

import gc
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from time import perf_counter

from .errors import OptionError, SearchStopped, quote
from .options import Limits, Stop

INF = math.inf


class Budget:
    """Time and node limits, checked every few nodes.

    With a time limit the clock is read about every TARGET seconds of search,
    so the search stops within a fraction of a millisecond of its deadline
    (plus whatever the operating system takes from it).  The interval in
    nodes follows the cost of a node, taken as the highest cost measured
    lately (forgotten with a half-life of HALF_LIFE seconds), not the last
    average: cheap nodes (TT hits, cutoffs) between runs of costly ones
    (evaluations at the horizon) do not widen it.  It also at most doubles
    from one check to the next and never passes MAX_INTERVAL.  A read costs
    well under a microsecond against 5-100 µs per node, about 0.1% of the
    search.  Without a time limit only the node limit is checked, with no
    clock reads at all.  A jump in cost is still seen one interval late: the
    first read after cheap nodes turn costly comes after the interval the
    cheap ones set.

    A `stop` signal (`Limits.stop`) is polled at the same checkpoints as the
    clock (a search with a stop and no time limit checks as often as a timed
    one): once set, the search stops as if its time had run out.
    """

    TARGET = 0.00025
    HALF_LIFE = 0.005
    MAX_INTERVAL = 1024

    def __init__(
        self, time: float | None, nodes: int | None, start: float, stop: Stop | None = None
    ) -> None:
        self.start = start
        self.deadline = start + time if time is not None else INF
        self.stop = stop
        self.timed = time is not None or stop is not None
        self.node_limit = nodes if nodes is not None else 1 << 62
        self.interval = 4
        self.last_nodes = 0
        self.last_time = start
        self.cost = 0.0  # seconds a node, the highest lately

    def first_checkpoint(self, nodes: int) -> int:
        if not self.timed:
            return self.node_limit
        return min(nodes + self.interval, self.node_limit)

    def check(self, nodes: int) -> int:
        """Raise SearchStopped when a limit is reached; else the next checkpoint."""
        if nodes >= self.node_limit:
            raise SearchStopped
        if not self.timed:
            return self.node_limit
        now = perf_counter()
        if now >= self.deadline or (self.stop is not None and self.stop.is_set()):
            raise SearchStopped
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

    def expired(self) -> bool:
        """Whether the time is up or the stop signal set."""
        return perf_counter() >= self.deadline or (self.stop is not None and self.stop.is_set())


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
    (`depth=`, `time=`, `nodes=`, the older form, checked the same way).

    OptionError for both at once, or for a `limits` that is not a Limits.
    """
    if limits is None:
        return Limits(depth, time, nodes)
    if not isinstance(limits, Limits):
        raise OptionError(f"limits must be a Limits(depth, time, nodes), not {quote(limits)}")
    if depth is not None or time is not None or nodes is not None:
        raise OptionError("give the limits as a Limits value or as depth/time/nodes, not both")
    return limits
