"""Faults on the Hadron tournament protocol: bad settings, bad and
over-long lines, servers that break the protocol, clients that misbehave.

Loopback only, free ports, every wait bounded.
"""

from __future__ import annotations

import math
import socket
import threading
import time

import pytest
from click.testing import CliRunner

from boardgames.ai import make_player
from boardgames.cli import main
from boardgames.errors import OptionError, ProtocolError
from boardgames.game import End
from boardgames.protocols.hadron import (
    MAX_LINE,
    HadronClient,
    HadronServer,
    LineChannel,
)
from boardgames.registry import get_game

#: In a fake server's script: wait for one line from the client.
READ = None


class FakeServer:
    """One connection on 127.0.0.1: send a script of lines (str) or raw bytes,
    READ waits for a client line; then hang up and keep what the client said."""

    def __init__(self, script, hold: float = 0.0) -> None:
        self.script = script
        self.hold = hold
        self.heard: list[str] = []
        self.error: BaseException | None = None
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(10)
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            sock, _ = self.listener.accept()
        except OSError as exc:
            self.error = exc
            return
        with sock:
            sock.settimeout(5)
            reader = sock.makefile("rb")
            try:
                for item in self.script:
                    if item is READ:
                        self.heard.append(reader.readline().decode().strip())
                    elif isinstance(item, bytes):
                        sock.sendall(item)
                    else:
                        sock.sendall(item.encode() + b"\n")
                if self.hold:
                    sock.settimeout(self.hold)  # stay silent until the client gives up
                    self.heard += [line.decode().strip() for line in reader]
                sock.shutdown(socket.SHUT_WR)
                sock.settimeout(5)
                self.heard += [line.decode().strip() for line in reader]
            except OSError:
                pass
            finally:
                reader.close()

    def join(self) -> list[str]:
        self.thread.join(15)
        self.listener.close()
        assert not self.thread.is_alive(), "fake server did not finish"
        assert self.error is None, self.error
        return self.heard


def connect_cli(port: int, *extra: str):
    return CliRunner().invoke(
        main,
        ["connect", "hadron", "127.0.0.1", str(port), "--size", "3", "--ai", "random",
         "--seed", "1", "-q", *extra],
    )


def error_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


# --- 2: time limits the library accepts --------------------------------------------


BAD_SECONDS = [math.nan, math.inf, -math.inf, 1e12, 0, -1.0, True, "2"]


@pytest.mark.parametrize("limit", BAD_SECONDS)
def test_server_rejects_bad_time_limits(limit):
    with pytest.raises(OptionError, match="time_limit"):
        HadronServer(get_game("hadron"), port=0, time_limit=limit)


@pytest.mark.parametrize("allowance", [math.nan, math.inf, -0.5])
def test_server_rejects_bad_allowances(allowance):
    with pytest.raises(OptionError, match="allowance"):
        HadronServer(get_game("hadron"), port=0, allowance=allowance)


@pytest.mark.parametrize("limit", BAD_SECONDS)
def test_client_rejects_bad_time_limits(limit):
    game = get_game("hadron")
    with pytest.raises(OptionError, match="time_limit"):
        HadronClient(game, make_player(game, "random"), time_limit=limit)


def test_server_rejects_bad_ports_and_accept_timeouts():
    game = get_game("hadron")
    with pytest.raises(OptionError, match="port"):
        HadronServer(game, port=70000)
    with HadronServer(game, port=0) as srv, pytest.raises(OptionError, match="accept_timeout"):
        srv.serve(1, accept_timeout=math.inf)


@pytest.mark.parametrize("limit", ["inf", "1e12", "nan", "0", "-1"])
def test_serve_command_rejects_bad_time_limits_in_one_line(limit):
    result = CliRunner().invoke(main, ["serve", "hadron", "--port", "0", "--time-limit", limit])
    assert "--time-limit" in error_line(result)


def test_connect_command_rejects_a_port_out_of_range_in_one_line():
    result = CliRunner().invoke(main, ["connect", "hadron", "127.0.0.1", "70000"])
    assert "70000" in error_line(result)


def test_connect_command_reports_a_refused_connection_in_one_line():
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()
    error_line(connect_cli(port))


# --- 15: long lines and raw bytes ---------------------------------------------------


def test_channel_rejects_over_long_lines():
    left, right = socket.socketpair()
    with left, right:
        channel = LineChannel(right)
        left.sendall(b"x" * (MAX_LINE + 10) + b"\nMOVE E5\n")
        with pytest.raises(ProtocolError, match="longer than"):
            channel.read_line(time.perf_counter() + 5)
    left, right = socket.socketpair()
    with left, right:
        channel = LineChannel(right)
        left.sendall(b"y" * (MAX_LINE * 3))  # never a newline: the buffer stays bounded
        with pytest.raises(ProtocolError, match="longer than"):
            channel.read_line(time.perf_counter() + 5)
        assert len(channel.buffer) <= MAX_LINE + 65536


