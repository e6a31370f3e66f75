"""An empty host is refused on the command line: for `serve` it would have
meant every interface (with no --allow-remote check), for `web` and `connect`
a confusing error from deeper down."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from boardgames.cli import main


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["serve", "hadron", "--host", "", "--port", "0"], "--host"),
        (["serve", "hadron", "--host", "  ", "--port", "0"], "--host"),
        (["web", "--host", "", "--port", "0"], "--host"),
        (["connect", "hadron", "", "8901"], "HOST"),
        (["connect", "hadron", " \t", "8901"], "HOST"),
    ],
)
def test_an_empty_host_is_one_usage_error(args, named):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"error: {named}: empty address")
    assert "serving" not in result.output


def test_a_host_is_stripped_before_use():
    from boardgames.cli.common import Host

    assert Host().convert(" 127.0.0.1 ", None, None) == "127.0.0.1"
