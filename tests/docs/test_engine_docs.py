"""The engine examples of the docs, run exactly as a user pastes them.

Each example is taken from its page as written (comments included) and fed
to the engine; where the page shows the engine's answers, they must be the
answers the engine gives.
"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

from boardgames.protocols.engine import EngineSession, command_text
from boardgames.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```[\w-]*\n(.*?)^```", flags=re.S | re.M)


def blocks(page: str) -> list[str]:
    return FENCE.findall((DOCS / page).read_text())


def session(commands: str, game_name: str | None = None, **options: int) -> str:
    """Everything the engine writes for `commands`."""
    game = None if game_name is None else get_game(game_name, **options)
    out = io.StringIO()
    assert EngineSession(io.StringIO(commands), out, game).run() == 0
    return out.getvalue()


def responses(output: str) -> list[str]:
    """One text per response, without its status mark's space or its empty line."""
    return output[:-2].split("\n\n") if output else []


def test_comments_start_at_a_word_and_run_to_the_end_of_the_line():
    assert command_text("play C3   # the centre\n") == "play C3"
    assert command_text("# only a comment") == ""
    assert command_text("\tgenmove depth=2\t# tab before it") == "genmove depth=2"
    assert command_text("load boards/game#2.txt") == "load boards/game#2.txt"
    assert command_text("load a#b.txt # the file a#b.txt") == "load a#b.txt"


def test_a_trailing_comment_is_no_part_of_the_command(tmp_path):
    board = tmp_path / "x#1.txt"
    board.write_text(get_game("squatter", size=6).new_state().to_text())
    out = session(
        "game squatter size=6   # a comment\n"
        "play C3 # and another\n"
        "   # a line with only a comment: no response\n"
        "result#no space: part of the word\n"
        f"load {board} # the file's name has a # of its own\n"
        "quit # bye\n"
    )
    assert responses(out) == [
        "= ", "= ", "? unknown command: result#no", "= ", "= ",
    ]  # fmt: skip


def test_engine_protocol_page_session():
    """The first example of docs/engine-protocol.md: `$ boardgames engine GAME
    --size N`, then each command and the engine's answer, as shown."""
    block = next(b for b in blocks("engine-protocol.md") if b.startswith("$ boardgames engine"))
    first, _, transcript = block.partition("\n")
    words = shlex.split(first)[1:]  # boardgames engine squatter --size 6
    assert words[:3] == ["boardgames", "engine", "squatter"] and words[3] == "--size"
    lines = transcript.splitlines(keepends=True)
    typed = [line for line in lines if line.strip() and not line.startswith(("= ", "? "))]
    shown = "".join(line for line in lines if line not in typed)
    assert typed, "no command in the example"
    assert session("".join(typed), words[2], size=int(words[4])) == shown


def test_cli_page_engine_pipe():
    """docs/cli.md: `$ printf '...' | boardgames engine` and its whole output."""
    block = next(b for b in blocks("cli.md") if "| boardgames engine" in b)
    first, _, shown = block.partition("\n")
    typed = re.fullmatch(r"\$ printf '(.*)' \| boardgames engine", first)
    assert typed is not None, first
    out = session(typed.group(1).replace("\\n", "\n"))
    assert out == shown


def test_squatter_page_engine_example_as_pasted(monkeypatch):
    """docs/squatter.md's engine example, pasted whole (its `# = ...` comments
    are the answers it promises); its file path is relative to the repository."""
    text = (DOCS / "squatter.md").read_text()
    section = text.split("## The engine protocol", 1)[1]
    example = FENCE.search(section)
    assert example is not None
    pasted = example.group(1)
    monkeypatch.chdir(ROOT)
    answers = responses(session(pasted))
    commands = [line for line in pasted.splitlines() if command_text(line)]
    assert len(answers) == len(commands)
    for line, answer in zip(commands, answers, strict=True):
        assert answer.startswith("= "), f"{line!r} -> {answer!r}"
        promised = re.search(r"#\s*(= .*)$", line)
        if promised is not None:
            assert answer == promised.group(1).rstrip(), line