def test_channel_reads_a_line_of_the_maximum_length():
    left, right = socket.socketpair()
    with left, right:
        channel = LineChannel(right)
        left.sendall(b"z" * MAX_LINE + b"\r\n")
        assert channel.read_line(time.perf_counter() + 5) == "z" * MAX_LINE


def test_connect_quotes_a_huge_server_line_briefly():
    fake = FakeServer(["WELCOME " + "x" * 54_000])
    line = error_line(connect_cli(fake.port))
    fake.join()
    assert "longer than" in line and len(line) < 200


@pytest.mark.parametrize("junk", [b"\xff\x00\x1b[2J\x07 WELCOME\n", b"WELCOME \x1b[31mWhite\n"])
def test_connect_escapes_raw_bytes_from_the_server(junk):
    fake = FakeServer([junk])
    line = error_line(connect_cli(fake.port))
    fake.join()
    assert all(ch.isprintable() for ch in line), line
    assert "\\x1b" in line or "\\x00" in line


# --- 17: connect fails unless the game finished properly ----------------------------


@pytest.mark.parametrize(
    ("script", "words"),
    [
        ([], "closed the connection"),
        (["WELCOME White"], "closed the connection"),
        (["WELCOME Black", "OPPONENT_MOVE B2", "YOUR_TURN", READ], "closed the connection"),
        (["WELCOME White", "BLAH"], "'BLAH'"),
        (["VICTORY"], "before WELCOME"),
        (["YOUR_TURN"], "before WELCOME"),
        (["WELCOME Purple", "YOUR_TURN"], "'WELCOME Purple'"),
        (["WELCOME White", "WELCOME Black"], "second WELCOME"),
        (["WELCOME Black", "OPPONENT_MOVE Z9"], "'OPPONENT_MOVE Z9'"),
        (["WELCOME Black", "OPPONENT_MOVE B2", "OPPONENT_MOVE B2"], "'OPPONENT_MOVE B2'"),
        (["WELCOME Black", "VALID_MOVE"], "'VALID_MOVE'"),
        (["WELCOME Black", "YOUR_TURN"], "'YOUR_TURN'"),
    ],
)
def test_connect_fails_when_the_server_breaks_the_protocol(script, words):
    fake = FakeServer(script)
    line = error_line(connect_cli(fake.port))
    heard = fake.join()
    assert words in line, line
    if "Purple" in line:
        assert not any(said.startswith("MOVE") for said in heard), heard


def test_client_raises_on_a_protocol_break_and_sends_no_move_after_a_bad_welcome():
    game = get_game("hadron", size=3)
    fake = FakeServer(["WELCOME Purple", "YOUR_TURN"])
    client = HadronClient(game, make_player(game, "random", seed=1))
    with pytest.raises(ProtocolError, match="WELCOME"):
        client.play("127.0.0.1", fake.port)
    assert fake.join() == []


def test_client_gives_up_on_a_silent_server():
    game = get_game("hadron", size=3)
    fake = FakeServer([], hold=5)
    client = HadronClient(game, make_player(game, "random", seed=1))
    started = time.perf_counter()
    with pytest.raises(ProtocolError, match="no WELCOME"):
        client.play("127.0.0.1", fake.port, connect_timeout=0.3)
    assert time.perf_counter() - started < 3
    fake.join()


def test_client_idle_timeout_after_the_welcome():
    game = get_game("hadron", size=3)
    fake = FakeServer(["WELCOME White"], hold=5)
    client = HadronClient(game, make_player(game, "random", seed=1), idle_timeout=0.3)
    started = time.perf_counter()
    with pytest.raises(ProtocolError, match="silent"):
        client.play("127.0.0.1", fake.port)
    assert time.perf_counter() - started < 3
    fake.join()


def test_connect_exits_zero_after_a_proper_game_with_messages_and_blank_lines():
    fake = FakeServer(["MESSAGE hello", "WELCOME Black", "", "OPPONENT_MOVE B2",
                       "MESSAGE your move", "YOUR_TURN", READ, "VALID_MOVE", "DEFEAT"])
    result = connect_cli(fake.port)
    heard = fake.join()
    assert result.exit_code == 0, result.output
    assert heard[0].startswith("MOVE ")
    assert "colour: black" in result.stdout and "result: defeat" in result.stdout
    assert f"moves: B2 {heard[0].split()[1]}" in result.stdout


