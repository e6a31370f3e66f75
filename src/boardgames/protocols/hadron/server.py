"""The Hadron tournament server: referees games between two connected clients."""

from __future__ import annotations

import contextlib
import socket
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...errors import NotationError, ProtocolError, quote
from ...game import End, Game
from ...match.records import GameRecord
from ...options import MAX_SECONDS, check_real, check_seconds, check_whole
from .wire import (
    COLOURS,
    DEFAULT_HOST,
    DEFAULT_PORT,
    DEFAULT_TIME_LIMIT,
    MAX_BAD_LINES,
    NETWORK_ALLOWANCE,
    LineChannel,
    Log,
    check_port,
    optional_seconds,
    parse_move_line,
    quiet,
    readable_now,
    wait_readable,
)


@dataclass
class ServerGame:
    """How one served game went."""

    record: GameRecord
    errors: list[str] = field(default_factory=list)


class _Forfeit(Exception):
    """Ends a served game: `loser` lost by `end` (a timeout, an illegal move,
    bad lines, a lost connection) for `why`."""

    def __init__(self, loser: int, end: End, why: str) -> None:
        super().__init__(why)
        self.loser, self.end, self.why = loser, end, why


class _Referee:
    """One served game: reads both clients all the time and answers at once."""

    def __init__(self, server: HadronServer, channels: tuple[LineChannel, LineChannel]) -> None:
        self.server = server
        self.game = server.game
        self.channels = channels
        self.state = self.game.new_state()
        self.served = ServerGame(GameRecord.from_state(self.state, players=COLOURS))
        self.bad_lines = [0, 0]

    def play(self) -> ServerGame:
        record = self.served.record
        try:
            while not self.state.is_over():
                self.turn()
            record.finish(self.state)
            loser, how = self.state.to_move, record.reason  # no move left: lost
            self.channels[loser].send("DEFEAT")
        except _Forfeit as forfeit:
            loser, how = forfeit.loser, f"{forfeit.end.value}: {forfeit.why}"
            record.forfeit(self.state, loser, forfeit.end, forfeit.why)
            if forfeit.end in (End.CRASH, End.MALFORMED):  # tell the offender, if it listens
                self.channels[loser].send(f"MESSAGE error: {forfeit.why}")
                self.channels[loser].send("DEFEAT")
        self.channels[1 - loser].send("VICTORY")
        self.server.log(f"{COLOURS[1 - loser]} wins ({how})")
        return self.served

    def turn(self) -> None:
        mover = self.state.to_move
        me, other = self.channels[mover], self.channels[1 - mover]
        self.refuse_early_lines()
        me.send("YOUR_TURN")
        started = _time.perf_counter()
        move = self.await_move(started + self.server.time_limit + self.server.allowance)
        if move is None:
            me.send("TIMEOUT")
            raise _Forfeit(mover, End.TIMEOUT, f"no move in {self.server.time_limit:g} s")
        name = self.game.format_move(move)
        reason = self.state.illegal_reason(move)
        if reason is not None:
            text = f"illegal move: {name} ({reason})"
            me.send(f"MESSAGE {text}")
            me.send("DEFEAT")
            raise _Forfeit(mover, End.ILLEGAL, text)
        self.state.make(move)
        self.served.record.moves.append(name)
        self.served.record.times.append(round(_time.perf_counter() - started, 3))
        me.send("VALID_MOVE")
        other.send(f"OPPONENT_MOVE {name}")
        self.server.log(f"{COLOURS[mover]} plays {name}")

    def refuse_early_lines(self) -> None:
        """Refuse, from either side alike, every line that reached the server
        before this turn's YOUR_TURN: a move sent before the game began (White
        connected, Black not yet) or before the client's turn came.  One read
        per client (what has arrived), so a flooding client cannot hold it."""
        for side in readable_now(self.channels):
            self.guard(side, self.channels[side].receive)
        for side in (0, 1):
            while (line := self.next_line(side)) is not None:
                self.complain(side, line, "not your turn")

    def await_move(self, deadline: float) -> int | None:
        """The mover's first well-formed move, or None at the deadline; every
        other line, from either side, is answered as it comes."""
        mover = self.state.to_move
        while True:
            for side in (1 - mover, mover):  # what the other side said came first
                while (line := self.next_line(side)) is not None:
                    if side != mover:
                        self.complain(side, line, "not your turn")
                        continue
                    try:
                        return parse_move_line(self.game, line)
                    except NotationError as exc:
                        self.complain(side, line, exc.reason or "cannot parse")
            ready = wait_readable(self.channels, deadline)
            if not ready:
                return None
            for side, channel in enumerate(self.channels):
                if channel in ready:
                    self.guard(side, channel.receive)

    def next_line(self, side: int) -> str | None:
        return self.guard(side, self.channels[side].next_line)

    def guard(self, side: int, read: Callable[[], str | None]) -> str | None:
        """`read()`; a lost connection loses the game (a crash), and so does a
        line too long to be a move (malformed)."""
        try:
            return read()
        except ProtocolError as exc:
            end = End.CRASH if self.channels[side].closed else End.MALFORMED
            raise _Forfeit(side, end, f"{COLOURS[side]} {exc}") from None

    def complain(self, side: int, line: str, reason: str) -> None:
        if not line:
            return
        message = f"error: {quote(line)}: {reason}"
        self.served.errors.append(message)
        self.channels[side].send(f"MESSAGE {message}")
        self.server.log(f"{COLOURS[side]}: {message}")
        self.bad_lines[side] += 1
        if self.bad_lines[side] > self.server.max_bad_lines:
            limit = self.server.max_bad_lines
            why = f"{COLOURS[side]} sent more than {limit} bad lines"
            raise _Forfeit(side, End.MALFORMED, why)


