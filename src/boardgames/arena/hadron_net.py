"""The Hadron tournament's TCP line protocol: a client for any AI and a server.

The protocol (Calabria 2022/23, see RULES.md): one line per message, UTF-8.

    server -> client: WELCOME White|Black, YOUR_TURN, OPPONENT_MOVE <cell>,
                      VALID_MOVE, VICTORY, DEFEAT, TIMEOUT, MESSAGE <text>
    client -> server: MOVE <cell>

The first client to connect plays White, who moves first.  A move must
arrive within the per-move limit (2 s by default).

Conventions of this server where the tournament's description is silent:
- a line that is not `MOVE <cell>` with a readable cell, or that comes when
  it is not the client's turn, gets `MESSAGE error: <line>: <reason>` at
  once and changes nothing; the clock keeps running (the server reads both
  clients all the time);
- a well-formed illegal move loses: `MESSAGE illegal move: ...`, then
  `DEFEAT` to the mover and `VICTORY` to the opponent;
- a move later than the limit (plus a small network allowance) loses:
  `TIMEOUT` to the late client, `VICTORY` to the opponent;
- a client that disconnects loses at once, whoever's turn it is; the
  opponent gets `VICTORY`;
- so does a client that sends a line longer than MAX_LINE bytes or more
  than MAX_BAD_LINES bad lines in a game: it gets `MESSAGE error: ...` and
  `DEFEAT`;
- at the normal end the player to move, who has no legal cell, gets
  `DEFEAT` and the other `VICTORY`.
The server listens on the loopback interface unless told otherwise.

The client is strict: a server line that breaks the protocol (an unknown
line, a move out of turn, a bad WELCOME, ...) or a connection that ends
before VICTORY, DEFEAT or TIMEOUT raises ProtocolError, naming the line.
"""

from __future__ import annotations

import contextlib
import select
import socket
import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NoReturn

from ..errors import BoardgamesError, NotationError, ProtocolError
from ..game import Game, State
from ..options import MAX_SECONDS, check_real, check_seconds, check_whole, quote
from ..players import Player
from .network import NetworkProtocol, register_network_protocol
from .records import GameRecord

DEFAULT_PORT = 8901
DEFAULT_HOST = "127.0.0.1"
DEFAULT_TIME_LIMIT = 2.0
#: Extra seconds the server allows for network and process latency.
NETWORK_ALLOWANCE = 0.25
COLOURS = ("White", "Black")
#: Longest line either side reads (bytes, without the newline); a longer one
#: breaks the protocol, so a peer cannot make us buffer without bound.
MAX_LINE = 4096
#: Bad lines (answered `MESSAGE error: ...`) a client may send in one game.
MAX_BAD_LINES = 100
#: Longest wait for the peer to take a line we send (it does not read).
SEND_TIMEOUT = 10.0
#: Bytes read from a socket at a time.
CHUNK = 65536

Log = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


def _check_port(port: object, low: int) -> int:
    return check_whole("port", port, low, 65535)


def _optional_seconds(name: str, value: object) -> float | None:
    return None if value is None else check_seconds(name, value)


