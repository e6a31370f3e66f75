"""`boardgames web` as a real server for the tests: a subprocess on a free
loopback port, with raw HTTP and WebSocket clients (the stdlib's http.client,
the `websockets` package) and its memory and CPU read from /proc."""

from __future__ import annotations

import http.client
import json
import re
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

START = [sys.executable, "-c", "from boardgames.cli import main; main()", "web"]


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def error(self) -> str:
        return str(self.json().get("error", ""))


@dataclass
class Server:
    process: subprocess.Popen[str]
    host: str
    port: int
    lines: list[str] = field(default_factory=list)
    reader: threading.Thread = field(init=False)

    def __post_init__(self) -> None:
        # Read stderr on, so that the server never waits on a full pipe.
        assert self.process.stderr is not None
        stream = self.process.stderr
        self.reader = threading.Thread(target=lambda: self.lines.extend(stream), daemon=True)
        self.reader.start()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    def request(
        self, method: str, path: str, body: Any = None, *, headers: dict[str, str] | None = None,
        timeout: float = 10.0, source: str | None = None,
    ) -> Reply:
        """One request on a new connection; `body` is sent as JSON unless it is bytes."""
        connection = http.client.HTTPConnection(
            self.host, self.port, timeout=timeout, source_address=(source, 0) if source else None
        )
        sent = dict(headers or {})
        data = body
        if body is not None and not isinstance(body, bytes):
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        started = time.perf_counter()
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            content = response.read()
            return Reply(response.status, dict(response.getheaders()), content,
                         time.perf_counter() - started)
        finally:
            connection.close()

    def post(self, path: str, body: Any = None, **options: Any) -> Reply:
        return self.request("POST", path, {} if body is None else body, **options)

    def get(self, path: str, **options: Any) -> Reply:
        return self.request("GET", path, **options)

    def new_game(self, **body: Any) -> dict[str, Any]:
        reply = self.post("/api/sessions", body)
        assert reply.status == 200, reply.body
        return reply.json()

    def ws_url(self, sid: str) -> str:
        return f"ws://{self.host}:{self.port}/api/sessions/{sid}/live"

    def rss_mb(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in clock ticks

    def stop(self) -> str:
        """Stop the server; what it wrote on stderr."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.reader.join(5)
        return "".join(self.lines)


def start_server(*options: str, port: int = 0) -> Server:
    """`boardgames web --port PORT OPTIONS` until it says where it listens."""
    process = subprocess.Popen(
        [*START, "--port", str(port), *options],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    match = re.search(r"serving on http://([\d.]+):(\d+)/", line)
    if match is None:
        process.kill()
        raise AssertionError(f"boardgames web did not start: {line}{process.stderr.read()}")
    return Server(process, match.group(1), int(match.group(2)), [line])


def raw_websocket(server: Server, sid: str) -> socket.socket:
    """A WebSocket that completes its handshake and then never reads again."""
    sock = socket.create_connection((server.host, server.port), timeout=5)
    sock.sendall(
        (f"GET /api/sessions/{sid}/live HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
         "Upgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
         "Sec-WebSocket-Version: 13\r\n\r\n").encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    return sock
