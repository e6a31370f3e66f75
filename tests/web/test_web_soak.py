"""A few seconds of hostile clients against `boardgames web` (loopback only):
WebSocket subscribers that never read while two AI-against-AI games play as
fast as they can, requests announcing 400 MB bodies, chunked bodies far over
the cap, and a client starting game after game.  The server's memory must
stay flat and an ordinary request must still be answered quickly.

The figures (worst RSS, growth, slowest request) are written to
tests/web/artifacts/soak.json (or $BOARDGAMES_WEB_ARTIFACTS); set
BOARDGAMES_SOAK_SECONDS for a longer run.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from support.live_server import Server, raw_websocket, start_server  # noqa: E402

#: How long the hostile clients run (BOARDGAMES_SOAK_SECONDS for a longer soak).
SECONDS = float(os.environ.get("BOARDGAMES_SOAK_SECONDS", "5"))
ARTIFACTS = Path(os.environ.get("BOARDGAMES_WEB_ARTIFACTS")
                 or Path(__file__).resolve().parent / "artifacts")


def forever(stop: threading.Event, step: Callable[[], None], done: list[int]) -> threading.Thread:
    """Run `step` again and again until `stop`; `done` counts the runs that ended."""

    def run() -> None:
        while not stop.is_set():
            try:
                step()
            except OSError:  # the server cut a hostile request short: as it should
                time.sleep(0.01)
            done.append(1)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def huge_announced_body(server: Server) -> None:
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall((f"POST /api/sessions HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
                      "Content-Type: application/json\r\nContent-Length: 400000000\r\n\r\n"
                      ).encode() + b" " * 65536)
        assert sock.recv(64).startswith(b"HTTP/1.1 413")


def huge_chunked_body(server: Server) -> None:
    with socket.create_connection((server.host, server.port), timeout=5) as sock:
        sock.sendall((f"POST /api/records HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
                      "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                      ).encode())
        chunk = b"%x\r\n%s\r\n" % (1 << 20, b" " * (1 << 20))
        for _ in range(16):
            sock.sendall(chunk)


def test_memory_stays_flat_under_hostile_clients():
    server = start_server("--searches", "2", "--max-games", "16", "--games-per-client", "8")
    stop = threading.Event()
    silent: list[socket.socket] = []
    try:
        random = {"ai": "random"}
        churn = [server.new_game(game="squatter", options={"size": 26}, sides=[random, random],
                                 delay=0)["id"] for _ in range(2)]
        silent += [raw_websocket(server, sid) for sid in churn for _ in range(8)]
        slowest: list[float] = []

        def restart_finished_games() -> None:
            for sid in churn:
                if server.get(f"/api/sessions/{sid}").json()["outcome"]:
                    server.post(f"/api/sessions/{sid}/truncate", {"ply": 0})
            time.sleep(0.2)

        def new_games() -> None:
            reply = server.post("/api/sessions", {"game": "hadron"}, source="127.0.0.2")
            assert reply.status == 200

        def probe() -> None:
            reply = server.get(f"/api/sessions/{churn[0]}")
            assert reply.status == 200
            slowest.append(reply.seconds)
            time.sleep(0.05)

        steps = {"restarts": restart_finished_games, "new_games": new_games, "probes": probe,
                 "announced_400MB": lambda: huge_announced_body(server),
                 "chunked_16MiB": lambda: huge_chunked_body(server)}
        done: dict[str, list[int]] = {name: [] for name in steps}
        threads = [forever(stop, step, done[name]) for name, step in steps.items()]
        rss: list[tuple[float, float]] = []
        started = time.monotonic()
        while (now := time.monotonic() - started) < SECONDS:
            rss.append((now, server.rss_mb()))
            time.sleep(0.1)
        plies = [server.get(f"/api/sessions/{sid}").json()["ply"] for sid in churn]
        stop.set()
        for thread in threads:
            thread.join(10)
    finally:
        stop.set()
        for sock in silent:
            sock.close()
        output = server.stop()
    settled = [mb for t, mb in rss if t >= 1.0]  # after the games and sockets are set up
    first = [mb for t, mb in rss if 1.0 <= t < 2.0]
    last = [mb for t, mb in rss if t >= SECONDS - 1.0]
    figures = {
        "seconds": SECONDS,
        "worst_rss_mb": round(max(mb for _, mb in rss), 1),
        "rss_after_setup_mb": round(min(first), 1),
        "growth_last_vs_first_second_mb": round(max(last) - max(first), 1),
        "slowest_request_ms": round(1000 * max(slowest), 1),
        "median_request_ms": round(1000 * sorted(slowest)[len(slowest) // 2], 1),
        "requests_probed": len(slowest),
        "moves_played_while_flooded": sum(plies),
        "never_reading_websockets": len(silent),
        "hostile_requests": {name: len(runs) for name, runs in done.items()},
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "soak.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(figures)
    assert sum(plies) > 50, output  # the games went on meanwhile
    assert all(len(runs) >= 5 for runs in done.values()), figures
    assert max(settled) - min(first) < 60, figures
    assert figures["growth_last_vs_first_second_mb"] < 20, figures
    assert max(slowest) < 2.0, figures
