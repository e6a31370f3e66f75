"""Checks and set-ups shared by the command-line tests."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from boardgames.cli import main


def assert_error(result, *fragments: str, code: int = 2, alone: bool = False) -> None:
    """Exit `code` and one `error: ...` line holding every fragment: the last
    line on stderr (progress lines may come first), or its only line (`alone`)."""
    assert result.exit_code == code, (result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], result.stderr
    assert not alone or len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in errors[0], errors[0]


def small_tournament(out: Path) -> Path:
    """A finished two-player tournament of 3 x 3 Squatter in `out` (2 games)."""
    args = ["tournament", "squatter", "--size", "3", "-p", "random", "-p", "random:seed=2"]
    result = CliRunner().invoke(main, [*args, "-n", "2", "-w", "0", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out
