"""MkDocs hook: draw the board pictures of the guides with the library's own SVG.

A fenced block of language `boardgames-svg` names a game, its options and a
position; the build replaces it with the picture `game.render_svg` draws:

    ```boardgames-svg
    game: squatter
    options: size=5
    moves: C3 B2 D4
    caption: After three moves
    ```

The block is YAML: `game` (required), `options` (`key=value,key=value`, as
in an AI spec), either `moves` (played from the start) or `position` (the
game's position text; a `|` block for several lines), and `caption`.  A bad
block stops the build with the page and the line it starts on.
"""

from __future__ import annotations

import html
import re
from typing import Any

import yaml
from mkdocs.exceptions import PluginError

from boardgames.errors import BoardgamesError
from boardgames.options import parse_pairs
from boardgames.registry import get_game

#: The line that opens or closes a fenced code block: its fence and its info string.
FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*?)[ \t]*$")
KEYS = {"game", "options", "moves", "position", "caption"}


class PictureError(ValueError):
    """A `boardgames-svg` block that does not describe a picture."""


def parse_block(body: str) -> dict[str, str]:
    """The keys of a block's body, every value as text; PictureError for
    what is not a mapping of the known keys, or lacks `game`, or has both
    `moves` and `position`."""
    try:
        data: Any = yaml.safe_load(body)
    except yaml.YAMLError as exc:
        raise PictureError(f"not YAML: {exc}") from None
    if not isinstance(data, dict):
        raise PictureError(
            "expected lines of 'key: value' (game, options, moves or position, caption)"
        )
    unknown = sorted(str(k) for k in data if k not in KEYS)
    if unknown:
        raise PictureError(f"unknown key {', '.join(unknown)}; known: {', '.join(sorted(KEYS))}")
    if "game" not in data:
        raise PictureError("no 'game:' (a registered game name)")
    if "moves" in data and "position" in data:
        raise PictureError("give 'moves' or 'position', not both")
    return {str(k): "" if v is None else str(v) for k, v in data.items()}


def render_block(body: str) -> str:
    """The HTML figure (the SVG and its caption) that a block's body describes;
    PictureError with the reason for a bad block."""
    spec = parse_block(body)
    try:
        items = [p.strip() for p in spec.get("options", "").split(",") if p.strip()]
        game = get_game(spec["game"], **parse_pairs(items, "game option"))
        if "position" in spec:
            state = game.parse_position(spec["position"].strip())
        else:
            state = game.replay(spec.get("moves", ""))
    except BoardgamesError as exc:
        raise PictureError(str(exc)) from None
    # One line: a blank line inside would end Markdown's raw HTML block.
    svg = " ".join(line.strip() for line in game.render_svg(state).splitlines() if line.strip())
    caption = spec.get("caption", "").strip()
    if caption:
        label = caption
    elif "position" in spec:
        label = f"{game.name}: a position"
    else:
        label = f"{game.name}: {state.moves_text() or 'the start position'}"
    parts = [f'<figure class="boardgames-svg" role="img" aria-label="{html.escape(label)}">', svg]
    if caption:
        parts.append(f"<figcaption>{html.escape(caption)}</figcaption>")
    parts.append("</figure>")
    return "\n".join(parts)


def replace_blocks(markdown: str, page: str) -> str:
    """`markdown` with every `boardgames-svg` block replaced by its picture;
    PluginError naming `page` and the block's line for a bad block.

    Only blocks at the top level count: one shown inside another fenced
    block (to document the syntax) stays as it is."""
    out: list[str] = []
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        opener = FENCE.match(lines[i])
        if not opener:
            out.append(lines[i])
            i += 1
            continue
        fence = opener["fence"]
        end = i + 1
        while end < len(lines):
            closer = FENCE.match(lines[end])
            if (
                closer
                and not closer["info"]
                and closer["fence"][0] == fence[0]
                and len(closer["fence"]) >= len(fence)
            ):
                break
            end += 1
        if opener["info"] != "boardgames-svg":
            out.extend(lines[i : end + 1])
        elif end == len(lines):
            raise PluginError(f"{page}, line {i + 1}: boardgames-svg block is never closed")
        else:
            try:
                out.extend(["", render_block("\n".join(lines[i + 1 : end])), ""])
            except PictureError as exc:
                raise PluginError(
                    f"{page}, line {i + 1}: bad boardgames-svg block: {exc}"
                ) from None
        i = end + 1
    return "\n".join(out)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """MkDocs event: draw the page's pictures before its Markdown is rendered."""
    return replace_blocks(markdown, page.file.src_uri)