class LineChannel:
    """Lines of at most `max_line` bytes over a socket, with deadlines.

    Garbage is returned as text (undecodable bytes replaced); ProtocolError
    when the peer goes away or sends an over-long line.  Its messages read
    after the peer's name: "closed the connection".
    """

    def __init__(self, sock: socket.socket, max_line: int = MAX_LINE) -> None:
        self.sock = sock
        self.max_line = check_whole("max_line", max_line)
        self.buffer = b""
        self.closed = False
        self.failure: str | None = None
        with contextlib.suppress(OSError):
            sock.settimeout(SEND_TIMEOUT)  # reads wait in select, never here

    def fileno(self) -> int:
        return self.sock.fileno()

    def send(self, line: str) -> None:
        """Send one line; a peer that is gone (or never reads) is marked closed."""
        if self.closed:
            return
        try:
            self.sock.sendall(line.encode("utf-8") + b"\n")
        except OSError:
            self.closed = True

    def _fail(self, message: str, *, closed: bool = False) -> NoReturn:
        self.failure = message
        self.closed = self.closed or closed
        raise ProtocolError(message)

    def receive(self) -> None:
        """Read what the socket has; call it when select says it is readable."""
        if self.failure is not None:
            raise ProtocolError(self.failure)
        if self.closed:
            self._fail("closed the connection")
        try:
            data = self.sock.recv(CHUNK)
        except (BlockingIOError, TimeoutError):
            return
        except OSError as exc:
            self._fail(f"connection failed: {exc.strerror or exc}", closed=True)
        if not data:
            self._fail("closed the connection", closed=True)
        self.buffer += data

    def next_line(self) -> str | None:
        """The next line already received (without its newline), or None."""
        if self.failure is not None:
            raise ProtocolError(self.failure)
        end = self.buffer.find(b"\n")
        length = len(self.buffer) if end < 0 else len(self.buffer[:end].rstrip(b"\r"))
        if length > self.max_line:
            start = self.buffer[:30].decode("utf-8", errors="replace")
            self.buffer = b""
            self._fail(f"sent a line longer than {self.max_line} bytes: {quote(start)}...")
        if end < 0:
            return None
        line, self.buffer = self.buffer[:end], self.buffer[end + 1 :]
        return line.decode("utf-8", errors="replace").strip()

    def read_line(self, deadline: float | None = None) -> str | None:
        """The next line, or None when `deadline` (perf_counter time) passes first."""
        while (line := self.next_line()) is None:
            if not wait_readable([self], deadline):
                return None
            self.receive()
        return line

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError):
            self.sock.close()


def wait_readable(channels: Sequence[LineChannel], deadline: float | None) -> list[LineChannel]:
    """The channels with data (or an end) to read, waiting until `deadline` at most."""
    timeout = None if deadline is None else deadline - _time.perf_counter()
    if timeout is not None and timeout <= 0:
        return []
    closed = [channel for channel in channels if channel.closed]
    if closed:  # reading a closed channel reports its end at once
        return closed
    ready, _, _ = select.select(list(channels), [], [], timeout)
    return ready


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


