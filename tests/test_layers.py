"""The layers of docs/architecture.md, checked on the source: a module imports
only modules of its own layer or of the layers below it (every import counts,
including those under TYPE_CHECKING and inside functions)."""

from __future__ import annotations

import pytest

from support.imports import PACKAGE, graph, imports_of, modules

#: Bottom first: the first component of a module's name below `boardgames`.
LAYERS: list[set[str]] = [
    {"errors", "options", "zobrist", "io", "busy"},
    {"budget", "clock", "evaluation", "game", "solution", "plugins", "parallel", "planes",
     "weights"},
    {"registry"},
    {"games"},
    {"search"},
    {"players"},
    {"solving", "programs"},
    {"ai"},
    {"match"},
    {"tournament", "protocols"},
    {"tuning"},
    {"envs", "openspiel"},
    {"cli", "web"},
]
#: The package itself (its lazy public names) and `python -m boardgames` stand above all.
TOP = {PACKAGE, f"{PACKAGE}.__main__"}


def layer_of(module: str) -> int:
    if module in TOP:
        return len(LAYERS)
    name = module.split(".")[1]
    for level, names in enumerate(LAYERS):
        if name in names:
            return level
    raise AssertionError(f"{module} is in no layer: add it to LAYERS (and architecture.md)")


def test_every_module_has_a_layer():
    for module in modules():
        layer_of(module)


@pytest.mark.parametrize("layer", range(len(LAYERS)), ids=lambda i: "+".join(sorted(LAYERS[i])))
def test_a_layer_imports_only_itself_and_the_layers_below(layer):
    upward = {
        module: sorted(m for m in imported if layer_of(m) > layer)
        for module, imported in graph().items()
        if module not in TOP and layer_of(module) == layer
    }
    assert not {m: up for m, up in upward.items() if up}


def test_the_checker_sees_every_kind_of_import():
    # relative, and inside a function (`make_player` is reached from the search AI)
    assert f"{PACKAGE}.search" in imports_of(f"{PACKAGE}.ai.generic")
    # under TYPE_CHECKING
    assert f"{PACKAGE}.players" in imports_of(f"{PACKAGE}.ai.registry")
