"""The import graph of src/boardgames, read from the source with `ast`.

Every import counts: at module level, under `if TYPE_CHECKING:` and inside
functions, since each of them is a dependency a reader has to follow.
Importing `a.b.c` also imports the packages `a` and `a.b` (their
`__init__.py` runs first), so those count too.

`modules_after` asks a fresh interpreter instead: which modules running
some code really imports.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = "boardgames"


@cache
def modules() -> dict[str, Path]:
    """Dotted module name -> its file (a package is its __init__.py)."""
    found = {}
    for path in (SRC / PACKAGE).rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The module an ImportFrom names, with relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if path.name != "__init__.py":
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(module: str) -> set[str]:
    """The modules of the package that `module` imports, however and wherever."""
    known = modules()
    path = known[module]
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(module, path, node)
            # `from package import name`: a submodule when there is one.
            names += [f"{target}.{a.name}" if f"{target}.{a.name}" in known else target
                      for a in node.names]
    found = set()
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        parts = name.split(".")
        for i in range(1, len(parts) + 1):  # the packages above it run first
            ancestor = ".".join(parts[:i])
            if ancestor in known and ancestor != module and not module.startswith(ancestor + "."):
                found.add(ancestor)
    return found


def graph() -> dict[str, set[str]]:
    """Every module of the package and the modules it imports."""
    return {module: imports_of(module) for module in modules()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def modules_after(code: str) -> set[str]:
    """The modules imported by a fresh interpreter that runs `code`."""
    script = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    return set(json.loads(out.strip().splitlines()[-1]))
