"""The web server's API through Starlette's test client: new game, moves (good,
illegal, stale), undo, the AI's move and its live search, stop, records."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2 (the test extra)")

from starlette.testclient import TestClient  # noqa: E402

from boardgames import get_game  # noqa: E402
from boardgames.ai import make_player  # noqa: E402
from boardgames.cli.web import allowed_hosts, is_loopback  # noqa: E402
from boardgames.game import End  # noqa: E402
from boardgames.match.records import GameRecord  # noqa: E402
from boardgames.web.app import create_app  # noqa: E402
from boardgames.web.thinking import capabilities, think  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def client():
    with TestClient(create_app()) as test_client:
        yield test_client


def new_game(client, game="squatter", options=None, sides=None, **extra):
    body = {"game": game, "options": options or {}, "sides": sides or [{}, {}], **extra}
    response = client.post("/api/sessions", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def wait_for(client, sid, test, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snap = client.get(f"/api/sessions/{sid}").json()
        if test(snap):
            return snap
        time.sleep(0.02)
    raise AssertionError(f"timed out; last state: ply {snap['ply']}, thinking {snap['thinking']}")


def test_catalog_lists_every_game_with_options_and_ais(client):
    games = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    assert {"andantino", "squatter", "hadron", "hexifence", "dots"} <= set(games)
    assert games["dots"]["options"] == {"rows": 3, "cols": 3}
    assert "default" in games["squatter"]["ais"] and "seed003" in games["squatter"]["ais"]
    assert games["hexifence"]["players"] == ["blue", "red"]


def test_a_plugin_game_appears_and_plays_without_click_regions(monkeypatch):
    monkeypatch.setenv("BOARDGAMES_PLUGINS", str(EXAMPLES / "connect_four"))
    with TestClient(create_app()) as client:
        names = [g["name"] for g in client.get("/api/catalog").json()["games"]]
        assert "connect4" in names
        snap = new_game(client, "connect4")
        assert client.get(f"/api/sessions/{snap['id']}/board").json()["rule"] == "none"
        assert snap["legal_names"] == list("abcdefg")
        after = client.post(f"/api/sessions/{snap['id']}/move", json={"move": "d"}).json()
        assert [m["text"] for m in after["moves"]] == ["d"]


def test_new_game_snapshot(client):
    snap = new_game(client, "squatter", {"size": 4})
    assert snap["game"]["params"] == {"size": 4}
    assert snap["ply"] == 0 and snap["to_move"] == 0 and snap["outcome"] is None
    assert len(snap["legal"]) == 16 and snap["legal_names"][0] == "A1"
    assert snap["svg"].startswith("<svg") and snap["scores"] == [0, 0]
    assert snap["evals"] == [pytest.approx(snap["evals"][0])]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "nosuchgame"}, 400, "unknown game"),
        ({"game": "squatter", "options": {"size": 0}}, 400, "size"),
        ({"game": "squatter", "options": {"colour": 3}}, 400, "no option colour"),
        ({"game": "squatter", "sides": [{}, {"ai": "nosuchai"}]}, 400, "unknown AI"),
        ({"game": "squatter", "sides": [{}, {"ai": "alphabeta:depth=-1"}]}, 400, "depth"),
        ({"game": "squatter", "sides": [{}, {"ai": "default", "time": "nan"}]}, 400, "time"),
        ({"game": "squatter", "sides": [{}]}, 400, "two players"),
    ],
)
def test_bad_new_game_requests_say_why(client, body, status, words):
    response = client.post("/api/sessions", json=body)
    assert response.status_code == status
    assert words in response.json()["error"]


def test_moves_by_name_and_index_and_illegal_moves_change_nothing(client):
    snap = new_game(client, "squatter", {"size": 4})
    sid = snap["id"]
    after = client.post(f"/api/sessions/{sid}/move", json={"move": "B2", "ply": 0}).json()
    assert after["ply"] == 1 and after["moves"][0]["text"] == "B2"
    after = client.post(f"/api/sessions/{sid}/move", json={"move": 0, "ply": 1}).json()
    assert [m["text"] for m in after["moves"]] == ["B2", "A1"]
    before = client.get(f"/api/sessions/{sid}").json()
    for body, status, words in [
        ({"move": "B2"}, 400, "illegal move: B2"),
        ({"move": "Z9"}, 400, "cannot parse 'Z9'"),
        ({"move": 99}, 400, "not a move index"),
        ({"move": True}, 400, "a move is"),
        ({"move": "C3", "ply": 1}, 409, "moved on"),
        ({}, 400, "move"),
    ]:
        response = client.post(f"/api/sessions/{sid}/move", json=body)
        assert response.status_code == status, body
        assert words in response.json()["error"], response.json()
    now = client.get(f"/api/sessions/{sid}").json()
    assert now["ply"] == before["ply"] and now["svg"] == before["svg"]
    assert now["version"] == before["version"]


def test_requests_must_be_json_and_games_must_exist(client):
    sid = new_game(client)["id"]
    response = client.post(f"/api/sessions/{sid}/move", content="move=A1",
                           headers={"content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 400 and "JSON" in response.json()["error"]
    assert client.get("/api/sessions/nope").status_code == 404
    assert client.post("/api/sessions/nope/move", json={"move": "A1"}).status_code == 404


def test_ai_replies_and_undo_takes_back_to_the_humans_turn(client):
    snap = new_game(client, "squatter", {"size": 4}, [{}, {"ai": "random:seed=1"}])
    sid = snap["id"]
    client.post(f"/api/sessions/{sid}/move", json={"move": "B2"})
    snap = wait_for(client, sid, lambda s: s["ply"] == 2 and s["thinking"] is None)
    assert snap["moves"][1]["by"] == "random:seed=1" and snap["to_move"] == 0
    response = client.post(f"/api/sessions/{sid}/move", json={"move": "A1"})
    assert response.status_code in (200, 400)  # A1 may be the AI's cell
    snap = wait_for(client, sid, lambda s: s["to_move"] == 0 and s["thinking"] is None)
    ply = snap["ply"]
    assert client.post(f"/api/sessions/{sid}/undo", json={}).json()["ply"] == ply - 2
    assert client.post(f"/api/sessions/{sid}/undo", json={}).json()["ply"] == ply - 4
    response = client.post(f"/api/sessions/{sid}/undo", json={})
    assert response.status_code == 400 and "no move" in response.json()["error"]


def test_it_is_the_ais_turn(client):
    snap = new_game(client, "andantino", sides=[{"ai": "default", "time": 5}, {}])
    response = client.post(f"/api/sessions/{snap['id']}/move", json={"move": "J10"})
    assert response.status_code == 409 and "played by the AI" in response.json()["error"]
    assert client.post(f"/api/sessions/{snap['id']}/stop", json={}).json() == {"stopped": True}


def test_live_search_info_then_stop_moves_now(client):
    snap = new_game(client, "andantino", sides=[{"ai": "default", "time": 30}, {}])
    sid = snap["id"]
    with client.websocket_connect(f"/api/sessions/{sid}/live") as live:
        assert live.receive_json()["type"] == "state"
        while True:
            message = live.receive_json()
            info = message.get("job", {}).get("info") or {}
            if message["type"] == "thinking" and info.get("depth", 0) >= 3:
                break
        info = message["job"]["info"]
        assert info["pv"] and info["nodes"] > 0 and info["nps"] > 0 and info["score_text"]
        assert message["job"]["live"] and message["job"]["stoppable"]
        started = time.monotonic()
        assert client.post(f"/api/sessions/{sid}/stop", json={}).json() == {"stopped": True}
        while True:
            message = live.receive_json()
            if message["type"] == "state" and message["ply"] == 1:
                break
        assert time.monotonic() - started < 2.0
    move = message["moves"][0]
    assert move["by"] == "default" and move["info"]["stopped"] and move["info"]["depth"] >= 3


def test_hint_for_the_human(client):
    snap = new_game(client, "hadron", {"rows": 5, "cols": 5})
    hint = client.post(f"/api/sessions/{snap['id']}/hint", json={"time": 0.2}).json()
    state = get_game("hadron", rows=5, cols=5).new_state()
    assert state.illegal_reason(hint["move"]) is None and hint["name"]
    assert client.get(f"/api/sessions/{snap['id']}").json()["hint"]["move"] == hint["move"]


def test_swap_sides_and_pause(client):
    snap = new_game(client, "squatter", {"size": 4}, [{}, {"ai": "random"}])
    sid = snap["id"]
    client.post(f"/api/sessions/{sid}/pause", json={"paused": True})
    swapped = client.post(f"/api/sessions/{sid}/swap", json={}).json()
    assert [s["ai"] for s in swapped["sides"]] == ["random", None] and swapped["paused"]
    assert swapped["ply"] == 0  # paused: the AI waits
    client.post(f"/api/sessions/{sid}/pause", json={"paused": False})
    wait_for(client, sid, lambda s: s["ply"] == 1)


def test_record_round_trip(client):
    snap = new_game(client, "dots", {"rows": 2, "cols": 2})
    sid = snap["id"]
    for move in ["A2", "B1", "B3", "C2"]:  # the last one closes a box: an extra turn
        snap = client.post(f"/api/sessions/{sid}/move", json={"move": move}).json()
    assert snap["scores"] == [0, 1] and snap["to_move"] == 1 and snap["last_turn"] == [
        get_game("dots", rows=2, cols=2).parse_move("C2")]
    response = client.get(f"/api/sessions/{sid}/record")
    assert "attachment" in response.headers["content-disposition"]
    record = GameRecord.from_json(response.text)
    assert record.game == "dots" and record.params == {"rows": 2, "cols": 2}
    assert record.moves == ["A2", "B1", "B3", "C2"] and record.players == ["human", "human"]
    assert record.replay().moves_text() == "A2 B1 B3 C2"
    assert (record.result, record.end, record.reason) == (
        "none", End.INTERRUPTED, "saved from the web page"
    )
    loaded = client.post("/api/sessions", json={"record": record.to_dict()}).json()
    assert loaded["id"] != sid and [m["text"] for m in loaded["moves"]] == record.moves
    assert loaded["svg"] == snap["svg"] and loaded["scores"] == [0, 1]
    lines = "".join(json.dumps(r) + "\n" for r in [record.to_dict(), record.to_dict()])
    parsed = client.post("/api/records", json={"text": lines}).json()["records"]
    assert len(parsed) == 2 and parsed[0]["summary"].startswith("dots: human vs human")


def test_a_finished_game_is_saved_with_the_games_own_words(client):
    snap = new_game(client, "dots", {"rows": 2, "cols": 2})
    while snap["outcome"] is None:
        snap = client.post(f"/api/sessions/{snap['id']}/move",
                           json={"move": snap["legal_names"][0]}).json()
    record = GameRecord.from_json(client.get(f"/api/sessions/{snap['id']}/record").text)
    assert record.end is End.RULES and record.reason == snap["outcome"]["reason"]
    assert record.scores == snap["scores"] and record.result == record.replay().result()


def test_a_finished_record_shows_its_result_and_a_bad_one_is_refused(client):
    state = get_game("squatter", size=3).replay("A1 B2")
    record = GameRecord.from_state(state, players=["a", "b"])
    record.forfeit(state, 1, End.TIMEOUT, "b took 9 s")
    loaded = client.post("/api/sessions", json={"record": record.to_dict()}).json()
    assert loaded["record_result"]["end"] == "timeout"
    assert loaded["record_result"]["reason"] == "b took 9 s"
    assert loaded["moves"][0]["by"] == "a"
    record.moves = ["A1", "A1"]
    response = client.post("/api/sessions", json={"record": record.to_dict()})
    assert response.status_code == 400 and "record move 2" in response.json()["error"]
    response = client.post("/api/records", json={"text": "{not json"})
    assert response.status_code == 400


def test_position_of_an_earlier_move(client):
    snap = new_game(client, "hadron", {"rows": 4, "cols": 4})
    sid = snap["id"]
    start_svg = snap["svg"]
    client.post(f"/api/sessions/{sid}/move", json={"move": "A1"})
    client.post(f"/api/sessions/{sid}/move", json={"move": "D4"})
    assert client.get(f"/api/sessions/{sid}/position?ply=0").json()["svg"] == start_svg
    one = client.get(f"/api/sessions/{sid}/position?ply=1").json()
    assert one["to_move"] == 1 and one["last_turn"] == [0]
    assert client.get(f"/api/sessions/{sid}/position?ply=3").status_code == 400
    assert client.post(f"/api/sessions/{sid}/truncate", json={"ply": 1}).json()["ply"] == 1


def test_several_games_at_once_are_separate(client):
    a = new_game(client, "squatter", {"size": 4})
    b = new_game(client, "squatter", {"size": 4})
    client.post(f"/api/sessions/{a['id']}/move", json={"move": "A1"})
    assert client.get(f"/api/sessions/{b['id']}").json()["ply"] == 0
    assert client.get(f"/api/sessions/{a['id']}").json()["ply"] == 1


def test_the_page_and_its_assets_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and '<div id="board"' in page.text
    for path in ["/static/style.css", "/static/js/main.js", "/static/js/board.js",
                 "/static/favicon.svg"]:
        assert client.get(path).status_code == 200, path
    assert "http" not in page.text.replace("http://www.w3.org", "")  # nothing from the internet


def test_only_the_bound_host_is_served():
    app = create_app(allowed_hosts=allowed_hosts("127.0.0.1"))
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/catalog").status_code == 200
    with TestClient(app, base_url="http://evil.example:8000") as client:
        assert client.get("/api/catalog").status_code == 400


def test_loopback_addresses():
    assert is_loopback("127.0.0.1") and is_loopback("127.5.0.1") and is_loopback("localhost")
    assert is_loopback("::1") and is_loopback("[::1]")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2") and not is_loopback("::")
    assert allowed_hosts("0.0.0.0") is None


def test_think_streams_iterations_and_stops_on_request():
    game = get_game("squatter")
    player = make_player(game, "default", time=30)
    assert capabilities(player) == {"live": True, "stoppable": True}
    start = game.new_state()
    start.make(game.parse_move("A1"))  # out of the opening book: the AI must search
    stop, infos, out = threading.Event(), [], {}
    worker = threading.Thread(
        target=lambda: out.update(result=think(player, start.copy(), stop, infos.append))
    )
    worker.start()
    time.sleep(0.5)
    stop.set()
    worker.join(2.0)
    assert not worker.is_alive()
    move, info = out["result"]
    assert start.illegal_reason(move) is None
    assert infos and infos[-1]["depth"] >= 1 and info["stopped"]
    assert player.engine.on_iteration is None  # the page's watcher is gone again


def _open_position(name, options, legal):
    """A position reached by seeded random moves with at most `legal` legal moves
    left (for the edge games: `legal` safe edges, no cell given away)."""
    import random

    state, rng = get_game(name, **options).new_state(), random.Random(7)
    if name == "hexifence":
        while len(state.safe_moves()) > legal:
            state.make(rng.choice(state.safe_moves()))
        assert not state.captures()
    while len(state.legal_moves()) > legal:
        state.make(rng.choice(state.legal_moves()))
    assert not state.is_over()
    return state


@pytest.mark.parametrize(
    "name, options, legal, spec",
    [
        ("hexifence", {"size": 2}, 999, "default"),  # the edge solver (from the empty board)
        ("hexifence", {"size": 3}, 30, "default:threshold=30"),  # the safe-edge search
        ("andantino", {}, 999, "mcts"),
        ("hadron", {"rows": 6, "cols": 6}, 24, "default"),
    ],
)
def test_players_without_live_search_stop_too(name, options, legal, spec):
    state = _open_position(name, options, legal)
    game = state.game
    player = make_player(game, spec, time=60)
    assert capabilities(player)["stoppable"]
    stop, out = threading.Event(), {}

    def move() -> None:
        started = time.perf_counter()
        out["result"] = think(player, state, stop, lambda i: None)
        out["seconds"] = time.perf_counter() - started

    worker = threading.Thread(target=move)
    worker.start()
    time.sleep(0.3)
    stop.set()
    worker.join(3.0)
    assert not worker.is_alive()
    assert out["seconds"] >= 0.3  # it was still thinking when asked to stop
    move, info = out["result"]
    assert state.illegal_reason(move) is None and info["stopped"]


def test_players_without_live_search_still_move():
    game = get_game("dots", rows=2, cols=2)
    for spec in ["default", "mcts:nodes=50", "random"]:
        player = make_player(game, spec, time=0.2)
        move, info = think(player, game.new_state(), threading.Event(), lambda info: None)
        assert info["move"] == game.format_move(move)
