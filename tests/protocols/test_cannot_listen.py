"""A server command on a port that is taken says so in one line, the same
for `serve` (the Hadron tournament server) and `web`."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys

import pytest

COMMAND = [sys.executable, "-c", "from boardgames.cli import main; main()"]


@pytest.fixture
def busy_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        yield sock.getsockname()[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=60)


def test_serve_on_a_busy_port(busy_port):
    done = run("serve", "hadron", "--port", str(busy_port), "-q")
    assert done.returncode == 2
    assert done.stderr == f"error: cannot listen on 127.0.0.1:{busy_port}: Address already in use\n"


@pytest.mark.skipif(importlib.util.find_spec("uvicorn") is None, reason="no web extra")
def test_web_on_a_busy_port_says_the_same(busy_port):
    done = run("web", "--port", str(busy_port))
    assert done.returncode == 2
    assert done.stderr == f"error: cannot listen on 127.0.0.1:{busy_port}: Address already in use\n"
