"""The web server as any page in the user's browser (or any client of
`--allow-remote`) could use it: `boardgames web` on a free loopback port,
driven by raw HTTP and WebSocket clients.  No server file is opened for a
request, nothing blocks the event loop, what a request may start is capped,
unwatched games pause, searches take turns, bodies and queues are bounded,
a gone game says so, other sites are refused, one client cannot push out
another's games, and every value of the API is checked by type."""

from __future__ import annotations

import json
import os
import socket
import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets.sync.client")

from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402

from support.live_server import start_server  # noqa: E402

SLOW_PLUGIN = '''
import time as clock

from boardgames.ai.registry import register_ai
from boardgames.players import RandomPlayer


@register_ai("slowbuild", help="random moves, after 1.5 s of getting ready")
def slowbuild(game, seed=None, time=None):
    clock.sleep(1.5)
    return RandomPlayer(seed)
'''


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    plugin = tmp_path_factory.mktemp("plugin") / "slowbuild.py"
    plugin.write_text(SLOW_PLUGIN)
    running = start_server("--plugin", str(plugin), "--max-board", "400", "--max-time", "5")
    yield running
    running.stop()


def connect(server, sid, **options):
    return websockets.connect(server.ws_url(sid), proxy=None, open_timeout=5, **options)


def human_game(server, game="hadron", **options):
    return server.new_game(game=game, options=options, sides=[{}, {}])


# --- files and the event loop --------------------------------------------------------------


def test_ai_options_never_open_server_files(server, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opening it for reading would block until someone writes
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"t": "SECRET-VALUE"}))
    specs = [f"aenigma:params={fifo}", f"aenigma:params={secret}",
             "aenigma:params=/no/such/file.json", f"alphabeta:eval=aenigma,params={secret}",
             f"default:params={secret}"]
    sid = human_game(server, rows=5, cols=5)["id"]
    for spec in specs:
        for path, body in [
            ("/api/sessions", {"game": "hadron", "sides": [{}, {"ai": spec}]}),
            (f"/api/sessions/{sid}/sides", {"sides": [{}, {"ai": spec}]}),
            (f"/api/sessions/{sid}/hint", {"ai": spec}),
        ]:
            reply = server.post(path, body, timeout=5)
            assert reply.status == 400, (path, spec, reply.body)
            assert "cannot name files on the server" in reply.error
            assert b"SECRET" not in reply.body and b"No such file" not in reply.body
    assert server.get("/api/catalog", timeout=2).status == 200


def test_a_data_dir_confines_file_options(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "tuned.json").write_text(json.dumps({"best": {"w1_open": 2.0, "t": 12}}))
    os.mkfifo(data / "fifo")
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"t": "SECRET-VALUE"}))
    (data / "link.json").symlink_to(secret)
    running = start_server("--data-dir", str(data))
    try:
        def side(params):
            sides = [{}, {"ai": f"aenigma:params={params}"}]
            body = {"game": "hadron", "options": {"rows": 5, "cols": 5}, "sides": sides}
            return running.post("/api/sessions", body, timeout=5)

        assert side("tuned.json").status == 200
        for params, words in [("../secret.json", "no '..'"), (str(secret), "not absolute"),
                              ("link.json", "leads out of the data folder"),
                              ("fifo", "not a regular file"), ("missing.json", "no file")]:
            reply = side(params)
            assert reply.status == 400 and words in reply.error, (params, reply.body)
            assert b"SECRET" not in reply.body
    finally:
        running.stop()


def test_building_an_ai_does_not_stall_the_server(server):
    built = {}
    worker = threading.Thread(target=lambda: built.update(reply=server.post(
        "/api/sessions", {"game": "squatter", "sides": [{"ai": "slowbuild"}, {}]})))
    worker.start()
    time.sleep(0.3)  # the AI is being built now
    assert server.get("/api/catalog", timeout=5).seconds < 0.6
    worker.join(10)
    assert built["reply"].status == 200 and built["reply"].seconds >= 1.5


# --- what a request may start ----------------------------------------------------------------


def test_a_request_gets_no_more_than_the_server_gives(server):
    reply = server.post("/api/sessions", {"game": "hadron", "options": {"rows": 26, "cols": 26}})
    assert reply.status == 400 and "--max-board" in reply.error
    for sides in ([{}, {"ai": "default", "time": 6}], [{}, {"ai": "alphabeta:time=100"}],
                  [{}, {"ai": "alphabeta:time=1e6"}]):
        reply = server.post("/api/sessions", {"game": "squatter", "sides": sides})
        assert reply.status == 400 and "--max-time" in reply.error, reply.body
    sid = human_game(server, rows=5, cols=5)["id"]
    reply = server.post(f"/api/sessions/{sid}/hint", {"time": 100})
    assert reply.status == 400 and "--max-time" in reply.error


