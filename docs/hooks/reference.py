"""MkDocs hook: one API reference page per public module of `boardgames`.

The pages are generated at build time, so a new module gets its page (and
its place in the navigation) without anyone writing one.  A module is public
when no part of its dotted name starts with an underscore; a package's page
is its `__init__`.  mkdocs.yml's navigation names the overview page,
`reference/index.md`; this hook puts the packages and modules below it.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = "boardgames"
OVERVIEW = "reference/index.md"


def public_modules(src: Path = SRC, package: str = PACKAGE) -> list[str]:
    """The dotted names of the public modules and packages under `src/package`, sorted."""
    names = []
    for path in sorted((src / package).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if any(part.startswith("_") for part in parts):
            continue
        names.append(".".join(parts))
    return sorted(names)


def module_path(name: str, src: Path = SRC) -> Path:
    """The file that defines the module or package `name`."""
    base = src.joinpath(*name.split("."))
    return base / "__init__.py" if is_package(name, src) else base.with_suffix(".py")


def is_package(name: str, src: Path = SRC) -> bool:
    """Whether `name` is a package (a directory with an `__init__.py`)."""
    return (src.joinpath(*name.split(".")) / "__init__.py").is_file()


def page_uri(name: str, src: Path = SRC) -> str:
    """The page of module `name` inside the docs: a package's is its folder's index."""
    path = "reference/" + name.replace(".", "/")
    return path + "/index.md" if is_package(name, src) else path + ".md"


def summary(name: str, src: Path = SRC) -> str:
    """The first line of the module's docstring (read without importing it)."""
    doc = ast.get_docstring(ast.parse(module_path(name, src).read_text()))
    return doc.strip().splitlines()[0] if doc else ""


def module_page(name: str) -> str:
    """The Markdown of a module's page: a title and mkdocstrings' directive."""
    return f"# `{name}`\n\n::: {name}\n"


def overview_page(names: list[str], src: Path = SRC) -> str:
    """The reference's first page: every public module with its summary."""
    lines = [
        "# API reference",
        "",
        "Every public module of `boardgames`, generated from its docstrings.",
        "Most programs need only `boardgames` (games, states, errors),",
        "`boardgames.search` (the searcher and the solver), `boardgames.players`",
        "and `boardgames.match`; [Getting started](../getting-started.md) shows them",
        "at work.",
        "",
        "| module | what it holds |",
        "|---|---|",
    ]
    for name in names:
        link = page_uri(name, src).removeprefix("reference/")
        text = summary(name, src).replace("|", "\\|")
        lines.append(f"| [`{name}`]({link}) | {text} |")
    return "\n".join(lines) + "\n"


def navigation(names: list[str], src: Path = SRC) -> list[Any]:
    """The navigation below the overview: packages as sections (their own
    page first), modules as pages, in the order of their names."""
    root: list[Any] = []
    sections: dict[str, list[Any]] = {}
    for name in names:
        parent = name.rpartition(".")[0]
        siblings = sections.get(parent, root)
        title = name.rpartition(".")[2]
        if is_package(name, src):
            children: list[Any] = [page_uri(name, src)]
            sections[name] = children
            siblings.append({title: children})
        else:
            siblings.append({title: page_uri(name, src)})
    return root


def _expand(nav: list[Any], names: list[str]) -> bool:
    """Put the modules' navigation below the item that names the overview."""
    for i, item in enumerate(nav):
        if isinstance(item, dict):
            ((title, value),) = item.items()
            if value == OVERVIEW:
                nav[i] = {title: [OVERVIEW, *navigation(names)]}
                return True
            if isinstance(value, list) and _expand(value, names):
                return True
    return False


def on_config(config: Any, **_: Any) -> Any:
    """MkDocs event: the navigation gets the reference's pages."""
    if config["nav"] is not None and not _expand(config["nav"], public_modules()):
        from mkdocs.exceptions import PluginError

        raise PluginError(f"mkdocs.yml's nav does not name {OVERVIEW}")
    return config


def on_files(files: Any, config: Any, **_: Any) -> Any:
    """MkDocs event: the reference's pages join the documentation files."""
    from mkdocs.structure.files import File

    names = public_modules()
    files.append(File.generated(config, OVERVIEW, content=overview_page(names)))
    for name in names:
        files.append(File.generated(config, page_uri(name), content=module_page(name)))
    return files
