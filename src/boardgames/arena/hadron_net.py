"""The Hadron tournament's TCP line protocol: a client for any AI and a server.

The protocol (Calabria 2022/23, see RULES.md): one line per message, UTF-8.

    server -> client: WELCOME White|Black, YOUR_TURN, OPPONENT_MOVE <cell>,
                      VALID_MOVE, VICTORY, DEFEAT, TIMEOUT, MESSAGE <text>
    client -> server: MOVE <cell>

The first client to connect plays White, who moves first.  A move must
arrive within the per-move limit (2 s by default).

Conventions of this server where the tournament's description is silent:
- a line that is not `MOVE <cell>` with a readable cell (or that comes when
  it is not the client's turn) gets `MESSAGE error: <reason>` and changes
  nothing; the clock keeps running;
- a well-formed illegal move loses: `MESSAGE illegal move: ...`, then
  `DEFEAT` to the mover and `VICTORY` to the opponent;
- a move later than the limit (plus a small network allowance) loses:
  `TIMEOUT` to the late client, `VICTORY` to the opponent;
- a client that disconnects loses; the opponent gets `VICTORY`;
- at the normal end the player to move, who has no legal cell, gets
  `DEFEAT` and the other `VICTORY`.
The server listens on the loopback interface unless told otherwise.
"""

from __future__ import annotations

import contextlib
import select
import socket
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import BoardgamesError, NotationError, ProtocolError
from ..game import Game, State
from ..players import Player
from .records import GameRecord

DEFAULT_PORT = 8901
DEFAULT_HOST = "127.0.0.1"
DEFAULT_TIME_LIMIT = 2.0
#: Extra seconds the server allows for network and process latency.
NETWORK_ALLOWANCE = 0.25
COLOURS = ("White", "Black")
MAX_LINE = 4096

Log = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