# --- docs/engines.md: writing an engine in any language ------------------------------------


def engines_block(language: str, after: str) -> str:
    page = (DOCS / "engines.md").read_text()
    rest = page[page.index(after) :]
    return FENCE.findall(rest[rest.index(f"```{language}") :])[0]


def test_the_smallest_engine_plays_whole_games(tmp_path):
    import sys

    from boardgames.match.play import play_match

    engine = tmp_path / "smallest.py"
    engine.write_text(engines_block("python", "## The smallest engine"))
    game = get_game("dots", rows=2, cols=3)
    summary = play_match(game, f"program:{sys.executable} {engine}", "random", games=2,
                         time_limit=1.0, seed=1)
    assert summary.games == 2 and not summary.forfeits and not summary.unfinished


def test_the_engines_page_transcript_is_a_real_session(tmp_path):
    """The runner sends what the page shows, and the example engine answers
    as shown (its moves are its own random choices: they are checked legal)."""
    import subprocess
    import sys

    from click.testing import CliRunner

    from boardgames.cli import main

    shown = engines_block("text", "## A real session").splitlines()
    sent = [line[2:] for line in shown if line.startswith("> ")]
    example = ROOT / "examples" / "engines" / "python" / "dots_engine.py"
    log = tmp_path / "session.log"
    recorder = ROOT / "tests" / "support" / "engines" / "recorder.py"
    spec = f"program:{sys.executable} {recorder} {log} {sys.executable} {example}"
    result = CliRunner().invoke(main, ["match", "dots", "--rows", "2", "--cols", "2", "--ai",
                                       spec, "--ai2", "random", "--games", "1", "--time", "0.5"])
    assert result.exit_code == 0, result.output
    recorded = [line[2:] for line in log.read_text().splitlines() if line.startswith("> ")]
    assert recorded[:6] == sent[:6] and recorded[-1] == sent[-1] == "quit"
    # The page's commands, fed to the example engine: the answers it shows.
    out = subprocess.run([sys.executable, str(example)], input="\n".join(sent) + "\n",
                         capture_output=True, text=True, timeout=60).stdout
    answers = [block.splitlines() for block in out[:-2].split("\n\n")]
    assert len(answers) == len(sent)
    game = get_game("dots", rows=2, cols=2)
    state = game.new_state()
    expected = iter(line[2:] for line in shown if line.startswith("< "))  # "<" alone: the end
    for command, answer in zip(sent, answers):
        if command.startswith("moves"):
            state = game.replay(command.split()[1:])
        if command.startswith("genmove"):
            info, move = answer
            assert info.startswith("info depth=1 score=") and info.endswith(f"pv={move[2:]}")
            assert game.parse_move(move[2:]) in state.legal_moves()
            next(expected), next(expected)
        else:
            assert [line.rstrip() for line in answer] == [next(expected)], command


def test_the_runner_s_session_of_the_protocol_page():
    """docs/engine-protocol.md, "A runner's session": the engine's answers as
    shown (genmove's move checked legal: it is the AI's choice)."""
    page = (DOCS / "engine-protocol.md").read_text()
    rest = page[page.index("## A runner's session") :]
    block = FENCE.findall(rest[rest.index("```text") :])[0]
    lines = block.splitlines(keepends=True)
    typed = [line for line in lines if line.strip() and not line.startswith(("= ", "? "))]
    shown = responses("".join(line for line in lines if line not in typed))
    got = responses(session("".join(typed)))
    assert len(got) == len(shown) == len(typed)
    game = get_game("dots", rows=2, cols=2)
    for command, answer, expected in zip(typed, got, shown):
        if command.startswith("genmove"):
            assert game.parse_move(answer[2:]) in game.replay(["A2", "B1"]).legal_moves()
        else:
            assert answer == expected, command
