"""The Hadron tournament protocol on loopback: full games, bad lines, timeouts."""

from __future__ import annotations

import socket
import threading

import pytest
from click.testing import CliRunner

from boardgames.ai import make_player
from boardgames.cli import main
from boardgames.game import End
from boardgames.protocols.hadron import HadronClient, HadronServer, LineChannel
from boardgames.registry import get_game


class Background:
    """Run a callable in a thread and keep its result or exception."""

    def __init__(self, target, *args, **kwargs):
        self.result = None
        self.error: BaseException | None = None

        def run():
            try:
                self.result = target(*args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 - reported by join()
                self.error = exc

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def join(self, timeout: float = 60):
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "background task did not finish"
        if self.error is not None:
            raise self.error
        return self.result


def server(game, **options):
    options.setdefault("port", 0)
    return HadronServer(game, **options)


def raw_client(port: int) -> LineChannel:
    return LineChannel(socket.create_connection(("127.0.0.1", port), timeout=10))


def expect(channel: LineChannel, *lines: str) -> None:
    for line in lines:
        assert channel.read_line() == line


def test_full_game_client_vs_client_on_loopback():
    game = get_game("hadron")
    with server(game, time_limit=2.0) as srv:
        serving = Background(srv.serve, 1, accept_timeout=20)
        white_player = make_player(game, "aenigma:depth=1", seed=1)
        black_player = make_player(game, "default:depth=1,solve_at=10")
        # Whichever connects first plays White.
        white = Background(HadronClient(game, white_player).play, "127.0.0.1", srv.port)
        black = Background(HadronClient(game, black_player).play, "127.0.0.1", srv.port)
        w, b = white.join(), black.join()
        (served,) = serving.join()
    assert {w.colour, b.colour} == {0, 1}
    assert {w.outcome, b.outcome} == {"VICTORY", "DEFEAT"}
    assert w.moves == b.moves == served.record.moves
    final = game.replay(served.record.moves)
    assert final.is_over()
    winner = final.winner()
    assert served.record.winner == winner and served.record.end is End.RULES
    assert (w if w.colour == winner else b).won
    assert max(w.think_times + b.think_times) < 2.0
    assert not served.errors


def test_bad_lines_get_an_error_and_an_illegal_move_loses():
    game = get_game("hadron")
    with server(game, time_limit=5.0) as srv:
        serving = Background(srv.serve, 1, accept_timeout=20)
        a = raw_client(srv.port)
        expect(a, "WELCOME White")
        b = raw_client(srv.port)
        expect(b, "WELCOME Black")
        expect(a, "YOUR_TURN")
        for bad in ["HELLO", "MOVE", "MOVE Z99", "MOVE E5 E6", "\xff\xfe"]:
            a.send(bad)
            reply = a.read_line()
            assert reply.startswith("MESSAGE error:"), reply
        b.send("MOVE A1")  # not Black's turn: answered at once
        assert b.read_line() == "MESSAGE error: 'MOVE A1': not your turn"
        a.send("move e5")
        expect(a, "VALID_MOVE")
        expect(b, "OPPONENT_MOVE E5", "YOUR_TURN")
        b.send("MOVE E5")
        assert b.read_line() == "MESSAGE illegal move: E5 (cell occupied)"
        expect(b, "DEFEAT")
        expect(a, "VICTORY")
        (served,) = serving.join()
    assert served.record.end is End.ILLEGAL and served.record.winner == 0
    assert served.record.moves == ["E5"]
    assert len(served.errors) == 6


def test_a_move_sent_before_the_game_starts_is_refused_from_either_colour():
    """White may connect and send a MOVE before Black is there: it is out of
    turn exactly as Black's early MOVE is, not White's first move."""
    import time

    game = get_game("hadron")
    with server(game, time_limit=5.0) as srv:
        serving = Background(srv.serve, 1, accept_timeout=20)
        a = raw_client(srv.port)
        expect(a, "WELCOME White")
        a.send("MOVE E5")  # nobody's turn yet: Black has not connected
        time.sleep(0.3)
        b = raw_client(srv.port)
        expect(b, "WELCOME Black")
        expect(a, "MESSAGE error: 'MOVE E5': not your turn", "YOUR_TURN")
        b.send("MOVE A1")  # White's turn: refused the same way
        expect(b, "MESSAGE error: 'MOVE A1': not your turn")
        a.send("MOVE D4")
        expect(a, "VALID_MOVE")
        expect(b, "OPPONENT_MOVE D4", "YOUR_TURN")
        b.close()
        expect(a, "VICTORY")
        (served,) = serving.join()
    assert served.record.moves == ["D4"]
    assert served.errors == [
        "error: 'MOVE E5': not your turn", "error: 'MOVE A1': not your turn",
    ]  # fmt: skip


def test_timeout_and_disconnect_lose():
    game = get_game("hadron", size=5)
    with server(game, time_limit=0.2, allowance=0.05) as srv:
        serving = Background(srv.serve, 2, accept_timeout=20)
        a = raw_client(srv.port)
        expect(a, "WELCOME White")
        b = raw_client(srv.port)
        expect(b, "WELCOME Black", "VICTORY")  # wait for White to time out
        expect(a, "YOUR_TURN", "TIMEOUT")
        c = raw_client(srv.port)
        expect(c, "WELCOME White")
        d = raw_client(srv.port)
        expect(d, "WELCOME Black")
        expect(c, "YOUR_TURN")
        c.close()
        expect(d, "VICTORY")
        first, second = serving.join()
    assert first.record.end is End.TIMEOUT and first.record.winner == 1
    assert second.record.end is End.CRASH and second.record.winner == 1


def test_client_plays_a_game_with_a_fake_server():
    game = get_game("hadron", size=3)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    client = Background(HadronClient(game, make_player(game, "random", seed=3)).play,
                        "127.0.0.1", port)
    sock, _ = listener.accept()
    fake = LineChannel(sock)
    for line in ["MESSAGE hello", "WELCOME Black", "", "OPPONENT_MOVE B2", "YOUR_TURN"]:
        fake.send(line)
    move = fake.read_line()
    assert move.startswith("MOVE ")
    fake.send("VALID_MOVE")
    fake.send("DEFEAT")
    result = client.join()
    fake.close()
    listener.close()
    assert result.colour == 1 and result.outcome == "DEFEAT"
    assert result.messages == ["hello"]
    assert result.moves == ["B2", move.split()[1]]


def test_connect_command_plays_a_game():
    game = get_game("hadron", size=5)
    with server(game, time_limit=2.0) as srv:
        serving = Background(srv.serve, 1, accept_timeout=20)
        runner = CliRunner()
        cli = Background(
            runner.invoke, main,
            ["connect", "hadron", "127.0.0.1", str(srv.port), "--size", "5",
             "--ai", "aenigma:depth=1", "-q"],
        )
        opponent = Background(
            HadronClient(game, make_player(game, "random", seed=1)).play, "127.0.0.1", srv.port
        )
        outcome = cli.join()
        opponent.join()
        serving.join()
    assert outcome.exit_code == 0, outcome.output
    assert "result: " in outcome.output and "colour: " in outcome.output


def test_connect_rejects_other_games_and_bad_ports():
    runner = CliRunner()
    result = runner.invoke(main, ["connect", "squatter", "127.0.0.1", "8901"])
    assert result.exit_code == 2 and "no tournament protocol" in result.output
    for port in ("99999", "70000", "0"):
        result = runner.invoke(main, ["connect", "hadron", "127.0.0.1", port])
        assert result.exit_code == 2
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1


@pytest.mark.parametrize("limit", ["0", "nan", "inf", "1e12"])
def test_serve_rejects_bad_time_limits_in_one_line(limit):
    result = CliRunner().invoke(main, ["serve", "hadron", "--port", "0", "--time-limit", limit])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert "--time-limit" in result.stderr


@pytest.mark.parametrize("line", ["", "MOVE", "PASS", "MOVE 1,2,3"])
def test_parse_move_line_rejects(line):
    from boardgames.errors import NotationError
    from boardgames.protocols.hadron import parse_move_line

    with pytest.raises(NotationError):
        parse_move_line(get_game("hadron"), line)


def test_a_program_plays_on_a_server(tmp_path):
    """`connect --ai program:...`: here the library's own engine, driven as a program."""
    import shlex
    import sys

    game = get_game("hadron", size=5)
    program = "program:" + shlex.join([sys.executable, "-m", "boardgames", "engine"])
    with server(game, time_limit=2.0) as srv:
        serving = Background(srv.serve, 1, accept_timeout=30)
        cli = Background(
            CliRunner().invoke, main,
            ["connect", "hadron", "127.0.0.1", str(srv.port), "--size", "5", "--ai", program, "-q"],
        )
        opponent = Background(
            HadronClient(game, make_player(game, "random", seed=1)).play, "127.0.0.1", srv.port
        )
        outcome = cli.join()
        opponent.join()
        served = serving.join()
    assert outcome.exit_code == 0, outcome.output
    assert served[0].record.end is End.RULES  # played to the end by the rules, no forfeit
    assert outcome.output.count("result: ") == 1
