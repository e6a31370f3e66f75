"""The Hadron tournament client: plays one game for any AI."""

from __future__ import annotations

import socket
import time as _time
from dataclasses import dataclass
from typing import Any

from ...budget import Limits
from ...errors import BoardgamesError, ProtocolError, quote
from ...game import Game, State
from ...options import MAX_SECONDS, check_real, check_seconds
from ...players import Player
from .wire import (
    COLOURS,
    DEFAULT_TIME_LIMIT,
    LineChannel,
    Log,
    check_port,
    optional_seconds,
    quiet,
)


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
        """Whether the server declared this client the winner."""
        return self.outcome == "VICTORY"


OUTCOMES = ("VICTORY", "DEFEAT", "TIMEOUT")


class _ClientGame:
    """One game as a client sees it; each `on_*` method handles one server line
    and raises ProtocolError when the line breaks the protocol."""

    def __init__(self, client: HadronClient, channel: LineChannel) -> None:
        self.client = client
        self.game = client.game
        self.channel = channel
        self.state: State[Any] = self.game.new_state()
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
        limit = max(0.05, self.client.time_limit - self.client.margin)
        self.sent = self.client.player.choose(self.state, Limits(time=limit))
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
        game: Game[Any],
        player: Player[Any],
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        margin: float = 0.15,
        idle_timeout: float | None = None,
        log: Log = quiet,
    ) -> None:
        self.game = game
        self.player = player
        self.time_limit = check_seconds("time_limit", time_limit)
        self.margin = check_real("margin", margin, 0, MAX_SECONDS, unit="seconds")
        self.idle_timeout = optional_seconds("idle_timeout", idle_timeout)
        self.log = log

    def play(self, host: str, port: int, connect_timeout: float = 10.0) -> ClientResult:
        """Connect to the server at `host`:`port` and play one game to its end.

        Raises:
            ProtocolError: the connection failed, or the game did not finish."""
        connect_timeout = check_seconds("connect_timeout", connect_timeout)
        try:
            sock = socket.create_connection((host, check_port(port, 1)), timeout=connect_timeout)
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
