"""The watchdog: hard time limits on a player, in any thread.

`play_game` measures a move after the player returns, so a player that never
returns would stall a worker forever.  `Watched` interrupts a move that runs
past a hard limit (per move, and for the whole game); it then raises
`PlayerHung`, which `play_game` scores as a loss for the side to move.
In a process's main thread (worker processes, serial runs) a SIGALRM timer
raises inside the player, which also breaks a `time.sleep`.  Dask runs tasks
in threads, where a timer thread raises the exception asynchronously in the
player's thread: that stops any pure-Python loop, not a long call into C.
"""

from __future__ import annotations

import ctypes
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..budget import Limits
from ..errors import PlayerCrashed, PlayerHung
from ..game import State
from ..players import Player


class _Interrupt(BaseException):
    """Raised inside the player; a BaseException so `except Exception` cannot swallow it."""


class Deadline:
    """The hard limits shared by both players of one game."""

    def __init__(self, move_seconds: float | None, game_seconds: float | None) -> None:
        self.move_seconds = move_seconds
        self.game_seconds = game_seconds
        self.game_end = None if game_seconds is None else time.monotonic() + game_seconds
        #: Why the game was cut, once it was.
        self.fired: str | None = None

    def next_move(self) -> tuple[float | None, str]:
        """Seconds the next move may take, and the limit that says so."""
        limits = []
        if self.move_seconds is not None:
            limits.append((self.move_seconds, f"hard limit of {self.move_seconds:g} s per move"))
        if self.game_end is not None:
            left = self.game_end - time.monotonic()
            limits.append((left, f"hard limit of {self.game_seconds:g} s per game"))
        return min(limits) if limits else (None, "")


class Watched(Player[Any]):
    """`player` under a `Deadline`; in every other way it is `player`."""

    def __init__(self, player: Player[Any], deadline: Deadline) -> None:
        super().__init__(player.name)
        self.player = player
        self.deadline = deadline
        self.timed = player.timed

    def reset(self) -> None:
        """Reset the watched player for a new game."""
        self.player.reset()

    def tell(self, message: str) -> None:
        """Pass a message on to the watched player."""
        self.player.tell(message)

    def close(self) -> None:
        """Close the watched player (a program's process ends)."""
        self.player.close()

    def choose(self, state: State[Any], limits: Limits | None = None) -> int:
        """The watched player's move, interrupted when the move's or the game's
        deadline passes (the deadline then records why)."""
        seconds, why = self.deadline.next_move()
        try:
            if seconds is not None and seconds <= 0:
                raise _Interrupt
            with interrupt_after(seconds):
                move = self.player.choose(state, limits)
        except _Interrupt:
            self.deadline.fired = f"{self.name} stopped by the {why}"
            raise PlayerHung(self.deadline.fired) from None
        except SystemExit as exc:  # a player may not end the worker
            raise PlayerCrashed(f"{self.name} called exit({exc.code})") from None
        self.last_result = self.player.last_result
        return move


@contextmanager
def interrupt_after(seconds: float | None) -> Iterator[None]:
    """Raise `_Interrupt` in this thread if the block runs longer than `seconds`."""
    if seconds is None:
        yield
    elif threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        with _alarm(seconds):
            yield
    else:
        with _async_raise(seconds):
            yield


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def ring(signum: int, frame: Any) -> None:
        raise _Interrupt

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
        finally:  # the one signal may land just before the timer is stopped
            signal.signal(signal.SIGALRM, previous)


@contextmanager
def _async_raise(seconds: float) -> Iterator[None]:
    set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
    thread = ctypes.c_ulong(threading.get_ident())
    lock = threading.Lock()
    state = {"armed": True, "fired": False}

    def ring() -> None:
        with lock:
            if state["armed"]:
                state["fired"] = True
                set_async_exc(thread, ctypes.py_object(_Interrupt))

    timer = threading.Timer(seconds, ring)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            state["armed"] = False
        if state["fired"]:
            # The exception may still be pending if the block ended just in time:
            # clear it so it cannot go off later in unrelated code, and raise it here.
            set_async_exc(thread, ctypes.c_void_p(0))
            raise _Interrupt


def default_move_timeout(time_limit: float | None) -> float | None:
    """The watchdog's per-move limit: far past the point where `play_game` forfeits."""
    return None if time_limit is None else 2 * time_limit + 5.0
