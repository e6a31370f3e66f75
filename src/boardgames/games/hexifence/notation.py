"""Board text: the course's HexiFence format and a line drawing for dots-and-boxes.

HexiFence (COMP30024 2016 Part A): a line with N, then 4N-1 lines of 4N-1
tokens: `+` empty edge, `B`/`R` claimed edge, `-` cell centre or off-board
point, `b`/`r` the centre of a cell captured by Blue/Red.  A complete cell
written `-` was captured by an unknown player: it counts for nobody.

Who moves next is not in the course's format (extra turns break parity).
Convention: an optional last line `to move: blue|red`; without it, the side
to move is Blue when (claimed edges - captured cells) is even, which is
exact when no single move ever captured two cells.  `to_text` always writes
the line, so positions round-trip.

Dots-and-boxes: a drawing of the grid, `+` dots, `---` and `|` claimed
edges, `1`/`2` (or `?` for unknown) inside captured boxes, then the same
optional `to move: first|second` line.  It records which edges are claimed,
not by whom.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import NotationError
from .edgecore import UNKNOWN

if TYPE_CHECKING:
    from .edgecore import EdgeGame, EdgeState

HEX_EDGE = {"+": -1, "B": 0, "R": 1}
HEX_CELL = {"-": -1, "b": 0, "r": 1}
DOTS_OWNER = {" ": -1, "1": 0, "2": 1, "?": UNKNOWN}


def _is_hex(game: EdgeGame) -> bool:
    return game.name == "hexifence"


def position_text(state: EdgeState) -> str:
    game = state.game
    body = _hex_text(state) if _is_hex(game) else _dots_text(state)
    return f"{body}\nto move: {game.player_names[state.to_move]}\n"


def _hex_text(state: EdgeState) -> str:
    game = state.game
    size = game.layout.rows
    grid = [["-"] * size for _ in range(size)]
    for e, (i, j) in enumerate(game.layout.edge_points):
        grid[i][j] = "+BRB"[state.claimed[e] + 1]
    for c, (i, j) in enumerate(game.layout.cell_points):
        owner = state.owner[c]
        grid[i][j] = "b" if owner == 0 else "r" if owner == 1 else "-"
    return "\n".join([str(game.params["size"])] + [" ".join(row) for row in grid])


def _dots_text(state: EdgeState) -> str:
    game = state.game
    rows, cols = game.layout.rows, game.layout.cols
    out = []
    edge_at = game.point_to_edge
    cell_at = {p: c for c, p in enumerate(game.layout.cell_points)}
    for i in range(rows):
        parts = []
        for j in range(cols):
            if i % 2 == 0:
                if j % 2 == 0:
                    parts.append("+")
                else:
                    parts.append("---" if state.claimed[edge_at[(i, j)]] >= 0 else "   ")
            elif j % 2 == 0:
                parts.append("|" if state.claimed[edge_at[(i, j)]] >= 0 else " ")
            else:
                owner = state.owner[cell_at[(i, j)]]
                parts.append(f" {'12?'[owner] if owner >= 0 else ' '} ")
        out.append("".join(parts).rstrip())
    return "\n".join(out)


def _split_to_move(lines: list[str], game: EdgeGame, text: str) -> tuple[list[str], int | None]:
    while lines and not lines[-1].strip():
        lines.pop()
    if lines and lines[-1].strip().lower().startswith("to move"):
        _, _, who = lines.pop().partition(":")
        who = who.strip().lower()
        if who not in game.player_names:
            raise NotationError(text, f"'to move:' must name {' or '.join(game.player_names)}")
        return lines, game.player_names.index(who)
    return lines, None


def _default_to_move(claimed: list[int], owner: list[int]) -> int:
    captured = sum(1 for o in owner if o >= 0)
    return (len(claimed) - claimed.count(-1) - captured) % 2


def parse_hex(text: str, get_size_game) -> EdgeState:
    """A HexiFence position in the course's format (see the module docstring)."""
    lines = text.replace("\r", "").split("\n")
    if not lines or not lines[0].strip():
        raise NotationError(text[:40], "the first line must give the board size N")
    head = lines[0].strip()
    if not head.isdigit() or not 1 <= int(head) <= 5:
        raise NotationError(head, "the board size N on the first line must be 1 to 5")
    n = int(head)
    game = get_size_game(n)
    lines, to_move = _split_to_move(lines[1:], game, text)
    size = 4 * n - 1
    if len(lines) != size:
        raise NotationError(
            text.strip().splitlines()[-1] if text.strip() else text,
            f"a board of size {n} has {size} rows after the size line, found {len(lines)}",
        )
    layout = game.layout
    kind = {p: ("edge", e) for e, p in enumerate(layout.edge_points)}
    kind.update({p: ("cell", c) for c, p in enumerate(layout.cell_points)})
    claimed = [-1] * game.num_moves
    owner = [-1] * game.num_cells
    for i, line in enumerate(lines):
        tokens = line.split()
        if len(tokens) != size:
            raise NotationError(line, f"row {i + 1} needs {size} tokens, found {len(tokens)}")
        for j, token in enumerate(tokens):
            what, index = kind.get((i, j), ("off", -1))
            if what == "edge":
                if token not in HEX_EDGE:
                    raise NotationError(token, f"row {i + 1} column {j + 1} is an edge: + B or R")
                claimed[index] = HEX_EDGE[token]
            elif what == "cell":
                if token not in HEX_CELL:
                    raise NotationError(token, f"row {i + 1} column {j + 1} is a cell: - b or r")
                owner[index] = HEX_CELL[token]
            elif token != "-":
                raise NotationError(token, f"row {i + 1} column {j + 1} is off the board: -")
    _check_owners(game, claimed, owner)
    return _finish(game, claimed, owner, to_move)


