"""The shape of the code: no import cycle among the modules of src (imports
under TYPE_CHECKING and inside functions count), and no function over 80 lines
unless it is a documented hot loop (its docstring says "hot loop" and why it
is kept whole: speed is measured).  Modules are split by what they own, not
by a line count.  No file under tests/ imports a test module: what tests
share lives in tests/support, so each folder of tests runs on its own."""

from __future__ import annotations

import ast
from pathlib import Path

from support.imports import cycles, graph

TESTS = Path(__file__).resolve().parent
SRC = TESTS.parent / "src" / "boardgames"
MAX_FUNCTION = 80


def _sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "static" not in p.parts)


def _documented_hot_loop(
    node: ast.FunctionDef | ast.AsyncFunctionDef, parents: list, module_doc: str
) -> bool:
    """True for a function (or one nested in it) documented as a hot loop: its
    docstring says "hot loop", or the module's docstring names it as one."""
    for candidate in (node, *parents):
        doc = (ast.get_docstring(candidate) or "").lower()
        if "hot loop" in doc or "hot search loop" in doc:
            return True
        if "hot search loop" in module_doc.lower() and f"`{candidate.name}" in module_doc:
            return True
    return False


def _long_functions(path: Path) -> list[str]:
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module_doc = ast.get_docstring(tree) or ""

    def visit(node: ast.AST, parents: list) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (child.end_lineno or child.lineno) - child.lineno + 1
                if length > MAX_FUNCTION and not _documented_hot_loop(child, parents, module_doc):
                    found.append(f"{path.relative_to(SRC)}:{child.lineno} {child.name} ({length})")
                visit(child, [child, *parents])
            else:
                visit(child, parents)

    visit(tree, [])
    return found


def _test_module_imports(path: Path) -> list[str]:
    """Where `path` imports a `test_*` module (anywhere in the file), by
    `import test_x`, `from test_x import ...` or `from package import test_x`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or "", *(alias.name for alias in node.names)]
        else:
            continue
        found += [f"{path.name}:{node.lineno} {name}"
                  for name in names if name.split(".")[-1].startswith("test_")]
    return found


def test_no_import_cycle_in_src():
    assert cycles(graph()) == []


def test_the_cycle_check_finds_a_cycle_through_several_modules():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert cycles(edges) == [["a", "b", "c"]]


def test_no_function_is_over_80_lines_unless_a_documented_hot_loop():
    assert not [f for p in _sources() for f in _long_functions(p)]


def test_no_file_under_tests_imports_a_test_module():
    assert not [f for p in sorted(TESTS.rglob("*.py")) for f in _test_module_imports(p)]


def test_the_test_import_check_finds_each_kind_of_import(tmp_path):
    path = tmp_path / "test_example.py"
    path.write_text(
        "import os\nfrom support.strips import STRIPS\nfrom test_search import STRIPS\n"
        "from tests.cli import test_startup\n"
        "def helper():\n    import test_startup, json\n    import tests.cli.test_startup\n",
        encoding="utf-8",
    )
    assert _test_module_imports(path) == [
        "test_example.py:3 test_search",
        "test_example.py:4 test_startup",
        "test_example.py:6 test_startup",
        "test_example.py:7 tests.cli.test_startup",
    ]
