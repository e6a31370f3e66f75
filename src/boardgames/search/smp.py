"""Lazy SMP: helper processes that search the same position as the main
search and share its transposition table.

`Searcher(threads=N)` keeps N - 1 helpers.  They are forked at its first
search (each a copy of the searcher: its evaluator, its options) and live
until `Searcher.close()`, or until the process that made them ends.  For
every search the main process sends each helper the root as the start
position (text) and the list of moves played from it, with the limits and
the table's age; all of them then search at once, meeting in the shared
table (`TranspositionTable(shared=True)`), where each finds what the
others have already searched.  Helpers differ from the main search and
from each other so that they do not walk the same tree in the same order:
each searches the best root move first, as the main search does, then the
other root moves from the last one backwards (odd helpers, so the main
search and the first helper meet in the middle) or rotated; helpers 2, 3,
6, 7 and so on run one iteration ahead (never beyond a depth limit).

The main search decides alone when to stop (its limits, its stop signal);
it then raises a flag in shared memory that every helper's budget polls,
and returns the deepest result completed by any process.  A depth limit
bounds the helpers too, so a fixed-depth search returns the value a
single process would (every entry the main search reads then has exactly
the depth it needs).

Shutting down: helpers ignore Ctrl-C (the main process owns the search),
die with the process that forked them (`parallel.die_with_parent`), and
end when their pipe closes.  The table and the flag are anonymous shared
maps, which the kernel frees with the last process: nothing is left in
/dev/shm whatever ends the parent.
"""

from __future__ import annotations

import contextlib
import mmap
import multiprocessing
import signal
import sys
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Protocol

from ..budget import Limits
from ..errors import BoardgamesError, OptionError
from ..parallel import die_with_parent

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from ..game import Game, State
    from .result import SearchResult
    from .tt import TranspositionTable

#: Seconds `close` waits for a helper to exit before killing it.
CLOSE_WAIT = 2.0


class Searcher(Protocol):
    """What a helper needs of the searcher it is a copy of (`search.Searcher`)."""

    @property
    def tt(self) -> TranspositionTable | None:
        """The shared table."""

    def search(
        self, state: Any, limits: Limits | None = None, *,
        on_iteration: Callable[[SearchResult], None] | None = None,
        root_moves: Collection[int] | None = None,
    ) -> SearchResult:
        """Iterative deepening within `limits`, at the `root_moves` (all: None)."""

    def become_helper(self, index: int) -> None:
        """Turn this copy into helper `index`."""

    def game_of_helper(self) -> Game[Any]:
        """The game the searcher was forked for."""

    def clear_own(self) -> None:
        """Forget this process's killers and history."""


@dataclass(frozen=True)
class Completed:
    """One iteration a helper completed: its depth, move, score and line."""

    depth: int
    move: int
    score: float
    pv: tuple[int, ...]


class StopFlag:
    """The stop signal of one helper search: set once the shared word no
    longer holds the search's number (the main search moved on)."""

    def __init__(self, word: memoryview, search: int) -> None:
        self.word = word
        self.search = search

    def is_set(self) -> bool:
        """True once the main search has stopped."""
        return bool(self.word[0] != self.search)


def fork_context() -> Any:
    """multiprocessing's fork context: helpers are copies of the searcher
    (its evaluator and tables need no pickling); OptionError where the
    system cannot fork."""
    if sys.platform == "win32" or "fork" not in multiprocessing.get_all_start_methods():
        raise OptionError("threads: a parallel search needs fork (Linux, macOS)")
    return multiprocessing.get_context("fork")


def start_position(state: State[Any]) -> tuple[str, list[int]]:
    """(the position before the first move of `state.history`, as text; the moves)."""
    work = state.copy()
    while work.history:
        work.undo()
    return work.to_text(), list(state.history)


