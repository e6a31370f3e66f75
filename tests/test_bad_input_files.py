"""Bad files: not text, endless, nested too deeply for the JSON parser, numbers
too long for Python, odd names.  Each is one library error naming the file
(on the command line one `error:` line, exit 2), never a traceback or a hang.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgames import io
from boardgames.cli import main
from boardgames.errors import BadFileError, OptionError
from boardgames.games.hadron.experts import AenigmaParams
from boardgames.match.records import GameRecord
from boardgames.protocols.engine import EngineSession
from boardgames.tournament.store import TournamentDir
from boardgames.tournament.tasks import parse_record_name
from support import cli_checks

#: Deeper than the JSON parser's recursion limit: RecursionError, not JSONDecodeError.
DEEP = '{"a":' * 100_000 + "1" + "}" * 100_000
#: An integer of over 4300 digits: json.loads raises a plain ValueError.
HUGE = '{"format": "boardgames-record", "version": 1, "size": ' + "9" * 5000 + "}"


def assert_error(result, *fragments: str) -> None:
    cli_checks.assert_error(result, *fragments, alone=True)


@pytest.mark.parametrize(
    ("text", "reason"), [(DEEP, "nested too deeply"), (HUGE, "4300")], ids=["deep", "huge"]
)
def test_parse_json_names_the_source_for_every_failure(text, reason):
    with pytest.raises(BadFileError, match=reason) as info:
        io.parse_json(text, "x.json")
    assert str(info.value).startswith("x.json: not JSON (")


@pytest.mark.parametrize("text", [DEEP, HUGE], ids=["deep", "huge"])
def test_a_record_too_deep_or_with_a_huge_number_is_a_bad_file(text):
    with pytest.raises(BadFileError, match="r.json: not a JSON game record"):
        GameRecord.from_json(text, source="r.json")


def test_read_text_refuses_an_endless_or_huge_file(tmp_path, monkeypatch):
    monkeypatch.setattr(io, "MAX_TEXT_BYTES", 10)
    big = tmp_path / "big.txt"
    big.write_text("x" * 11)
    with pytest.raises(BadFileError, match="too large"):
        io.read_text(big)
    big.write_text("x\r\ny\rz" + "")
    assert io.read_text(big) == "x\ny\nz"  # newlines as in text mode


def test_read_text_refuses_an_empty_name_and_binary_files(tmp_path):
    with pytest.raises(OptionError, match="empty file name"):
        io.read_text("")
    binary = tmp_path / "b.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(BadFileError, match="b.bin: not a text file"):
        io.read_text(binary)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_cli_dev_zero_is_refused_not_read_forever():
    """In a process with 2 GB of address space and a minute: a regression would
    read the endless file until the machine ran out of memory."""
    resource = pytest.importorskip("resource")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    command = [sys.executable, "-m", "boardgames", "analyse", "squatter", "/dev/zero"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, preexec_fn=limit)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: /dev/zero: too large for a text file here (over {io.MAX_TEXT_BYTES} bytes)"
    ]


def test_cli_empty_file_name():
    assert_error(CliRunner().invoke(main, ["analyse", "squatter", ""]), "empty file name")


@pytest.mark.parametrize("text", [DEEP, HUGE], ids=["deep", "huge"])
def test_cli_record_too_deep_or_huge_number(tmp_path, text):
    path = tmp_path / "deep.json"
    path.write_text(text)
    result = CliRunner().invoke(main, ["analyse", "squatter", str(path)])
    assert_error(result, "deep.json", "not a JSON game record")


def test_cli_aenigma_parameter_file_binary_or_deep(tmp_path):
    binary = tmp_path / "p.bin"
    binary.write_bytes(b"\xe3\x80garbage\xff")
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    position = tmp_path / "empty.txt"
    position.write_text("")
    for path, reason in ((binary, "not a text file"), (deep, "nested too deeply")):
        with pytest.raises(BadFileError, match=reason):
            AenigmaParams.load(path)
        spec = f"aenigma:params={path}"
        args = ["bestmove", "hadron", str(position), "--rows", "3", "--cols", "3", "--ai", spec]
        assert_error(CliRunner().invoke(main, args), str(path), reason)


def _tournament(tmp_path):
    return cli_checks.small_tournament(tmp_path / "t")


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (DEEP.encode(), "not JSON (nested too deeply)"),
        (HUGE.encode(), "not JSON (Exceeds"),
        (b"\xf7\xff binary", "not a text file"),
    ],
    ids=["deep", "huge", "binary"],
)
def test_resume_with_a_bad_manifest_names_it(tmp_path, content, reason):
    out = _tournament(tmp_path)
    (out / "tournament.json").write_bytes(content)
    with pytest.raises(BadFileError, match=re.escape(reason)):
        TournamentDir(out).settings()
    result = CliRunner().invoke(main, ["tournament", "--resume", str(out), "-w", "0"])
    assert_error(result, "tournament.json", reason)


def test_resume_with_a_record_too_deep_names_it(tmp_path):
    out = _tournament(tmp_path)
    (out / "games" / "00-01-0000.json").write_text(DEEP)
    result = CliRunner().invoke(main, ["tournament", "--resume", str(out), "-w", "0"])
    assert_error(result, "00-01-0000.json", "nested too deeply", "delete it")


@pytest.mark.parametrize("name", ["00-01-²².json", "00-01-٠٠٠٢.json", "0١-02-0000.json"])
def test_record_names_are_ascii_digits(name):
    assert parse_record_name(name) is None  # not a record: ignored, never a ValueError


def test_engine_load_of_a_binary_or_huge_file(tmp_path, monkeypatch):
    monkeypatch.setattr(io, "MAX_TEXT_BYTES", 1000)
    binary = tmp_path / "b.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    big = tmp_path / "big.txt"
    big.write_text("3\n" + "+ + +\n" * 500)
    lines = ["game squatter size=3", "play B2", f"load {binary}", f"load {big}", "position"]
    replies = _engine(lines)
    assert replies[2] == f"? cannot read {binary}: not a text file"
    assert replies[3] == f"? cannot read {big}: too large for a text file here (over 1000 bytes)"
    assert replies[4] == "= 3\n+ + +\n+ W +\n+ + +"  # unchanged


def _engine(lines: list[str]) -> list[str]:
    import io as stdio

    out = stdio.StringIO()
    EngineSession(stdio.StringIO("".join(line + "\n" for line in lines)), out).run()
    return [block.strip() for block in out.getvalue().split("\n\n") if block.strip()]


def test_the_web_api_answers_400_to_json_nested_too_deeply():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2 (the e2e extra)")
    from starlette.testclient import TestClient

    from boardgames.web.app import create_app

    with TestClient(create_app()) as client:
        headers = {"content-type": "application/json"}
        reply = client.post("/api/sessions", content=DEEP, headers=headers)
        assert reply.status_code == 400
        assert "nested too deeply" in reply.json()["error"]
        body = json.dumps({"record": DEEP})
        reply = client.post("/api/sessions", content=body, headers=headers)
        assert reply.status_code == 400
        assert "the record: not JSON (nested too deeply)" in reply.json()["error"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ('{"w1_open": NaN}', "w1_open must be a number >= 0, not nan"),
        ('{"t": 1e999}', "t must be a number >= 0, not inf"),
        ('{"w2_end": true}', "w2_end must be a number >= 0, not True"),
        ('{"w1_end": -5}', "w1_end must be a number >= 0, not -5"),
        ('{"best": {"w1_open": "0.5"}}', "w1_open must be a number >= 0, not '0.5'"),
    ],
)
def test_aenigma_parameter_files_are_checked_like_the_options(tmp_path, content, reason):
    """NaN, Infinity, true and -5 from a file were taken (and searched with),
    though 'aenigma:w1_open=nan' or '=-5' on the command line are refused."""
    path = tmp_path / "p.json"
    path.write_text(content)
    with pytest.raises(BadFileError, match=re.escape(f"{path}: {reason}")):
        AenigmaParams.load(path)
    assert AenigmaParams.load(_write(tmp_path, '{"w1_open": 0.25, "t": 20}')).w1_open == 0.25


def _write(folder, text):
    path = folder / "good.json"
    path.write_text(text)
    return path
