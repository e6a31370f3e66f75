"""Executors for tournaments: worker processes here, or a Dask cluster.

`open_executor(workers=K)` gives a `ProcessPoolExecutor`; `open_executor(
scheduler="tcp://host:8786")` connects to a Dask scheduler and gives its
`concurrent.futures` view (`Client.get_executor()`).  Both are used as
context managers, and on an exception (Ctrl-C) they drop the games not yet
started and stop the workers instead of waiting for them.

Worker processes die with the process that started them, even when it is
killed outright (SIGKILL, a crash): on Linux the kernel sends them SIGKILL
(`prctl(PR_SET_PDEATHSIG)`), and everywhere a thread in each worker waits on
the parent's sentinel and ends the worker when the parent is gone.  So no
orphaned worker keeps playing, holding the parent's pipes and files.

Dask is an optional extra (`pip install boardgames-ai[dask]`) and is only
imported when a scheduler is asked for.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

from .errors import MissingExtraError, OptionError
from .options import MAX_WORKERS, check_whole


def default_workers() -> int:
    """One worker per core (1 when the count is unknown)."""
    return os.cpu_count() or 1


def local_workers(workers: int | None) -> int:
    """The local worker processes `workers` asks for: None is one per core, on
    any machine at most MAX_WORKERS; OptionError for a count out of range."""
    if workers is None:
        return min(default_workers(), MAX_WORKERS)
    return check_whole("workers", workers, 0, MAX_WORKERS)


@contextmanager
def open_executor(
    workers: int | None = None, scheduler: str | None = None
) -> Iterator[Executor | None]:
    """An executor for `workers` local processes (default: one per core), or for
    the Dask scheduler at `scheduler`.  `workers=0` yields None: play in this
    process (what `round_robin` does without an executor)."""
    if scheduler is not None:
        if workers is not None:
            raise OptionError("give either a number of workers or a Dask scheduler, not both")
        with dask_executor(scheduler) as executor:
            yield executor
        return
    workers = local_workers(workers)
    if workers == 0:
        yield None
        return
    with process_executor(workers) as executor:
        yield executor


@contextmanager
def process_executor(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A process pool whose workers ignore Ctrl-C (the parent handles it) and
    die with the parent."""
    executor = ProcessPoolExecutor(
        max_workers=workers, initializer=worker_init, initargs=(os.getpid(),)
    )
    try:
        yield executor
    except BaseException:
        _stop(executor)
        raise
    else:
        executor.shutdown(wait=True)


def worker_init(parent_pid: int | None = None) -> None:
    """Set up a worker process: ignore Ctrl-C (the parent stops the pool), and
    die with the parent (`parent_pid`, the process that made the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent_pid)


#: prctl option: the signal a process gets when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: Seconds between checks of the parent where no sentinel can be waited on.
PARENT_POLL = 0.5


def die_with_parent(parent_pid: int | None = None) -> None:
    """End this process as soon as its parent is gone (called in a worker).

    Linux: the kernel sends SIGKILL when the parent dies.  Everywhere: a
    daemon thread waits on the parent's sentinel (multiprocessing's pipe,
    closed when the parent ends) and then calls `os._exit`; a parent that
    died before this call (too early for the death signal) is seen at once.
    Outside multiprocessing the thread polls `os.getppid()` instead, and
    `parent_pid`, when given, must be the parent.
    """
    if sys.platform.startswith("linux"):
        _set_parent_death_signal(signal.SIGKILL)
    parent_process = multiprocessing.parent_process()
    if parent_process is not None:
        target = _wait_for_sentinel(parent_process)
    else:
        target = _poll_parent(parent_pid if parent_pid is not None else os.getppid())
    threading.Thread(target=target, name="die-with-parent", daemon=True).start()


def _set_parent_death_signal(signum: int) -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # this process's symbols: libc's prctl
        libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0)
    except (OSError, AttributeError):  # no libc or no prctl: the thread still watches
        pass


def _wait_for_sentinel(parent: Any) -> Any:
    def watch() -> None:
        parent.join()  # returns when the parent's end of the sentinel pipe closes
        os._exit(1)

    return watch


def _poll_parent(ppid: int) -> Any:
    def watch() -> None:
        while os.getppid() == ppid:
            time.sleep(PARENT_POLL)
        os._exit(1)

    return watch


def _stop(executor: ProcessPoolExecutor) -> None:
    """Drop the games not started and end those still running (their results
    would be thrown away), instead of waiting for them."""
    terminate = getattr(executor, "terminate_workers", None)  # Python >= 3.14
    if terminate is not None:
        terminate()
        return
    # Before 3.14 there is no public way: stop the processes the pool started.
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)


@contextmanager
def dask_executor(address: str, **client_options: Any) -> Iterator[Executor]:
    """The `concurrent.futures` executor of a Dask distributed client."""
    client = connect_dask(address, **client_options)
    executor = client.get_executor(pure=False)  # every game is its own task, never merged
    try:
        yield executor
    except BaseException:
        # Cancel the games not yet finished; results still in flight then fail
        # to arrive, which Dask would log as tracebacks: nobody wants them now.
        with _quiet("distributed", "tornado"):
            executor.shutdown(wait=False)
            client.close()
        raise
    client.close()


@contextmanager
def _quiet(*loggers: str) -> Iterator[None]:
    saved = [(logging.getLogger(name), logging.getLogger(name).level) for name in loggers]
    for logger, _ in saved:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in saved:
            logger.setLevel(level)


def connect_dask(address: str, **client_options: Any) -> Any:
    """A `distributed.Client` for `address`, with clear errors."""
    try:
        # An optional extra: without it installed mypy cannot see it (and need not).
        from distributed import Client  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise MissingExtraError(
            "a Dask scheduler needs the dask extra: pip install 'boardgames-ai[dask]'"
        ) from None
    client_options.setdefault("timeout", 10)
    try:
        return Client(address, **client_options)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise OptionError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def executor_slots(executor: Executor) -> int:
    """How many tasks `executor` runs at once: a process pool's workers, or the
    threads of a Dask cluster's workers (1 when it cannot tell)."""
    workers = getattr(executor, "_max_workers", None)  # ProcessPoolExecutor's own count
    if isinstance(workers, int) and workers > 0:
        return workers
    client = getattr(executor, "_client", None)  # Dask's ClientExecutor
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # a cluster that cannot say: one at a time is still right
            return 1
    return 1


def stop_executor(executor: Executor) -> None:
    """Drop the tasks not started and stop those running, whose results are no
    longer wanted (a split solve that has its answer): a process pool's
    workers are ended; a Dask executor cancels its futures (a task already
    running on a worker thread runs to its end there).  The executor takes no
    more tasks; leaving `open_executor`'s block then does not wait."""
    if isinstance(executor, ProcessPoolExecutor):
        _stop(executor)
        return
    with _quiet("distributed", "tornado"):
        executor.shutdown(wait=False)