class LineChannel:
    """Lines over a socket with deadlines; never raises on garbage, only on a lost peer."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""
        self.closed = False

    def send(self, line: str) -> None:
        if self.closed:
            return
        try:
            self.sock.sendall(line.encode("utf-8") + b"\n")
        except OSError:
            self.closed = True

    def _fill(self, timeout: float | None) -> bool:
        """Read what is there (waiting up to `timeout`); False on timeout."""
        if self.closed:
            raise ProtocolError("connection closed")
        ready, _, _ = select.select([self.sock], [], [], timeout)
        if not ready:
            return False
        try:
            data = self.sock.recv(65536)
        except OSError as exc:
            self.closed = True
            raise ProtocolError(f"connection lost: {exc}") from None
        if not data:
            self.closed = True
            raise ProtocolError("connection closed by peer")
        self.buffer += data
        if len(self.buffer) > MAX_LINE and b"\n" not in self.buffer:
            self.buffer = b""  # an endless line: drop it rather than grow forever
        return True

    def read_line(self, deadline: float | None = None) -> str | None:
        """The next line, or None when `deadline` (perf_counter time) passes first."""
        while b"\n" not in self.buffer:
            timeout = None if deadline is None else max(0.0, deadline - _time.perf_counter())
            if not self._fill(timeout) and deadline is not None:
                return None
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace").strip()

    def pending_lines(self) -> list[str]:
        """Lines that already arrived (without waiting)."""
        lines = []
        try:
            while self._fill(0):
                pass
        except ProtocolError:
            pass
        while b"\n" in self.buffer:
            line, _, self.buffer = self.buffer.partition(b"\n")
            lines.append(line.decode("utf-8", errors="replace").strip())
        return lines

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError):
            self.sock.close()


def parse_move_line(game: Game, line: str) -> int:
    """The move of a `MOVE <cell>` line; NotationError with the reason otherwise."""
    command, _, argument = line.strip().partition(" ")
    if command.upper() != "MOVE":
        raise NotationError(line, "expected MOVE <cell>")
    if not argument.strip():
        raise NotationError(line, "MOVE needs a cell, e.g. MOVE E5")
    return game.parse_move(argument.strip())


# --- the server ----------------------------------------------------------------------


@dataclass
class ServerGame:
    """How one served game went."""

    record: GameRecord
    errors: list[str] = field(default_factory=list)


class HadronServer:
    """A tournament server for two clients per game (loopback by default)."""

    def __init__(
        self,
        game: Game,
        *,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        time_limit: float = DEFAULT_TIME_LIMIT,
        allowance: float = NETWORK_ALLOWANCE,
        log: Log = _quiet,
    ) -> None:
        self.game = game
        self.time_limit = time_limit
        self.allowance = allowance
        self.log = log
        self.listener = socket.create_server((host, port), reuse_port=False)
        self.address: tuple[str, int] = self.listener.getsockname()[:2]

    @property
    def port(self) -> int:
        return self.address[1]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.close()

    def __enter__(self) -> HadronServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def serve(self, games: int = 1, accept_timeout: float | None = None) -> list[ServerGame]:
        """Play `games` games, each between the next two clients to connect."""
        results = []
        for _ in range(games):
            channels = []
            try:
                for colour in COLOURS:
                    self.listener.settimeout(accept_timeout)
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
        game = self.game
        state = game.new_state()
        record = GameRecord(game=game.name, params=dict(game.params), players=list(COLOURS))
        served = ServerGame(record)
        channels = (white, black)

        def finish(winner: int, reason: str, detail: str = "") -> ServerGame:
            record.winner, record.reason, record.detail = winner, reason, detail
            record.result = game.player_names[winner]
            channels[winner].send("VICTORY")
            self.log(f"{COLOURS[winner]} wins ({reason}{': ' + detail if detail else ''})")
            return served

        while True:
            mover = state.to_move
            me, other = channels[mover], channels[1 - mover]
            if state.is_over():
                me.send("DEFEAT")
                return finish(1 - mover, "normal")
            for line in other.pending_lines():
                self._complain(other, served, line, "not your turn")
            for line in me.pending_lines():
                self._complain(me, served, line, "not your turn")
            me.send("YOUR_TURN")
            started = _time.perf_counter()
            deadline = started + self.time_limit + self.allowance
            move = None
            try:
                while move is None:
                    line = me.read_line(deadline)
                    if line is None:
                        me.send("TIMEOUT")
                        return finish(1 - mover, "timeout", f"no move in {self.time_limit:g} s")
                    try:
                        move = parse_move_line(game, line)
                    except NotationError as exc:
                        self._complain(me, served, line, str(exc))
            except ProtocolError as exc:
                return finish(1 - mover, "crash", f"{COLOURS[mover]}: {exc}")
            reason = state.illegal_reason(move)
            if reason is not None:
                text = f"illegal move: {game.format_move(move)} ({reason})"
                me.send(f"MESSAGE {text}")
                me.send("DEFEAT")
                return finish(1 - mover, "illegal", text)
            state.make(move)
            record.moves.append(game.format_move(move))
            record.times.append(round(_time.perf_counter() - started, 3))
            me.send("VALID_MOVE")
            other.send(f"OPPONENT_MOVE {game.format_move(move)}")
            self.log(f"{COLOURS[mover]} plays {game.format_move(move)}")

    def _complain(self, channel: LineChannel, served: ServerGame, line: str, reason: str) -> None:
        if not line:
            return
        message = f"error: {reason}" if reason.startswith("cannot parse") else (
            f"error: {line!r}: {reason}"
        )
        served.errors.append(message)
        channel.send(f"MESSAGE {message}")
        self.log(message)


# --- the client ----------------------------------------------------------------------


@dataclass
class ClientResult:
    """What a client saw: its colour, the moves, the outcome line."""

    colour: int
    outcome: str  # "VICTORY", "DEFEAT", "TIMEOUT" or "DISCONNECTED"
    moves: list[str]
    messages: list[str]
    think_times: list[float]

    @property
    def won(self) -> bool:
        return self.outcome == "VICTORY"


class HadronClient:
    """Plays one game on a tournament server with any Player.

    The player gets the per-move limit minus `margin` (for the network and
    the process), so a search player never misses the server's limit.
    """

    def __init__(
        self,
        game: Game,
        player: Player,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        margin: float = 0.15,
        log: Log = _quiet,
    ) -> None:
        self.game = game
        self.player = player
        self.time_limit = time_limit
        self.margin = margin
        self.log = log

    def play(self, host: str, port: int, connect_timeout: float = 10.0) -> ClientResult:
        sock = socket.create_connection((host, port), timeout=connect_timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        channel = LineChannel(sock)
        try:
            return self.run(channel)
        finally:
            channel.close()

    def run(self, channel: LineChannel) -> ClientResult:
        game = self.game
        state: State = game.new_state()
        self.player.reset()
        result = ClientResult(colour=-1, outcome="DISCONNECTED", moves=[], messages=[],
                              think_times=[])
        sent: int | None = None
        while True:
            try:
                line = channel.read_line()
            except ProtocolError as exc:
                self.log(f"server gone: {exc}")
                return result
            if line is None or not line:
                continue
            received = _time.perf_counter()
            command, _, argument = line.partition(" ")
            command = command.upper()
            if command == "WELCOME":
                colour = argument.strip().capitalize()
                if colour not in COLOURS:
                    self.log(f"ignoring bad WELCOME line: {line!r}")
                    continue
                result.colour = COLOURS.index(colour)
                self.log(f"playing {colour}")
            elif command == "YOUR_TURN":
                if state.is_over():
                    self.log("asked to move in a finished game; waiting")
                    continue
                budget = max(0.05, self.time_limit - self.margin)
                sent = self.player.choose(state, budget)
                channel.send(f"MOVE {game.format_move(sent)}")
                result.think_times.append(_time.perf_counter() - received)
            elif command == "VALID_MOVE":
                if sent is None:
                    self.log("VALID_MOVE without a move; ignored")
                    continue
                state.make(sent)
                result.moves.append(game.format_move(sent))
                sent = None
            elif command == "OPPONENT_MOVE":
                try:
                    state.play(argument.strip())
                except (NotationError, BoardgamesError) as exc:
                    self.log(f"bad opponent move from the server: {exc}")
                    continue
                result.moves.append(game.format_move(state.history[-1]))
            elif command in ("VICTORY", "DEFEAT", "TIMEOUT"):
                result.outcome = command
                self.log(f"game over: {command}")
                return result
            elif command == "MESSAGE":
                result.messages.append(argument)
                self.log(f"server: {argument}")
            else:
                self.log(f"ignoring unknown line: {line!r}")