def _check_owners(game: EdgeGame, claimed: list[int], owner: list[int]) -> None:
    for c, edges in enumerate(game.cell_edges):
        complete = all(claimed[e] >= 0 for e in edges)
        i, j = game.layout.cell_points[c]
        where = f"{chr(ord('A') + i)}{j + 1}"
        if owner[c] >= 0 and not complete:
            raise NotationError(where, "a captured cell must have every edge claimed")
        if complete and owner[c] < 0:
            owner[c] = UNKNOWN


def _finish(game: EdgeGame, claimed: list[int], owner: list[int], to_move: int | None):
    state = game.new_state()
    if to_move is None:
        to_move = _default_to_move(claimed, owner)
    state.set_position(claimed, owner, to_move)
    return state


def parse_dots(text: str, get_dims_game) -> EdgeState:
    """A dots-and-boxes drawing (see the module docstring)."""
    lines = text.replace("\r", "").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        raise NotationError(text, "empty dots-and-boxes drawing")
    first = lines[0].rstrip()
    if len(first) < 5 or (len(first) - 1) % 4 or not first.startswith("+"):
        raise NotationError(first, "the first line must be dots: +---+ or +   +")
    cols = (len(first) - 1) // 4
    body: list[str] = []
    for line in lines:
        if line.strip().lower().startswith("to move"):
            break
        body.append(line)
    while body and not body[-1].strip():
        body.pop()
    if len(body) < 3 or len(body) % 2 == 0:
        raise NotationError(text[:40], "a drawing has an odd number (at least 3) of lines")
    rows = (len(body) - 1) // 2
    game = get_dims_game(rows, cols)
    rest = lines[len(body) :]
    _, to_move = _split_to_move(rest, game, text)
    if any(line.strip() for line in rest if not line.strip().lower().startswith("to move")):
        raise NotationError(text[:40], "unexpected text after the drawing")
    width = 4 * cols + 1
    claimed = [-1] * game.num_moves
    owner = [-1] * game.num_cells
    cell_at = {p: c for c, p in enumerate(game.layout.cell_points)}
    for i, raw in enumerate(body):
        line = raw.rstrip()
        if len(line) > width:
            raise NotationError(raw, f"line {i + 1} is longer than {width} characters")
        line = line.ljust(width)
        for j in range(2 * cols + 1):
            x = 2 * j
            if i % 2 == 0 and j % 2 == 0:
                if line[x] != "+":
                    raise NotationError(raw, f"line {i + 1} needs a + dot at column {x + 1}")
                continue
            if i % 2 == 0:
                seg = line[x - 1 : x + 2]
                if seg not in ("---", "   "):
                    raise NotationError(raw, f"line {i + 1}: an edge is --- or blank")
                claimed[game.point_to_edge[(i, j)]] = UNKNOWN if seg == "---" else -1
            elif j % 2 == 0:
                if line[x] not in "| ":
                    raise NotationError(raw, f"line {i + 1}: an edge is | or blank")
                claimed[game.point_to_edge[(i, j)]] = UNKNOWN if line[x] == "|" else -1
            else:
                seg = line[x - 1 : x + 2]
                if seg[0] != " " or seg[2] != " " or seg[1] not in DOTS_OWNER:
                    raise NotationError(raw, f"line {i + 1}: a box holds 1, 2, ? or nothing")
                owner[cell_at[(i, j)]] = DOTS_OWNER[seg[1]]
    _check_owners(game, claimed, owner)
    return _finish(game, claimed, owner, to_move)