class _Forfeit(Exception):
    """Ends a served game: `loser` lost by `reason` ("timeout", "illegal", "crash")."""

    def __init__(self, loser: int, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.loser, self.reason, self.detail = loser, reason, detail


class _Referee:
    """One served game: reads both clients all the time and answers at once."""

    def __init__(self, server: HadronServer, channels: tuple[LineChannel, LineChannel]) -> None:
        self.server = server
        self.game = server.game
        self.channels = channels
        self.state = self.game.new_state()
        record = GameRecord(
            game=self.game.name, params=dict(self.game.params), players=list(COLOURS)
        )
        self.served = ServerGame(record)
        self.bad_lines = [0, 0]

    def play(self) -> ServerGame:
        try:
            while not self.state.is_over():
                self.turn()
            loser = self.state.to_move
            self.channels[loser].send("DEFEAT")
            return self.finish(loser, "normal", "")
        except _Forfeit as forfeit:
            return self.finish(forfeit.loser, forfeit.reason, forfeit.detail)

    def turn(self) -> None:
        mover = self.state.to_move
        me, other = self.channels[mover], self.channels[1 - mover]
        me.send("YOUR_TURN")
        started = _time.perf_counter()
        move = self.await_move(started + self.server.time_limit + self.server.allowance)
        if move is None:
            me.send("TIMEOUT")
            raise _Forfeit(mover, "timeout", f"no move in {self.server.time_limit:g} s")
        name = self.game.format_move(move)
        reason = self.state.illegal_reason(move)
        if reason is not None:
            text = f"illegal move: {name} ({reason})"
            me.send(f"MESSAGE {text}")
            me.send("DEFEAT")
            raise _Forfeit(mover, "illegal", text)
        self.state.make(move)
        self.served.record.moves.append(name)
        self.served.record.times.append(round(_time.perf_counter() - started, 3))
        me.send("VALID_MOVE")
        other.send(f"OPPONENT_MOVE {name}")
        self.server.log(f"{COLOURS[mover]} plays {name}")

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
        try:
            return read()
        except ProtocolError as exc:
            raise _Forfeit(side, "crash", f"{COLOURS[side]} {exc}") from None

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
            raise _Forfeit(side, "crash", f"{COLOURS[side]} sent more than {limit} bad lines")

    def finish(self, loser: int, reason: str, detail: str) -> ServerGame:
        record = self.served.record
        winner = 1 - loser
        record.winner, record.reason, record.detail = winner, reason, detail
        record.result = self.game.player_names[winner]
        if reason == "crash":  # tell the offender, if it still listens
            self.channels[loser].send(f"MESSAGE error: {detail}")
            self.channels[loser].send("DEFEAT")
        self.channels[winner].send("VICTORY")
        self.server.log(f"{COLOURS[winner]} wins ({reason}{': ' + detail if detail else ''})")
        return self.served


class HadronServer:
    """A tournament server for two clients per game (loopback by default).

    `time_limit` (seconds per move, as checked by options.check_seconds) and
    `allowance` (extra seconds for the network) are checked here, so neither
    the CLI nor the Python API can give NaN, infinities or absurd values.
    """

    def __init__(
        self,
        game: Game,
        *,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        time_limit: float = DEFAULT_TIME_LIMIT,
        allowance: float = NETWORK_ALLOWANCE,
        max_bad_lines: int = MAX_BAD_LINES,
        log: Log = _quiet,
    ) -> None:
        self.game = game
        self.time_limit = check_seconds("time_limit", time_limit)
        self.allowance = check_real("allowance", allowance, 0, MAX_SECONDS, unit="seconds")
        self.max_bad_lines = check_whole("max_bad_lines", max_bad_lines, 0)
        self.log = log
        self.listener = socket.create_server((host, _check_port(port, 0)), reuse_port=False)
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
        games = check_whole("games", games, 0)
        self.listener.settimeout(_optional_seconds("accept_timeout", accept_timeout))
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


# --- the client ----------------------------------------------------------------------


@dataclass
class ClientResult:
    """What a client saw: its colour, the moves, the outcome line."""

    colour: int
    outcome: str  # "VICTORY", "DEFEAT" or "TIMEOUT"
    moves: list[str]
    messages: list[str]
    think_times: list[float]

    @property
    def won(self) -> bool:
        return self.outcome == "VICTORY"


OUTCOMES = ("VICTORY", "DEFEAT", "TIMEOUT")


class _ClientGame:
    """One game as a client sees it; each `on_*` method handles one server line
    and raises ProtocolError when the line breaks the protocol."""

    def __init__(self, client: HadronClient, channel: LineChannel) -> None:
        self.client = client
        self.game = client.game
        self.channel = channel
        self.state: State = self.game.new_state()
        self.result = ClientResult(colour=-1, outcome="", moves=[], messages=[], think_times=[])
        self.sent: int | None = None  # our move, until VALID_MOVE
        self.line = ""

    def broken(self, why: str) -> ProtocolError:
        return ProtocolError(f"the server sent {quote(self.line)}: {why}")

    def run(self, welcome_deadline: float | None) -> ClientResult:
        handlers = {
            "WELCOME": self.on_welcome,
            "YOUR_TURN": self.on_your_turn,
            "VALID_MOVE": self.on_valid_move,
            "OPPONENT_MOVE": self.on_opponent_move,
            "MESSAGE": self.on_message,
        }
        while not self.result.outcome:
            self.line = self.read(welcome_deadline)
            if not self.line:
                continue
            command, _, argument = self.line.partition(" ")
            command = command.upper()
            if command not in handlers and command not in OUTCOMES:
                raise self.broken("not a line of the protocol")
            if self.result.colour < 0 and command not in ("WELCOME", "MESSAGE"):
                raise self.broken("a game line before WELCOME")
            if command in OUTCOMES:
                self.result.outcome = command
            else:
                handlers[command](argument.strip())
        self.client.log(f"game over: {self.result.outcome}")
        return self.result

    def read(self, welcome_deadline: float | None) -> str:
        if self.result.colour < 0:
            deadline, silence = welcome_deadline, "no WELCOME from the server"
        else:
            idle = self.client.idle_timeout
            deadline = None if idle is None else _time.perf_counter() + idle
            silence = f"the server was silent for {idle:g} s" if idle is not None else ""
        moves = f"after {len(self.result.moves)} moves"
        try:
            line = self.channel.read_line(deadline)
        except ProtocolError as exc:
            ended = " before the game ended" if self.channel.closed else ""
            raise ProtocolError(f"the server {exc}{ended} ({moves})") from None
        if line is None:
            raise ProtocolError(f"{silence} ({moves})")
        return line

    def on_welcome(self, colour: str) -> None:
        if self.result.colour >= 0:
            raise self.broken("a second WELCOME")
        if colour.capitalize() not in COLOURS:
            raise self.broken("expected WELCOME White or WELCOME Black")
        self.result.colour = COLOURS.index(colour.capitalize())
        self.client.log(f"playing {COLOURS[self.result.colour]}")

    def on_your_turn(self, _: str) -> None:
        if self.state.is_over():
            raise self.broken("the game is over")
        if self.state.to_move != self.result.colour or self.sent is not None:
            raise self.broken("it is not our turn")
        received = _time.perf_counter()
        budget = max(0.05, self.client.time_limit - self.client.margin)
        self.sent = self.client.player.choose(self.state, budget)
        self.channel.send(f"MOVE {self.game.format_move(self.sent)}")
        self.result.think_times.append(_time.perf_counter() - received)

    def on_valid_move(self, _: str) -> None:
        if self.sent is None:
            raise self.broken("we had sent no move")
        self.state.make(self.sent)
        self.result.moves.append(self.game.format_move(self.sent))
        self.sent = None

    def on_opponent_move(self, cell: str) -> None:
        if self.state.to_move == self.result.colour:
            raise self.broken("it is our turn, not the opponent's")
        try:
            self.state.play(cell)
        except BoardgamesError as exc:
            raise self.broken(getattr(exc, "reason", "") or "not a move") from None
        self.result.moves.append(self.game.format_move(self.state.history[-1]))

    def on_message(self, text: str) -> None:
        self.result.messages.append(text)
        self.client.log(f"server: {quote(text, 200)}")


class HadronClient:
    """Plays one game on a tournament server with any Player.

    The player gets the per-move limit minus `margin` (for the network and
    the process), so a search player never misses the server's limit.
    `idle_timeout` (seconds, None = wait as long as it takes) bounds the
    wait for any server line after WELCOME; WELCOME itself must come within
    `play`'s connect_timeout.  `play` returns only after a properly finished
    game (VICTORY, DEFEAT or TIMEOUT) and raises ProtocolError otherwise.
    """

    def __init__(
        self,
        game: Game,
        player: Player,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        margin: float = 0.15,
        idle_timeout: float | None = None,
        log: Log = _quiet,
    ) -> None:
        self.game = game
        self.player = player
        self.time_limit = check_seconds("time_limit", time_limit)
        self.margin = check_real("margin", margin, 0, MAX_SECONDS, unit="seconds")
        self.idle_timeout = _optional_seconds("idle_timeout", idle_timeout)
        self.log = log

    def play(self, host: str, port: int, connect_timeout: float = 10.0) -> ClientResult:
        connect_timeout = check_seconds("connect_timeout", connect_timeout)
        try:
            sock = socket.create_connection((host, _check_port(port, 1)), timeout=connect_timeout)
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise ProtocolError(f"cannot connect to {quote(host)} port {port}: {reason}") from None
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        channel = LineChannel(sock)
        try:
            return self.run(channel, _time.perf_counter() + connect_timeout)
        finally:
            channel.close()

    def run(self, channel: LineChannel, welcome_deadline: float | None = None) -> ClientResult:
        """Play the game on a connected channel (WELCOME by `welcome_deadline`)."""
        self.player.reset()
        return _ClientGame(self, channel).run(welcome_deadline)


PROTOCOL = NetworkProtocol("hadron", HadronClient, HadronServer, DEFAULT_PORT, DEFAULT_TIME_LIMIT)
register_network_protocol(PROTOCOL)  # what `serve hadron` and `connect hadron` speak
