"""The searches of every game on one bounded, fair pool of worker threads.

At most `size` searches run at once; the others wait in the order they
asked (first come, first served), so a game that moves often cannot starve
one that asked once, and a new game's AI always gets its turn.  A slot is
freed when the worker thread returns, not when its caller stops waiting: a
search that was asked to stop but is still finishing keeps its slot, so
the pool never runs more threads than it says.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class SearchPool:
    """`await pool.run(fn, *args, started=callback)`: `fn(*args)` in a worker
    thread once a slot is free; `started()` is called (on the event loop)
    when it gets one."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.running = 0
        self.waiting: deque[asyncio.Future[None]] = deque()
        self.executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=size, thread_name_prefix="search"
        )

    async def run(
        self, fn: Callable[..., T], *args: Any, started: Callable[[], None] | None = None
    ) -> T:
        """`fn(*args)` in a worker thread once a slot is free (see the class)."""
        await self._acquire()
        loop = asyncio.get_running_loop()
        try:
            if started is not None:
                started()
            work = self.executor.submit(fn, *args)
        except BaseException:
            self._release()
            raise

        def done(_: concurrent.futures.Future[T]) -> None:  # in the worker thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nothing waits
                loop.call_soon_threadsafe(self._release)

        work.add_done_callback(done)
        return await asyncio.wrap_future(work)

    def ahead(self) -> int:
        """Searches waiting for a slot."""
        return sum(1 for waiter in self.waiting if not waiter.done())

    async def _acquire(self) -> None:
        if self.running < self.size and not self.ahead():
            self.running += 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append(waiter)
        try:
            await waiter  # _release hands its slot over: `running` stays as it is
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release()  # the slot came just as the caller gave up
            else:
                with contextlib.suppress(ValueError):
                    self.waiting.remove(waiter)
            raise

    def _release(self) -> None:
        while self.waiting:
            waiter = self.waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self.running -= 1

    def close(self) -> None:
        """Drop the searches not started; running ones end at their stop signal."""
        for waiter in self.waiting:
            waiter.cancel()
        self.waiting.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)
