"""The Hadron protocol's constants and its line transport: `LineChannel`
reads and writes bounded lines on a socket; `parse_move_line` reads `MOVE <cell>`."""

from __future__ import annotations

import contextlib
import select
import socket
import time as _time
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from ...errors import NotationError, ProtocolError, quote
from ...game import Game
from ...options import check_seconds, check_whole

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


def quiet(_: str) -> None:
    """A log that discards its lines."""
    pass


def check_port(port: object, low: int) -> int:
    """`port` if it is a whole number from `low` to 65535; OptionError otherwise."""
    return check_whole("port", port, low, 65535)


def optional_seconds(name: str, value: object) -> float | None:
    """None, or the value checked as seconds (OptionError for a bad one)."""
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
        """The socket's file descriptor (for `select`)."""
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
        """Close the socket (once; errors ignored)."""
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


def readable_now(channels: Sequence[LineChannel]) -> list[int]:
    """The indices of the channels with data (or an end) to read at once, without waiting."""
    closed = [i for i, channel in enumerate(channels) if channel.closed]
    if closed:
        return closed
    ready, _, _ = select.select(list(channels), [], [], 0)
    return [i for i, channel in enumerate(channels) if channel in ready]


def parse_move_line(game: Game[Any], line: str) -> int:
    """The move of a `MOVE <cell>` line; NotationError with the reason otherwise."""
    command, _, argument = line.strip().partition(" ")
    if command.upper() != "MOVE":
        raise NotationError(line, "expected MOVE <cell>")
    if not argument.strip():
        raise NotationError(line, "MOVE needs a cell, e.g. MOVE E5")
    return game.parse_move(argument.strip())
