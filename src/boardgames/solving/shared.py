"""One solve on several cores: helper processes that share the solver's table.

`solve_position(state, threads=N)` makes the game's solver, moves its table
into shared memory (`SolverBase.share`, or a shared transposition table
for the generic solver) and forks N - 1 helpers before it solves the
position itself.  Each helper solves the positions after the root's moves,
one after the other, in an order of its own (the first helper from the
last move backwards, the others rotated), then the root; everything any
process proves lands in the one table, where the others find it.  The main
process's solve alone makes the answer, so it is the answer of a solve in
one process: the helpers only make it come sooner.

When the main solve ends (answered, out of time, or stopped by an
exception or Ctrl-C), a flag in shared memory stops the helpers at their
next look at the budget; they are then joined, and killed if they take
longer than a moment.  Helpers ignore Ctrl-C and die with the process that
forked them (`parallel.die_with_parent`); the shared maps have no name,
so nothing is left in /dev/shm whatever ends the parent.
"""

from __future__ import annotations

import contextlib
import mmap
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..budget import Limits
from ..errors import SearchStopped
from ..parallel import die_with_parent
from ..search.smp import StopFlag, fork_context
from ..solution import split_order

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from ..game import State

#: Entries of a shared solver table unless told (32 bytes each for the games'
#: own solvers: 128 MB; 49 for the generic solver's transposition table).
SHARED_TABLE = 1 << 22
#: Seconds the helpers get to stop after the main solve before they are killed.
STOP_WAIT = 2.0


def children(state: State[Any]) -> list[State[Any]]:
    """The positions after each move of `state` that are not over."""
    found = []
    for move in state.legal_moves():
        child = state.copy()
        child.make(move)
        if not child.is_over():
            found.append(child)
    return found


@contextmanager
def solving_helpers(
    solver: Any, state: State[Any], threads: int, options: dict[str, Any], stoppable: bool
) -> Iterator[None]:
    """`threads - 1` helpers solving around `state` with `solver` (whose table
    is shared already; `options` go to its `solve`, with `limits` if it is
    `stoppable`) while the body solves it; stopped and joined after."""
    context = fork_context()
    control = mmap.mmap(-1, 8)
    word = memoryview(control).cast("q")
    word[0] = 1
    processes: list[BaseProcess] = []
    try:
        for index in range(1, threads):
            process = context.Process(
                target=helper_main,
                args=(solver, state, index, word, options, stoppable),
                name=f"boardgames-solve-helper-{index}",
                daemon=True,
            )
            process.start()
            processes.append(process)
        yield
    finally:
        word[0] = 0
        for process in processes:
            process.join(STOP_WAIT)
            if process.is_alive():
                process.kill()
                process.join()


def helper_main(
    solver: Any,
    state: State[Any],
    index: int,
    word: memoryview,
    options: dict[str, Any],
    stoppable: bool,
) -> None:
    """A helper: solve the positions after each root move in its order, then
    the root, until done or stopped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    if stoppable:
        options = {**options, "limits": Limits(stop=StopFlag(word, 1))}
    vary = getattr(solver, "vary", None)
    if vary is not None and vary(index):
        positions = [state]
    else:
        positions = split_order(children(state), index)
        positions.append(state)
    with contextlib.suppress(SearchStopped):
        for position in positions:
            if word[0] != 1:
                break
            solver.solve(position, **options)
    sys.exit(0)