def test_a_request_gets_no_more_search_processes_than_the_server_has_cores(server):
    cores = os.cpu_count() or 1
    sides = [{}, {"ai": f"default:threads={cores + 1}"}]
    reply = server.post("/api/sessions", {"game": "squatter", "sides": sides})
    assert reply.status == 400 and "cores" in reply.error, reply.body
    sides = [{}, {"ai": f"alphabeta:threads={min(cores, 2)},depth=2"}]
    reply = server.post("/api/sessions", {"game": "squatter", "sides": sides})
    assert reply.status == 200, reply.body


def test_the_page_cannot_be_framed_by_another_site(server):
    headers = {k.lower(): v for k, v in server.get("/").headers.items()}
    assert headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]


# --- the API's values ------------------------------------------------------------------------


def test_api_values_are_checked_by_type(server):
    snap = server.new_game(game="squatter", options={"size": 4}, sides=[{}, {"ai": "random"}])
    sid = snap["id"]
    for path, body, words in [
        ("pause", {"paused": "no"}, "paused must be true or false"),
        ("pause", {"paused": 0}, "paused must be true or false"),
        ("pause", {"pasued": False}, "unknown field(s) pasued"),
        ("hint", {"ai": 5}, "ai must be text"),
        ("hint", {"ai": "random", "time": "1"}, "time must be a number"),
        ("move", {"move": "A1", "ply": "0"}, "ply must be a whole number"),
        ("truncate", {"ply": 0.0}, "ply must be a whole number"),
        ("sides", {"sides": [{}, {"ai": 5}]}, "an AI spec is text"),
    ]:
        reply = server.post(f"/api/sessions/{sid}/{path}", body)
        assert reply.status == 400 and words in reply.error, (path, body, reply.body)
    now = server.get(f"/api/sessions/{sid}").json()
    assert not now["paused"] and now["ply"] == 0 and now["sides"][1]["ai"] == "random"
    reply = server.post("/api/sessions", {"game": "squatter", "delay": "fast"})
    assert reply.status == 400 and "delay" in reply.error


def test_a_hint_uses_the_ai_and_time_asked_each_time(server):
    sid = human_game(server, "andantino")["id"]
    first = server.post(f"/api/sessions/{sid}/hint", {"ai": "random", "time": 0.2})
    assert first.status == 200 and "depth" not in first.json()["info"]
    second = server.post(f"/api/sessions/{sid}/hint", {"ai": "alphabeta:depth=2", "time": 1})
    assert second.json()["info"]["depth"] == 2 and second.json()["info"]["algorithm"] == "alphabeta"
    short = server.post(f"/api/sessions/{sid}/hint", {"ai": "alphabeta", "time": 0.2})
    long = server.post(f"/api/sessions/{sid}/hint", {"ai": "alphabeta", "time": 1.0})
    assert short.seconds < 0.7 and long.seconds >= 0.8, (short.seconds, long.seconds)
    verdict = long.json()["info"]["verdict"]
    assert verdict["short"] and "evaluator" in verdict["long"]


# --- other sites ----------------------------------------------------------------------------


def test_other_sites_are_refused(server):
    evil = {"Origin": "http://evil.example"}
    body = {"game": "squatter"}
    assert server.post("/api/sessions", body, headers=evil).status == 403
    assert server.post("/api/sessions", body, headers={"Origin": "null"}).status == 403
    assert server.post("/api/sessions", body, headers={"Origin": server.origin}).status == 200
    assert server.post("/api/sessions", body).status == 200  # no Origin: not a browser
    assert server.get("/api/catalog", headers=evil).status == 200  # reads change nothing
    sid = server.new_game(game="squatter")["id"]
    assert server.request("DELETE", f"/api/sessions/{sid}", headers=evil).status == 403
    with pytest.raises(InvalidStatus):
        connect(server, sid, origin="http://evil.example")
    with connect(server, sid, origin=server.origin) as live:
        assert json.loads(live.recv(timeout=5))["type"] == "state"


# --- bodies, gone games ----------------------------------------------------------------------


def test_bodies_over_the_cap_are_refused_before_they_are_read(server):
    head = (f"POST /api/sessions HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
            "Content-Type: application/json\r\n")
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall((head + "Content-Length: 400000000\r\n\r\n").encode())  # and no body
        assert sock.recv(200).startswith(b"HTTP/1.1 413")
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall((head + "Transfer-Encoding: chunked\r\n\r\n").encode())
        chunk = b"%x\r\n%s\r\n" % (1 << 20, b" " * (1 << 20))
        sent = 0
        try:
            for _ in range(64):  # 64 MiB, far over the 4 MiB cap
                sock.sendall(chunk)
                sent += 1
        except (BrokenPipeError, ConnectionResetError):
            pass
        reply = sock.recv(200)
        assert reply.startswith(b"HTTP/1.1 413") or sent < 64, reply