# --- 18 and the server's own faults -------------------------------------------------


def raw_client(port: int) -> LineChannel:
    return LineChannel(socket.create_connection(("127.0.0.1", port), timeout=10))


def soon(seconds: float = 2.0) -> float:
    return time.perf_counter() + seconds


def two_clients(srv: HadronServer) -> tuple[LineChannel, LineChannel]:
    white = raw_client(srv.port)
    assert white.read_line(soon(5)) == "WELCOME White"
    black = raw_client(srv.port)
    assert black.read_line(soon(5)) == "WELCOME Black"
    assert white.read_line(soon(5)) == "YOUR_TURN"
    return white, black


def serving(srv: HadronServer) -> threading.Thread:
    thread = threading.Thread(target=lambda: srv.results.extend(srv.serve(1, 10)), daemon=True)
    srv.results = []
    thread.start()
    return thread


def finished(thread: threading.Thread, srv: HadronServer):
    thread.join(15)
    assert not thread.is_alive(), "server did not finish"
    (served,) = srv.results
    return served


def test_out_of_turn_move_is_answered_at_once():
    game = get_game("hadron")
    with HadronServer(game, port=0, time_limit=10) as srv:
        thread = serving(srv)
        white, black = two_clients(srv)
        black.send("MOVE A1")  # White is still thinking
        reply = black.read_line(soon())
        assert reply == "MESSAGE error: 'MOVE A1': not your turn"
        white.send("MOVE E5")
        assert white.read_line(soon()) == "VALID_MOVE"
        assert black.read_line(soon()) == "OPPONENT_MOVE E5"
        assert black.read_line(soon()) == "YOUR_TURN"
        black.send("MOVE A1")
        assert black.read_line(soon()) == "VALID_MOVE"
        white.close()
        assert black.read_line(soon()) == "VICTORY"
        served = finished(thread, srv)
    assert served.record.moves == ["E5", "A1"]
    assert served.record.end is End.CRASH and served.record.winner == 1


def test_opponent_disconnect_is_noticed_at_once():
    game = get_game("hadron")
    with HadronServer(game, port=0, time_limit=10) as srv:
        thread = serving(srv)
        white, black = two_clients(srv)
        black.close()
        assert white.read_line(soon()) == "VICTORY"
        served = finished(thread, srv)
    assert served.record.end is End.CRASH and served.record.winner == 0
    assert "Black" in served.record.reason


def test_server_quotes_bad_lines_briefly():
    game = get_game("hadron")
    with HadronServer(game, port=0, time_limit=10) as srv:
        thread = serving(srv)
        white, black = two_clients(srv)
        white.send("MOVE " + "Z" * 3000)
        reply = white.read_line(soon())
        assert reply.startswith("MESSAGE error: 'MOVE ZZZ") and len(reply) < 200, reply
        white.send("\x1b[2J")
        reply = white.read_line(soon())
        assert "\\x1b" in reply and "\x1b" not in reply
        white.close()
        finished(thread, srv)


def test_an_over_long_line_loses():
    game = get_game("hadron")
    with HadronServer(game, port=0, time_limit=10) as srv:
        thread = serving(srv)
        white, black = two_clients(srv)
        black.sock.sendall(b"MOVE " + b"A" * (MAX_LINE * 4) + b"\n")
        assert white.read_line(soon()) == "VICTORY"
        reply = black.read_line(soon())
        assert reply.startswith("MESSAGE error: Black sent a line longer than") and len(reply) < 200
        assert black.read_line(soon()) == "DEFEAT"
        served = finished(thread, srv)
    assert served.record.end is End.MALFORMED and served.record.winner == 0


def test_a_flood_of_bad_lines_loses():
    game = get_game("hadron")
    with HadronServer(game, port=0, time_limit=10, max_bad_lines=5) as srv:
        thread = serving(srv)
        white, black = two_clients(srv)
        black.sock.sendall(b"HELLO\n" * 1000)
        assert white.read_line(soon()) == "VICTORY"
        served = finished(thread, srv)
    assert served.record.end is End.MALFORMED and served.record.winner == 0
    assert "bad lines" in served.record.reason
    assert len(served.errors) == 6


def test_a_silent_mover_times_out_and_the_opponent_wins():
    game = get_game("hadron", size=5)
    with HadronServer(game, port=0, time_limit=0.2, allowance=0.05) as srv:
        thread = serving(srv)
        white, black = two_clients(srv)
        assert white.read_line(soon()) == "TIMEOUT"
        assert black.read_line(soon()) == "VICTORY"
        served = finished(thread, srv)
    assert served.record.end is End.TIMEOUT and served.record.winner == 1
