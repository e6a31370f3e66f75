"""Start-up: what `boardgames --help` and `boardgames list` import.

- `import boardgames` and `import boardgames.cli` import no numpy, no game,
  no search and no command module (the group knows its commands' names and
  help lines up front: `boardgames.cli.LAZY`);
- `boardgames list` and building every built-in game import no numpy (the
  Zobrist keys are drawn in pure Python, equal to numpy's: checked here);
- LAZY names every command of every command module, where it lives and its
  help line exactly as click shows it, so `--help` is unchanged.

The timings are in benchmarks/test_bench_startup.py.
"""

from __future__ import annotations

import importlib
import inspect
import sys
import types

import click
import numpy as np
import pytest
from click.testing import CliRunner

from boardgames.cli import LAZY, MODULES, main
from boardgames.cli.common import Command, LazyGroup
from boardgames.zobrist import random_keys
from support.builtin_games import BUILTIN_GAMES
from support.imports import modules_after

HEAVY = (
    "numpy", "boardgames.search", "boardgames.players", "boardgames.match", "boardgames.tournament"
)


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] == "numpy" or m.startswith(HEAVY[1:]))


def test_importing_the_package_and_the_cli_imports_nothing_heavy():
    for code in ("import boardgames", "import boardgames.cli", "from boardgames import get_game"):
        modules = modules_after(code)
        assert not heavy(modules), (code, heavy(modules))
        assert not any(m.startswith("boardgames.games") for m in modules), code
        commands = {m for m in modules if m.startswith("boardgames.cli.")}
        assert commands <= {"boardgames.cli.common"}, (code, commands)


def test_help_imports_no_command_module():
    code = (
        "import sys\nfrom boardgames.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    )
    modules = modules_after(code)
    assert not heavy(modules)
    assert {m for m in modules if m.startswith("boardgames.cli.")} == {"boardgames.cli.common"}
    assert "socket" not in modules  # only the commands that listen or connect need it


def test_list_and_every_game_import_no_numpy():
    code = "from boardgames.cli import main\ntry:\n    main(['list'])\nexcept SystemExit:\n    pass"
    assert "numpy" not in modules_after(code)
    games = ", ".join(repr(name) for name in BUILTIN_GAMES)
    code = (
        "from boardgames import get_game\n"
        f"for name in ({games},):\n    get_game(name).new_state().legal_moves()"
    )
    assert "numpy" not in modules_after(code)


@pytest.mark.parametrize("seed", [0, 1, 12345, 0x5EED_B0A2D, 0x5A7_0000 + 6, 2**70 + 3])
def test_zobrist_keys_are_numpys(seed):
    rng = np.random.default_rng(seed)
    expected = rng.integers(1, 2**64, size=500, dtype=np.uint64, endpoint=False)
    assert random_keys(500, seed) == [int(k) for k in expected]


def test_lazy_table_matches_the_command_modules():
    declared = {}
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for command in module.COMMANDS:
            attribute = next(
                name for name, value in vars(module).items() if value is command
            )
            first = inspect.cleandoc(command.help or "").split("\n\n")[0]
            declared[command.name] = (f"{module_name}:{attribute}", " ".join(first.split()))
    assert declared == LAZY
    for name, (_, text) in LAZY.items():
        command = main.get_command(click.Context(main), name)
        for limit in (30, 45, 60, 80, 200):
            shown = click.Command(None, help=text).get_short_help_str(limit)
            assert shown == command.get_short_help_str(limit), (name, limit)


def test_help_lists_every_command_as_before():
    fresh = click.group(cls=LazyGroup, lazy=LAZY)(lambda: None)
    lazy_help = CliRunner().invoke(fresh, ["--help"]).output
    assert not fresh._loaded  # nothing imported to show the list
    loaded = click.group(cls=LazyGroup)(lambda: None)
    for name in LAZY:
        loaded.add_command(main.get_command(click.Context(main), name))
    assert lazy_help == CliRunner().invoke(loaded, ["--help"]).output
    for name in LAZY:
        assert f"  {name} " in lazy_help


def test_lazy_group_loads_one_command_on_use_and_checks_it(monkeypatch):
    group = click.group(cls=LazyGroup, lazy={"engine": LAZY["engine"]})(lambda: None)
    assert group.list_commands(click.Context(group)) == ["engine"]
    command = group.get_command(click.Context(group), "engine")
    assert isinstance(command, Command) and group._loaded == {"engine": command}
    assert group.get_command(click.Context(group), "nope") is None
    fake = types.ModuleType("fake_commands")
    fake.plain = click.Command("plain")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_commands", fake)
    bad = click.group(cls=LazyGroup, lazy={"x": ("fake_commands:plain", "not ours")})(
        lambda: None
    )
    with pytest.raises(TypeError, match="cls=Command"):
        bad.get_command(click.Context(bad), "x")
