"""The README's commands work as written: the files they name ship with the
repository, and the commands that read them run on them."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from boardgames.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def commands() -> list[list[str]]:
    """Every `boardgames ...` line of the README's shell blocks, as words
    (without the leading `boardgames` and without the comment)."""
    found = []
    for block in re.findall(r"^```bash\n(.*?)^```", README, flags=re.S | re.M):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words[:1] == ["boardgames"]:
                found.append(words[1:])
    return found


def test_the_readme_starts_with_the_set_up_commands():
    first = re.search(r"^```bash\n(.*?)^```", README, flags=re.S | re.M)
    assert first is not None and README.index(first.group(0)) < README.index("\n## ")
    assert first.group(1).startswith("pip install -e . ")


def test_every_file_a_readme_command_reads_ships_with_the_repository():
    named = [w for words in commands() for w in words if re.search(r"\.(txt|json)$", w)]
    assert len(named) >= 2
    for word in named:
        assert (ROOT / word).is_file(), word


def test_the_readme_commands_on_the_sample_files_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    reading = [words for words in commands() if words[0] in ("analyse", "bestmove")]
    assert {words[0] for words in reading} == {"analyse", "bestmove"}
    for words in reading:
        if "--time" in words:  # the same command, sooner
            words[words.index("--time") + 1] = "0.2"
        result = CliRunner().invoke(main, words)
        assert result.exit_code == 0, (words, result.output)
        if words[0] == "analyse":
            assert result.stdout.split() == ["None", "2", "0"]  # Part A: not over, 2-0
        else:
            assert result.stdout.startswith("move:") and "depth:" in result.stdout


def test_the_games_counted_above_the_table_are_the_table_rows():
    """The README said "four complete games" above a table of five."""
    from support.builtin_games import BUILTIN_GAMES

    rows = re.findall(r"^\| ([A-Z][\w -]+?) \| .* \| \[docs/", README, flags=re.M)
    assert len(rows) == len(BUILTIN_GAMES)
    words = {4: "four", 5: "five", 6: "six"}
    assert f"{words[len(rows)]} complete games" in " ".join(README.split())