def test_a_gone_game_closes_its_websocket_with_4404(server):
    with connect(server, "no-such-game") as live, pytest.raises(ConnectionClosed) as closed:
        live.recv(timeout=5)
    assert closed.value.rcvd.code == 4404
    sid = server.new_game(game="squatter")["id"]
    with connect(server, sid) as live:
        assert json.loads(live.recv(timeout=5))["type"] == "state"
        assert server.request("DELETE", f"/api/sessions/{sid}").json() == {"closed": True}
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                live.recv(timeout=5)
        assert closed.value.rcvd.code == 4404
    assert server.get(f"/api/sessions/{sid}").status == 404
    assert server.request("DELETE", f"/api/sessions/{sid}").json() == {"closed": False}


# --- abandoned games, fair searches ------------------------------------------------------


def ai_game(server, seconds, game="andantino"):
    spec = {"ai": "alphabeta", "time": seconds}
    return server.new_game(game=game, sides=[spec, spec], delay=0)["id"]


def test_games_nobody_watches_pause_their_ais():
    running = start_server("--pause-after", "0.5", "--searches", "2")
    try:
        games = [ai_game(running, 0.5) for _ in range(3)]
        time.sleep(1.6)  # nobody asks about them: after 0.5 s their searches stop
        before, started = running.cpu_seconds(), time.monotonic()
        time.sleep(1.0)
        busy = (running.cpu_seconds() - before) / (time.monotonic() - started)
        assert busy < 0.15, f"the server still uses {busy:.0%} of a core"
        with connect(running, games[0]) as live:  # a page comes back: its AIs go on
            plies = [json.loads(live.recv(timeout=5)).get("ply") for _ in range(12)]
        assert max(p for p in plies if p is not None) > min(p for p in plies if p is not None)
    finally:
        running.stop()


def test_searches_take_turns_and_a_new_games_ai_moves():
    running = start_server("--searches", "1")
    try:
        games = [ai_game(running, 0.25) for _ in range(3)]
        waited = False
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            for sid in games:
                thinking = running.get(f"/api/sessions/{sid}").json()["thinking"]
                waited = waited or bool(thinking and thinking["waiting"])
            time.sleep(0.1)
        plies = [running.get(f"/api/sessions/{sid}").json()["ply"] for sid in games]
        assert waited and min(plies) >= 3, plies  # one slot, three games: each had turns
        new = running.new_game(game="andantino", sides=[{"ai": "alphabeta", "time": 0.25}, {}])
        started = time.monotonic()
        while running.get(f"/api/sessions/{new['id']}").json()["ply"] == 0:
            assert time.monotonic() - started < 3.0, "the new game's AI never got a turn"
            time.sleep(0.05)
    finally:
        running.stop()


def test_one_client_cannot_push_out_anothers_games():
    running = start_server("--max-games", "4", "--games-per-client", "2")
    try:
        mine = [running.new_game(game="squatter")["id"] for _ in range(2)]
        with connect(running, mine[0]), connect(running, mine[1]):
            other = [running.post("/api/sessions", {"game": "squatter"}, source="127.0.0.2")
                     .json()["id"] for _ in range(3)]
            assert running.get(f"/api/sessions/{other[0]}").status == 404  # its own oldest went
            assert all(running.get(f"/api/sessions/{sid}").status == 200 for sid in mine)
            third = running.post("/api/sessions", {"game": "squatter"}, source="127.0.0.3")
            assert third.status == 503 and "full" in third.error
            assert all(running.get(f"/api/sessions/{sid}").status == 200 for sid in mine)
    finally:
        running.stop()


# --- the server's own output -----------------------------------------------------------------


def test_the_server_starts_without_warnings():
    running = start_server()
    try:
        sid = running.new_game(game="squatter")["id"]
        with connect(running, sid) as live:
            live.recv(timeout=5)
    finally:
        output = running.stop()
    assert "Warning" not in output and "deprecated" not in output, output


# --- record files ----------------------------------------------------------------------------


def test_record_files_that_are_not_records_say_what_they_are(server):
    summary = json.dumps({"games": 12, "standings": [{"name": "a"}]}, indent=2)
    reply = server.post("/api/records", {"text": summary})
    assert reply.status == 400 and "JSON, but not a game record" in reply.error, reply.body
    assert "Expecting property name" not in reply.error
    unversioned = {"format": "boardgames-record", "game": "squatter", "moves": ["A1"]}
    reply = server.post("/api/records", {"text": json.dumps(unversioned)})
    assert reply.status == 400 and 'no "version" field' in reply.error
    assert "None" not in reply.error
    reply = server.post("/api/records", {"text": "{not json"})
    assert reply.status == 400 and "neither a JSON game record nor JSON lines" in reply.error
    reply = server.post("/api/records", {"text": "{not json\n{nor this"})
    assert reply.status == 400 and reply.error.startswith("the file, line 1: ")
