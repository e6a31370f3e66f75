"""One game in the browser: the position, who plays each side, the AI driver.

A `Session` lives on the server's event loop and changes only there.  The
AI thinks in a worker thread of the server's `SearchPool` (at most so many
searches at once, first come first served) on a copy of the position; its
move is checked with the library (`state.play`) before it is played, like
a human's.  Any change of position bumps `version`; a search started for an
older version is stopped and its move thrown away.

A game nobody watches (no page subscribed, no request for `pause_after`
seconds) holds its AIs: the search under way is stopped and its move
thrown away, and the AI thinks again when a page comes back.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from ..errors import BoardgamesError, IllegalMoveError, OptionError
from ..game import End, Game, State
from ..match.records import GameRecord
from ..players import Player
from .evaluations import Evaluations
from .live import Mailbox, Viewers
from .model import DEFAULT_TIME, ConflictError, Job, Ply, Side, game_json, outcome_json
from .pool import SearchPool
from .settings import WebSettings
from .thinking import Info, capabilities, think

#: Fewest seconds between two live updates of one search.
INFO_INTERVAL = 0.05

#: Seconds between two moves when two AIs play each other (so a person can follow).
WATCH_DELAY = 0.3


def stop_after(seconds: float) -> float:
    """When a search of `seconds` is told to stop if it has not moved yet: its
    own clock ends it first, this catches an AI that does not watch one."""
    return seconds + max(1.0, 0.5 * seconds)


class Session:
    """One game: its position and moves, its two sides, its live subscribers."""

    def __init__(
        self,
        sid: str,
        game: Game[Any],
        sides: list[Side],
        *,
        settings: WebSettings,
        pool: SearchPool,
        record: GameRecord | None = None,
        delay: float = WATCH_DELAY,
        owner: str = "",
    ) -> None:
        self.id = sid
        self.game = game
        self.sides = sides
        self.settings = settings
        self.pool = pool
        #: The client address that started the game (for the per-client quota).
        self.owner = owner
        self.start_text = record.start if record is not None else None
        self.state: State[Any] = (
            record.start_state(game) if record is not None else game.new_state()
        )
        self.plies: list[Ply] = []
        self.evals = Evaluations(game)
        self.evals.append(self.state)
        self.version = 0
        #: Counts snapshots, so the page keeps the newest of those that cross.
        self.seq = 0
        self.paused = False
        self.delay = delay
        self.notice = ""
        self.record_result: dict[str, Any] | None = None
        self.thinking: Job | None = None
        self.hinting: Job | None = None
        self.hint: dict[str, Any] | None = None
        self.viewers = Viewers(settings.max_viewers, settings.pause_after)
        self.task: asyncio.Task[None] | None = None
        if record is not None:
            self._replay(record)

    # --- setting up ---------------------------------------------------------------
    def _replay(self, record: GameRecord) -> None:
        times = list(record.times) + [0.0] * len(record.moves)
        for number, text in enumerate(record.moves, start=1):
            side = self.state.to_move
            try:
                move = self.state.play(text)
            except BoardgamesError as exc:
                raise OptionError(f"record move {number} ({text!r}): {exc}") from None
            by = record.players[side] or self.game.player_names[side]
            self.plies.append(Ply(move, side, by, float(times[number - 1])))
            self.evals.append(self.state)
        if record.result != self.state.result() or record.end is not End.RULES:
            self.record_result = {"result": record.result, "end": record.end.value,
                                  "reason": record.reason, "text": record.summary()}

    # --- what the page sees ------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The session as JSON data for the page: the position, the moves, the
        sides, the jobs and the outcome."""
        game, state = self.game, self.state
        outcome = outcome_json(state)
        legal = [] if outcome else sorted(state.legal_moves())
        moves = [
            {"move": p.move, "text": game.format_move(p.move), "side": p.side, "by": p.by,
             "time": round(p.time, 3), "info": p.info}
            for p in self.plies
        ]
        self.seq += 1
        return {
            "type": "state",
            "id": self.id,
            "seq": self.seq,
            "version": self.version,
            "game": game_json(game),
            "sides": [side.to_json() for side in self.sides],
            "paused": self.paused,
            "ply": len(self.plies),
            "to_move": None if outcome else state.to_move,
            "moves": moves,
            "legal": legal,
            "legal_names": [game.format_move(m) for m in legal],
            "last_turn": self._last_turn(),
            "svg": game.render_svg(state),
            "scores": list(state.scores()) if game.scored else None,
            "outcome": outcome,
            "record_result": self.record_result,
            "held": not self.viewers.watched.is_set(),
            "thinking": self.thinking.to_json() if self.thinking else None,
            "hinting": self.hinting.to_json() if self.hinting else None,
            "hint": self.hint,
            "evals": self.evals.values,
            "notice": self.notice,
        }

    def _last_turn(self) -> list[int]:
        """The moves of the last turn, oldest first (several after extra turns)."""
        if not self.plies:
            return []
        side = self.plies[-1].side
        turn = []
        for ply in reversed(self.plies):
            if ply.side != side:
                break
            turn.append(ply.move)
        return turn[::-1]

    def position(self, ply: int) -> dict[str, Any]:
        """The board after the first `ply` moves (for viewing the move list)."""
        if not 0 <= ply <= len(self.plies):
            raise OptionError(f"ply must be 0..{len(self.plies)}, not {ply}")
        state = self._state_at(ply)
        last = [self.plies[ply - 1].move] if ply else []
        return {
            "ply": ply,
            "svg": self.game.render_svg(state),
            "to_move": None if state.is_over() else state.to_move,
            "scores": list(state.scores()) if self.game.scored else None,
            "outcome": outcome_json(state),
            "last_turn": last,
        }

    def _state_at(self, ply: int) -> State[Any]:
        state: State[Any] = (
            self.game.parse_position(self.start_text)
            if self.start_text is not None
            else self.game.new_state()
        )
        for p in self.plies[:ply]:
            state.make(p.move)
        return state

    def record(self) -> GameRecord:
        """The game so far as a record, as `boardgames play --record` writes it."""
        return GameRecord.from_state(
            self.state,
            players=[side.name for side in self.sides],
            moves=[p.move for p in self.plies],
            start=self.start_text,
            times=[round(p.time, 4) for p in self.plies],
            why="saved from the web page",
        )

    # --- live updates and who watches ----------------------------------------------------
    def subscribe(self) -> Mailbox:
        """A page's mailbox, holding the game's state now; TooManyViewers if full."""
        mailbox = self.viewers.subscribe(json.dumps(self.snapshot()))
        self.touch()
        return mailbox

    def unsubscribe(self, mailbox: Mailbox) -> None:
        """Stop sending to `mailbox`."""
        self.viewers.unsubscribe(mailbox)

    def publish(self) -> None:
        """Send the state now to every page that watches."""
        if self.viewers:
            self.viewers.send_state(json.dumps(self.snapshot()))

    def _publish_job(self, job: Job) -> None:
        if self.viewers:
            self.viewers.send_progress(
                json.dumps({"type": "thinking", "id": self.id, "job": job.to_json()})
            )

    @property
    def touched(self) -> float:
        """When a page last watched the session (monotonic seconds)."""
        return self.viewers.touched

    def touch(self) -> None:
        """Someone looked at the game (a request, a page subscribing)."""
        if self.viewers.touch():
            self.publish()

    def is_watched(self, now: float) -> bool:
        """Whether a page watches the session, or did recently."""
        return self.viewers.is_watched(now)

    def check_watched(self, now: float) -> None:
        """Hold the AIs of a game nobody watches (called every so often): the
        search under way stops and its move is thrown away, and the AI players
        are let go (a search's tables can take tens of megabytes)."""
        if not self.viewers.hold_if_unwatched(now):
            return
        job = self.thinking
        if job is not None:
            job.held = True
            job.stop.set()
        for side in self.sides:
            side.release()  # its tables go too, a program ends; built again when watched

    def _job_info(self, job: Job, info: Info) -> None:
        """A search iteration (on the loop): sent at most every INFO_INTERVAL."""
        job.info = info
        if job.pending:
            return
        wait = INFO_INTERVAL - (time.monotonic() - job.sent)
        job.pending = True
        asyncio.get_running_loop().call_later(max(0.0, wait), self._send_job, job)

    def _send_job(self, job: Job) -> None:
        job.pending = False
        job.sent = time.monotonic()
        if job is self.thinking or job is self.hinting:
            self._publish_job(job)

    async def _run_job(self, job: Job, player: Player[Any]) -> tuple[int, Info | None]:
        """The player's move, from the search pool (the job waits for a slot)."""
        loop = asyncio.get_running_loop()
        state = self.state.copy()

        def report(info: Info) -> None:  # from the worker thread
            loop.call_soon_threadsafe(self._job_info, job, info)

        deadline = stop_after(job.budget)
        timers: list[asyncio.TimerHandle] = []

        def started() -> None:  # a slot is free: the clock starts now
            job.waiting = False
            job.started = time.monotonic()
            timers.append(loop.call_later(deadline, job.stop.set))
            self._publish_job(job)

        job.waiting = True
        try:
            return await self.pool.run(
                think, player, state, job.stop, report, deadline, started=started
            )
        finally:
            for timer in timers:
                timer.cancel()

    # --- actions (all on the event loop) ------------------------------------------------
    def _changed(self) -> None:
        """The position or the sides changed: stop searches for the old one."""
        self.version += 1
        self.notice = ""
        self.hint = None
        for job in (self.thinking, self.hinting):
            if job is not None:
                job.stop.set()

    def _check_view(self, ply: int | None) -> None:
        if ply is not None and ply != len(self.plies):
            raise ConflictError(
                f"the game has moved on (you saw move {ply}, it is at move {len(self.plies)})"
            )

    def move(self, move: Any, ply: int | None = None) -> None:
        """A human's move (notation or index), checked by the library."""
        self._check_view(ply)
        if self.state.is_over():
            raise IllegalMoveError(str(move), "the game is over")
        side = self.state.to_move
        if not self.sides[side].human:
            raise ConflictError(
                f"it is {self.game.player_names[side]}'s turn, played by the AI"
                f" {self.sides[side].spec}"
            )
        if isinstance(move, bool) or not isinstance(move, int | str):
            raise OptionError(f"a move is a name like 'A1' or an index, not {move!r}")
        index = self.state.play(move)  # NotationError / IllegalMoveError: nothing changed
        self._played(index, side, "human", 0.0, None)
        self.kick()

    def _played(self, index: int, side: int, by: str, seconds: float, info: Info | None) -> None:
        self.plies.append(Ply(index, side, by, seconds, info))
        self.evals.append(self.state)
        self.record_result = None
        self._changed()

    def undo(self) -> int:
        """Take back to the last position where a human was to move (one move
        when nobody or everybody is human); returns how many moves went."""
        if not self.plies:
            raise IllegalMoveError("undo", "no move to take back")
        anyone_ai = any(not s.human for s in self.sides)
        anyone_human = any(s.human for s in self.sides)
        taken = 0
        while self.plies:
            self.state.undo()
            self.plies.pop()
            self.evals.pop()
            taken += 1
            if not (anyone_ai and anyone_human) or self.sides[self.state.to_move].human:
                break
        if not anyone_human:
            self.paused = True  # watching two AIs: do not replay the move at once
        self.record_result = None
        self._changed()
        self.kick()
        return taken

    def truncate(self, ply: int) -> None:
        """Continue from the position after `ply` moves (drops the later ones)."""
        if not 0 <= ply <= len(self.plies):
            raise OptionError(f"ply must be 0..{len(self.plies)}, not {ply}")
        while len(self.plies) > ply:
            self.state.undo()
            self.plies.pop()
            self.evals.pop()
        self.record_result = None
        self._changed()
        self.kick()

    def set_sides(self, sides: list[Side]) -> None:
        """Set who plays each side (a side let go is released: its program
        ends); searches for the old sides stop."""
        old, self.sides = self.sides, sides
        for side in old:
            if not any(side is new for new in sides):
                side.release()
        self._changed()
        self.kick()

    def swap(self) -> None:
        """Each colour gets the other one's player (you play the other side)."""
        self.set_sides([self.sides[1], self.sides[0]])

    def set_paused(self, paused: bool) -> None:
        """Pause or resume the AIs."""
        self.paused = paused
        self.kick()

    def stop(self) -> bool:
        """Ask the running search to move now; False when nothing is thinking."""
        job = self.thinking or self.hinting
        if job is None:
            return False
        job.stop.set()
        self._publish_job(job)
        return True

    # --- the AI ---------------------------------------------------------------------------
    def _ai_to_move(self) -> int | None:
        if self.paused or self.state.is_over():
            return None
        side = self.state.to_move
        return None if self.sides[side].human else side

    def kick(self) -> None:
        """Start the AI driver if an AI is to move and none is running."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._drive())
        self.publish()

    async def _drive(self) -> None:
        while (side := self._ai_to_move()) is not None:
            if not self.viewers.watched.is_set():
                self.publish()
                await self.viewers.watched.wait()
                continue
            version, sides = self.version, self.sides[side]
            if self.plies and all(not s.human for s in self.sides) and self.delay > 0:
                await asyncio.sleep(self.delay)
                if version != self.version or self._ai_to_move() != side:
                    continue
            if sides.player is None:  # let go while nobody watched
                try:
                    await asyncio.to_thread(sides.rebuild, self.game, self.settings)
                except Exception as exc:
                    self._broken(sides, exc)
                    return
            player = sides.player
            if player is None or version != self.version or not self.viewers.watched.is_set():
                continue
            assert sides.spec is not None
            job = Job("move", side, sides.spec, sides.time, sides.live, sides.stoppable)
            self.thinking = job
            self.publish()
            try:
                move, info = await self._run_job(job, player)
            except Exception as exc:  # a broken AI: say so, and let the human decide
                self.thinking = None
                if version != self.version or job.held:
                    self.publish()
                    continue  # its player was let go meanwhile: nobody waits for it
                self._broken(sides, exc)
                return
            self.thinking = None
            if version != self.version or job.held:
                self.publish()
                continue  # the position changed while it thought, or nobody watches
            try:
                index = self.state.play(move)
            except BoardgamesError as exc:
                self.paused = True
                self.notice = f"the AI {sides.spec} chose a bad move: {exc}"
                self.publish()
                return
            elapsed = time.monotonic() - job.started
            self._played(index, side, sides.spec, elapsed, info)
            self.publish()

    def _broken(self, side: Side, exc: Exception) -> None:
        self.paused = True
        self.notice = f"the AI {side.spec} failed: {type(exc).__name__}: {exc}"
        self.publish()

    def check_hint(self) -> None:
        """ConflictError (or IllegalMoveError) when a hint cannot be asked for now."""
        if self.state.is_over():
            raise IllegalMoveError("hint", "the game is over")
        if not self.sides[self.state.to_move].human or self.thinking is not None:
            raise ConflictError("a hint is for a human's turn")
        if self.hinting is not None:
            raise ConflictError("a hint is already being worked out")

    async def hint_move(self, helper: Side) -> dict[str, Any]:
        """`helper`'s best move for the human to move (streamed like an AI's search)."""
        self.check_hint()
        assert helper.player is not None and helper.spec is not None
        version, side = self.version, self.state.to_move
        can = capabilities(helper.player)
        job = Job("hint", side, helper.spec, helper.time, can["live"], can["stoppable"])
        self.hinting = job
        self.publish()
        try:
            move, info = await self._run_job(job, helper.player)
        finally:
            self.hinting = None
        if version != self.version:
            self.publish()
            raise ConflictError("the position changed while the hint was worked out")
        self.hint = {"move": move, "name": self.game.format_move(move), "info": info}
        self.publish()
        return self.hint

    def hint_spec(self) -> str:
        """Hints come from the game's default AI (the strongest it has)."""
        return "default"

    def hint_time(self) -> float:
        """The hint thinks as long as the game's AI does (DEFAULT_TIME without one)."""
        return next((s.time for s in self.sides if s.spec is not None), DEFAULT_TIME)

    def close(self) -> None:
        """Stop whatever is thinking and tell the pages (the server is closing,
        or dropped this game)."""
        for job in (self.thinking, self.hinting):
            if job is not None:
                job.stop.set()
        for side in self.sides:
            side.release()
        self.viewers.end()
        if self.task is not None:
            self.task.cancel()
