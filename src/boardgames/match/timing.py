"""How the referee times moves: a per-move limit, or a game clock.

`Timing` is one game's timing as `match.play.play_game` uses it: the
per-move limit (a move past it plus the slack forfeits: `End.TIMEOUT`),
or a `GameClock` whose manager allots each move its share (capped by the
per-move limit when both are given) and whose running out loses the game
(`End.TIME`).  A player is asked with `Limits(time=the move's limit)`;
on a clock the limits also carry the side's clock (`left`, `increment`)
and a `stop` signal, set just before the side's clock runs out.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from ..budget import Limits
from ..clock import GameClock, TimeControl, TimeManager
from ..game import End, State
from ..players import Player
from .records import GameRecord


def start_clock(
    control: TimeControl,
    manager: TimeManager | None,
    record: GameRecord,
    start: State[Any] | GameRecord | None,
) -> GameClock:
    """The game's clock; a record continued at the same time control keeps its clocks."""
    left = None
    record.clock = str(control)
    record.allotted = [None] * len(record.moves)
    if isinstance(start, GameRecord) and start.clock == record.clock:
        left = start.clock_left
        if len(start.allotted) == len(start.moves):
            record.allotted = list(start.allotted)
    clock = GameClock(control, manager, left)
    record.clock_left = rounded(clock.left)
    return clock


def rounded(left: list[float]) -> list[float]:
    """The clock's times left, rounded to 0.1 ms for the record."""
    return [round(x, 4) for x in left]


@dataclass
class Timing:
    """How one game's moves are timed: a per-move limit (a move past it plus
    `slack` forfeits), or a game clock (the limit then caps each allotment)."""

    time_limit: float | None
    slack: float | None
    clock: GameClock | None

    def limit(self, state: State[Any], player: Player[Any]) -> float | None:
        """The `time_limit` the player gets for this move."""
        if not player.timed:
            return None
        if self.clock is None:
            return self.time_limit
        return self.clock.allot(state, self.time_limit)

    def ask(self, player: Player[Any], state: State[Any], limit: float | None) -> int:
        """The player's move under `Limits(time=limit)`; on a clock, with the
        side's clock and a stop signal set just before it runs out (an
        emergency brake: players that think move at once when it is set)."""
        if self.clock is None or not player.timed:
            return player.choose(state.copy(), Limits(time=limit))
        side = state.to_move
        stop = threading.Event()
        timer = threading.Timer(self.clock.brake_after(side), stop.set)
        timer.daemon = True
        timer.start()
        left, increment = max(0.0, self.clock.left[side]), self.clock.control.increment
        try:
            limits = Limits(time=limit, stop=stop, left=left, increment=increment)
            return player.choose(state.copy(), limits)
        finally:
            timer.cancel()

    def verdict(
        self, side: int, player: Player[Any], elapsed: float, limit: float | None
    ) -> tuple[End, str] | None:
        """(end, why) if the move just made lost on time, else None."""
        if not player.timed:
            return None
        if self.clock is not None and limit is not None:
            if self.clock.charge(side, elapsed, limit):
                return None
            before = self.clock.left[side] + elapsed
            return End.TIME, (
                f"{player.name} ran out of time: the move took {elapsed:.3f} s"
                f" with {before:.3f} s left (clock {self.clock.control})"
            )
        limit, slack = self.time_limit, self.slack
        if limit is not None and slack is not None and elapsed > limit + slack:
            return End.TIMEOUT, f"{player.name} took {elapsed:.3f} s (limit {limit:g} s)"
        return None
