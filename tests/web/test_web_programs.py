"""Programs as sides of a web game: refused unless the server allows them at
start-up, then played like an AI with their info lines shown live; a game
closed (or let go) ends its programs."""

from __future__ import annotations

import sys

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2 (the test extra)")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from boardgames.cli import main  # noqa: E402
from boardgames.web.app import create_app  # noqa: E402
from boardgames.web.settings import WebSettings  # noqa: E402
from support.cli_checks import assert_error  # noqa: E402
from support.program_checks import example_spec, faulty, runs, wait_until_gone  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def create(client, sides):
    body = {"game": "dots", "options": {"rows": 2, "cols": 2}, "sides": sides}
    return client.post("/api/sessions", json=body)


def test_a_server_runs_no_program_unless_told_at_start_up():
    with TestClient(create_app()) as client:
        assert client.get("/api/catalog").json()["programs"] is False
        response = create(client, [{"ai": example_spec(), "time": 0.5}, {}])
        assert response.status_code == 400
        assert "this server runs no programs" in response.json()["error"]
        assert "--allow-programs" in response.json()["error"]


def test_a_program_plays_a_side_and_shows_its_search_live(tmp_path):
    settings = WebSettings(allow_programs=True)
    with TestClient(create_app(settings=settings)) as client:
        assert client.get("/api/catalog").json()["programs"] is True
        sides = [{"ai": example_spec(), "time": 0.5}, {"ai": "random", "time": 0.5}]
        snap = create(client, sides).json()
        assert snap["sides"][0]["live"] and not snap["sides"][0]["stoppable"]
        sid = snap["id"]
        with client.websocket_connect(f"/api/sessions/{sid}/live") as live:
            while True:
                message = live.receive_json()
                if message["type"] == "state" and message["outcome"] is not None:
                    break
        moves = message["moves"]
        mine = [m for m in moves if m["by"] == example_spec()]
        assert mine and all(m["info"]["depth"] == 1 and m["info"]["pv"] for m in mine)
        assert {m["info"]["algorithm"] for m in mine} == {"program"}


def test_closing_a_game_or_changing_its_side_ends_the_program(tmp_path):
    settings = WebSettings(allow_programs=True)
    with TestClient(create_app(settings=settings)) as client:
        first = tmp_path / "first"
        first.mkdir()
        sides = [{}, {"ai": faulty(first, "none"), "time": 0.5}]
        sid = create(client, sides).json()["id"]
        assert len(runs(first)) == 1
        second = tmp_path / "second"
        second.mkdir()
        new_sides = [{}, {"ai": faulty(second, "none"), "time": 0.5}]
        response = client.post(f"/api/sessions/{sid}/sides", json={"sides": new_sides})
        assert response.status_code == 200, response.text
        assert not wait_until_gone(first)  # the side changed hands: its program ended
        assert client.delete(f"/api/sessions/{sid}").json() == {"closed": True}
        assert not wait_until_gone(second)


def test_programs_are_for_loopback_servers_only():
    args = ["web", "--host", "0.0.0.0", "--allow-remote", "--allow-programs", "--port", "0"]
    assert_error(CliRunner().invoke(main, args), "--allow-programs serves only on a loopback")
