"""Plugins: modules or .py files that register extra games (and their AIs).

`import_plugins(["examples/connect_four", "my_game.py", "mypkg.games"])` imports each
once per process; a file is imported as `boardgames_plugin_<stem>` unless it
is already imported under its own name.  The CLI also reads the
BOARDGAMES_PLUGINS variable; tournament workers call this before building a
game, so a game defined outside the package reaches every process.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from .errors import OptionError, quote

PLUGINS_ENV = "BOARDGAMES_PLUGINS"


def env_plugins() -> list[str]:
    """Plugins named by BOARDGAMES_PLUGINS (separated by the OS path separator)."""
    return [s for s in os.environ.get(PLUGINS_ENV, "").split(os.pathsep) if s]


def import_plugins(plugins: Iterable[str]) -> None:
    """Import modules (dotted names) or .py files; OptionError naming the plugin
    and the reason if one cannot be imported (whatever it raised)."""
    for plugin in plugins:
        import_plugin(plugin)


def try_plugins(plugins: Iterable[str]) -> list[str]:
    """Import what can be imported; one message per plugin that cannot."""
    failures = []
    for plugin in plugins:
        try:
            import_plugin(plugin)
        except OptionError as exc:
            failures.append(str(exc))
    return failures


def import_plugin(plugin: str) -> None:
    """Import one plugin (a module name, a .py file or a package folder);
    OptionError if it cannot be (whatever it raised, even SystemExit)."""
    if not plugin.strip():
        raise OptionError("empty plugin name (give a module, a .py file or a package folder)")
    try:
        if plugin.endswith(".py") or os.sep in plugin or Path(plugin).exists():
            _import_path(Path(plugin))
        else:
            importlib.import_module(plugin)
    except OptionError:
        raise
    except (Exception, SystemExit) as exc:  # its own error or exit, a syntax or import error
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())
        raise OptionError(f"cannot import plugin {quote(plugin)}: {reason}") from None


def _import_path(path: Path) -> None:
    """A .py file, or a package folder (its __init__.py), imported once."""
    if path.name == "__init__.py":
        path = path.parent
    package = path.is_dir()
    name = f"boardgames_plugin_{path.stem}"
    if name in sys.modules or _imported_under_own_name(path):
        return
    if package and not (path / "__init__.py").is_file():
        raise OptionError(f"plugin folder {quote(str(path))} is not a package (no __init__.py)")
    if not package and not path.is_file():
        if path.exists():  # a device, a pipe or a socket: nothing to import (and no reading it)
            raise OptionError(f"plugin {quote(str(path))} is {_kind(path)}, not a regular file")
        raise OptionError(f"plugin file not found: {quote(str(path))}")
    if not package and path.suffix != ".py":
        raise OptionError(f"plugin {quote(str(path))} is not a Python file (.py)")
    if package:
        spec = importlib.util.spec_from_file_location(
            name, path / "__init__.py", submodule_search_locations=[str(path)]
        )
    else:
        spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise OptionError(f"cannot import plugin {quote(str(path))}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise


def _kind(path: Path) -> str:
    """What a path that is neither a regular file nor a folder is, in words."""
    mode = path.stat().st_mode
    for test, kind in (
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return "neither a file nor a folder"


def _imported_under_own_name(path: Path) -> bool:
    """True when `path` (a file or a package folder) is already imported by its own name."""
    module = sys.modules.get(path.stem)
    where = getattr(module, "__file__", None)
    if where is None:
        return False
    mine = Path(where).parent if Path(where).name == "__init__.py" else Path(where)
    try:
        return mine.resolve() == path.resolve()
    except OSError:
        return False
