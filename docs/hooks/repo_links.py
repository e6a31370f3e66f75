"""MkDocs hook: links from a page to files of the repository outside docs/.

The guides link to examples and tools (`[examples/connect_four](../examples/connect_four)`),
which work on the repository's host but are not part of the site.  When
mkdocs.yml sets `repo_url`, such a link goes to the file there; otherwise it
becomes its text.  A link to a file that does not exist is left alone, so the
build still reports it.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

#: An inline Markdown link with a relative target: its text and its target.
LINK = re.compile(r"\[(?P<text>[^\]]*)\]\((?P<target>[^)\s:#]+)(?P<anchor>#[^)\s]*)?\)")
#: Fenced code blocks, left as they are.
FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", flags=re.S | re.M)


def outside_target(page_uri: str, target: str, docs: Path) -> str | None:
    """The repository path (relative to the root) that `target`, a link on the
    page `page_uri`, reaches when that is an existing file or folder outside
    `docs`; None for a link within the docs or to nothing."""
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(page_uri), target))
    if not joined.startswith("../"):
        return None
    root = docs.parent
    path = (docs / joined).resolve()
    if not path.exists() or not path.is_relative_to(root) or path.is_relative_to(docs):
        return None
    return path.relative_to(root).as_posix()


def rewrite_links(markdown: str, page_uri: str, docs: Path, repo_url: str | None) -> str:
    """`markdown` with its links to repository files outside `docs` sent to
    `repo_url` (its `tree/HEAD/` view), or made plain text without one."""

    def rewrite(match: re.Match[str]) -> str:
        path = outside_target(page_uri, match["target"], docs)
        if path is None:
            return match[0]
        if not repo_url:
            return match["text"]
        anchor = match["anchor"] or ""
        return f"[{match['text']}]({repo_url.rstrip('/')}/tree/HEAD/{path}{anchor})"

    parts = []
    last = 0
    for fence in FENCE.finditer(markdown):
        parts.append(LINK.sub(rewrite, markdown[last : fence.start()]))
        parts.append(fence[0])
        last = fence.end()
    parts.append(LINK.sub(rewrite, markdown[last:]))
    return "".join(parts)


def on_page_markdown(markdown: str, page: Any, config: Any, **_: Any) -> str:
    """MkDocs event: rewrite the page's links to the repository's files."""
    docs = Path(config["docs_dir"]).resolve()
    return rewrite_links(markdown, page.file.src_uri, docs, config.get("repo_url"))
