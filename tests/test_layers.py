"""The layers of docs/architecture.md, checked on the source: each package
imports only from the layers below it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "boardgames"

#: For each layer, the top-level modules/packages of boardgames it must not import.
FORBIDDEN = {
    "games": {"search", "ai", "arena", "cli", "web", "players"},
    "search": {"games", "ai", "arena", "cli", "web", "players"},
    "evaluation.py": {"games", "search", "ai", "arena", "cli", "web", "players"},
    "game.py": {"games", "search", "ai", "arena", "cli", "web", "players"},
    "options.py": {"games", "search", "ai", "arena", "cli", "web", "players", "game"},
    "errors.py": {"games", "search", "ai", "arena", "cli", "web", "players", "game", "options"},
    "ai": {"arena", "cli", "web"},
    "players.py": {"games", "ai", "arena", "cli", "web"},
    "arena": {"cli", "web"},
}


def _imports(path: Path) -> set[str]:
    """The boardgames submodules a file imports (first component after `boardgames`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.relative_to(SRC.parent).with_suffix("").parts[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                names = [".".join([*base, node.module] if node.module else base)]
                if not node.module:
                    names = [".".join([*base, a.name]) for a in node.names]
            else:
                names = [node.module or ""]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "boardgames" and len(parts) > 1:
                found.add(parts[1])
    return found


def _files(layer: str) -> list[Path]:
    target = SRC / layer
    return sorted(target.rglob("*.py")) if target.is_dir() else [target]


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layers_import_only_downwards(layer):
    bad = {
        str(path.relative_to(SRC)): sorted(_imports(path) & FORBIDDEN[layer])
        for path in _files(layer)
    }
    assert not {k: v for k, v in bad.items() if v}


def test_the_checker_sees_relative_imports():
    assert "search" in _imports(SRC / "ai" / "generic.py") or "search" in _imports(
        SRC / "ai" / "hadron.py"
    )