class Helpers:
    """The helper processes of one searcher (see the module docstring)."""

    def __init__(self, searcher: Searcher, count: int, game: Game[Any]) -> None:
        context = fork_context()
        self.game = game
        self.control = mmap.mmap(-1, 8)
        self.word = memoryview(self.control).cast("q")
        self.search = 0
        self.processes: list[BaseProcess] = []
        self.pipes: list[Connection] = []
        try:
            for index in range(1, count + 1):
                mine, theirs = context.Pipe()
                process = context.Process(
                    target=helper_main,
                    args=(searcher, index, theirs, self.word),
                    name=f"boardgames-search-helper-{index}",
                    daemon=True,
                )
                process.start()
                theirs.close()
                self.processes.append(process)
                self.pipes.append(mine)
        except BaseException:
            self.close()
            raise

    def start(
        self, state: State[Any], limits: Limits, generation: int,
        roots: Collection[int] | None = None,
    ) -> None:
        """Every helper starts searching `state` within `limits` (no stop signal:
        they stop with the main search), at the root moves `roots` (all: None)."""
        self.search += 1
        self.word[0] = self.search
        base, moves = start_position(state)
        keep = None if roots is None else sorted(roots)
        message = ("go", self.search, generation, base, moves, limits.depth, limits.time,
                   limits.nodes, keep)
        for pipe in self.pipes:
            self._send(pipe, message)

    def stop(self) -> list[Completed]:
        """Stop the helpers' search; the iterations they completed.
        BoardgamesError if a helper failed (its exception) or ended."""
        self.word[0] = 0
        completed: list[Completed] = []
        for pipe in self.pipes:
            try:
                while pipe.poll():
                    message = pipe.recv()
                    if message[0] == "error":
                        raise BoardgamesError(f"a search helper failed: {message[1]}")
                    if message[1] == self.search:
                        completed.append(Completed(*message[2:]))
            except (EOFError, OSError):
                raise BoardgamesError("a search helper ended unexpectedly") from None
        return completed

    def check(self) -> None:
        """BoardgamesError if a helper has ended (with its exception, if it
        sent one): the searcher closes the others and says why."""
        if not all(process.is_alive() for process in self.processes):
            self.stop()  # raises the helper's error, or that it ended
            raise BoardgamesError("a search helper ended unexpectedly")

    def clear(self) -> None:
        """The helpers forget their killers and history (the table is shared).
        A helper that has ended is not an error here: the next search says so."""
        for pipe in self.pipes:
            with contextlib.suppress(OSError):
                pipe.send(("clear",))

    def _send(self, pipe: Connection, message: tuple[Any, ...]) -> None:
        try:
            pipe.send(message)
        except OSError:
            raise BoardgamesError("a search helper ended unexpectedly") from None

    def close(self) -> None:
        """End every helper: ask, wait up to CLOSE_WAIT seconds, then kill."""
        self.word[0] = 0
        for pipe in self.pipes:
            with contextlib.suppress(OSError):
                pipe.send(("quit",))
            pipe.close()
        for process in self.processes:
            process.join(CLOSE_WAIT)
            if process.is_alive():
                process.kill()
                process.join()
        self.pipes, self.processes = [], []


def kept_helpers(
    helpers: Helpers | None, game: Game[Any], close: Callable[[], None]
) -> Helpers | None:
    """`helpers` to keep for a search of `game`: they are alive and were
    forked for `game`; else None, once `close()` has ended them (forked for
    another game).  BoardgamesError, after `close()`, if one of them failed
    or ended: the next search starts new ones."""
    if helpers is None:
        return None
    try:
        helpers.check()
    except BoardgamesError:
        close()
        raise
    if helpers.game != game:
        close()
        return None
    return helpers


@contextmanager
def helping(
    helpers: Helpers, state: State[Any], limits: Limits, close: Callable[[], None]
) -> Iterator[None]:
    """The helpers search `state` within `limits` while the body runs, and
    stop at its end (what they completed is not used).  BoardgamesError,
    after `close()`, if one of them failed or ended."""
    helpers.start(state, limits, 0)
    try:
        yield
    finally:
        try:
            helpers.stop()
        except BoardgamesError:
            close()
            raise


def helper_main(searcher: Searcher, index: int, pipe: Connection, word: memoryview) -> None:
    """A helper's life: search what the main process sends until told to quit
    or until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    searcher.become_helper(index)
    root: tuple[str, list[int]] | None = None
    state: State[Any] | None = None
    while True:
        try:
            message = pipe.recv()
        except (EOFError, OSError):
            return
        if message[0] == "quit":
            return
        if message[0] == "clear":
            searcher.clear_own()
            continue
        _, search, generation, base, moves, depth, time, nodes, roots = message
        try:
            if state is None or root is None or root[0] != base or moves[: len(root[1])] != root[1]:
                state = searcher.game_of_helper().parse_position(base)
                root = (base, [])
            for move in moves[len(root[1]):]:
                state.make(move)
            root = (base, list(moves))
            if searcher.tt is not None:
                searcher.tt.generation = generation - 1  # the search ages it to `generation`
            limits = Limits(depth, time, nodes, stop=StopFlag(word, search))
            searcher.search(state, limits, on_iteration=reporter(pipe, search), root_moves=roots)
        except Exception as exc:  # the main process raises it as a BoardgamesError
            try:
                pipe.send(("error", f"{type(exc).__name__}: {exc}"))
            finally:
                sys.exit(1)


def reporter(pipe: Connection, search: int) -> Callable[[SearchResult], None]:
    """Sends every completed iteration of search `search` to the main process."""

    def report(result: SearchResult) -> None:
        pipe.send(("done", search, result.depth, result.move, result.score, tuple(result.pv)))

    return report
