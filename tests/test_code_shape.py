"""The shape of the code: no import cycle among the modules of src (imports
under TYPE_CHECKING and inside functions count), and no function over 80 lines
unless it is a documented hot loop (its docstring says "hot loop" and why it
is kept whole: speed is measured).  Modules are split by what they own, not
by a line count."""

from __future__ import annotations

import ast
from pathlib import Path

from support.imports import cycles, graph

SRC = Path(__file__).resolve().parent.parent / "src" / "boardgames"
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


def test_no_import_cycle_in_src():
    assert cycles(graph()) == []


def test_the_cycle_check_finds_a_cycle_through_several_modules():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert cycles(edges) == [["a", "b", "c"]]


def test_no_function_is_over_80_lines_unless_a_documented_hot_loop():
    assert not [f for p in _sources() for f in _long_functions(p)]