class HadronServer:
    """A tournament server for two clients per game (loopback by default).

    `time_limit` (seconds per move, as checked by options.check_seconds) and
    `allowance` (extra seconds for the network) are checked here, so neither
    the CLI nor the Python API can give NaN, infinities or absurd values.
    """

    def __init__(
        self,
        game: Game[Any],
        *,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        time_limit: float = DEFAULT_TIME_LIMIT,
        allowance: float = NETWORK_ALLOWANCE,
        max_bad_lines: int = MAX_BAD_LINES,
        log: Log = quiet,
    ) -> None:
        self.game = game
        self.time_limit = check_seconds("time_limit", time_limit)
        self.allowance = check_real("allowance", allowance, 0, MAX_SECONDS, unit="seconds")
        self.max_bad_lines = check_whole("max_bad_lines", max_bad_lines, 0)
        self.log = log
        self.listener = socket.create_server((host, check_port(port, 0)), reuse_port=False)
        self.address: tuple[str, int] = self.listener.getsockname()[:2]

    @property
    def port(self) -> int:
        """The port the server listens on."""
        return self.address[1]

    def close(self) -> None:
        """Stop listening."""
        with contextlib.suppress(OSError):
            self.listener.close()

    def __enter__(self) -> HadronServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def serve(self, games: int = 1, accept_timeout: float | None = None) -> list[ServerGame]:
        """Play `games` games, each between the next two clients to connect."""
        games = check_whole("games", games, 0)
        self.listener.settimeout(optional_seconds("accept_timeout", accept_timeout))
        results = []
        for _ in range(games):
            channels: list[LineChannel] = []
            try:
                for colour in COLOURS:
                    sock, peer = self.listener.accept()
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    channel = LineChannel(sock)
                    channels.append(channel)
                    channel.send(f"WELCOME {colour}")
                    self.log(f"{colour} connected from {peer[0]}:{peer[1]}")
                results.append(self.play(channels[0], channels[1]))
            finally:
                for channel in channels:
                    channel.close()
        return results

    def play(self, white: LineChannel, black: LineChannel) -> ServerGame:
        """Referee one game between two connected clients."""
        return _Referee(self, (white, black)).play()
