"""Board text: the course's HexiFence format, a line drawing for dots-and-boxes,
and the course's Part A answer.

Moves are edge points: `A1` (row letter, column number) or `row,col`
(0-based) of the edge grid (`parse_edge` / `format_edge`).

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

from typing import TYPE_CHECKING, cast

from ...errors import NotationError
from ...registry import get_game
from ..grid import format_point, parse_point
from .rules import UNKNOWN

if TYPE_CHECKING:
    from .rules import EdgeGame, EdgeState

HEX_EDGE = {"+": -1, "B": 0, "R": 1}
HEX_CELL = {"-": -1, "b": 0, "r": 1}
DOTS_OWNER = {" ": -1, "1": 0, "2": 1, "?": UNKNOWN}


def _is_hex(game: EdgeGame) -> bool:
    return game.name == "hexifence"


def parse_edge(game: EdgeGame, text: str) -> int:
    """The edge at the grid point `text` names (`A1` or `row,col`)."""
    point = parse_point(text, game.layout.rows, game.layout.cols)
    edge = game.point_to_edge.get(point)
    if edge is None:
        raise NotationError(text, "not an edge of this board")
    return edge


def format_edge(game: EdgeGame, edge: int) -> str:
    """The name of the grid point of `edge`."""
    i, j = game.layout.edge_points[edge]
    return format_point(i, j)


def parse_position(game: EdgeGame, text: str) -> EdgeState:
    """A position of `game`'s kind: a HexiFence board or a dots-and-boxes
    drawing.  The text sets the size, so a board of another size gives a
    state of that size's game."""
    if _is_hex(game):
        return parse_hex(text)
    return parse_dots(text)


def position_text(state: EdgeState) -> str:
    """The position as text: the board's picture and the side to move, as
    `parse_position` reads it back."""
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


def parse_hex(text: str) -> EdgeState:
    """A HexiFence position in the course's format (see the module docstring),
    of the game of the size on its first line."""
    lines = text.replace("\r", "").split("\n")
    if not lines or not lines[0].strip():
        raise NotationError(text[:40], "the first line must give the board size N")
    head = lines[0].strip()
    if not (head.isascii() and head.isdigit()) or len(head) > 9 or not 1 <= int(head) <= 5:
        raise NotationError(head, "the board size N on the first line must be 1 to 5")
    n = int(head)
    game = cast("EdgeGame", get_game("hexifence", size=n))
    lines, to_move = _split_to_move(lines[1:], game, text)
    size = 4 * n - 1
    if len(lines) != size:
        raise NotationError(
            text.strip().splitlines()[-1] if text.strip() else text,
            f"a board of size {n} has {size} rows after the size line, found {len(lines)}",
        )
    claimed, owner = _read_hex_grid(lines, game)
    _check_owners(game, claimed, owner)
    return _finish(game, claimed, owner, to_move)


def _read_hex_grid(lines: list[str], game: EdgeGame) -> tuple[list[int], list[int]]:
    """(claimant of every edge, owner of every cell) from the grid's rows."""
    layout = game.layout
    size = layout.rows
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
            where = f"row {i + 1} column {j + 1}"
            if what == "edge":
                claimed[index] = _hex_token(token, HEX_EDGE, f"{where} is an edge: + B or R")
            elif what == "cell":
                owner[index] = _hex_token(token, HEX_CELL, f"{where} is a cell: - b or r")
            elif token != "-":
                raise NotationError(token, f"{where} is off the board: -")
    return claimed, owner


def _hex_token(token: str, meaning: dict[str, int], expected: str) -> int:
    if token not in meaning:
        raise NotationError(token, expected)
    return meaning[token]


def _check_owners(game: EdgeGame, claimed: list[int], owner: list[int]) -> None:
    for c, edges in enumerate(game.cell_edges):
        complete = all(claimed[e] >= 0 for e in edges)
        i, j = game.layout.cell_points[c]
        where = f"{chr(ord('A') + i)}{j + 1}"
        if owner[c] >= 0 and not complete:
            raise NotationError(where, "a captured cell must have every edge claimed")
        if complete and owner[c] < 0:
            owner[c] = UNKNOWN


def _finish(
    game: EdgeGame, claimed: list[int], owner: list[int], to_move: int | None
) -> EdgeState:
    state = game.new_state()
    if to_move is None:
        to_move = _default_to_move(claimed, owner)
    state.set_position(claimed, owner, to_move)
    return state


def parse_dots(text: str) -> EdgeState:
    """A dots-and-boxes drawing (see the module docstring), of the game of the
    drawing's size."""
    lines = text.replace("\r", "").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        raise NotationError(text, "empty dots-and-boxes drawing")
    cols = _dots_columns(lines[0].rstrip())
    body = _drawing_body(lines, text)
    game = cast("EdgeGame", get_game("dots", rows=(len(body) - 1) // 2, cols=cols))
    rest = lines[len(body) :]
    _, to_move = _split_to_move(rest, game, text)
    if any(line.strip() for line in rest):  # a second 'to move' line too
        raise NotationError(text[:40], "unexpected text after the drawing")
    claimed, owner = _read_drawing(body, game, cols)
    _check_owners(game, claimed, owner)
    return _finish(game, claimed, owner, to_move)


def _dots_columns(first: str) -> int:
    """The number of box columns, from the first line of dots."""
    if len(first) < 5 or (len(first) - 1) % 4 or not first.startswith("+"):
        raise NotationError(first, "the first line must be dots: +---+ or +   +")
    return (len(first) - 1) // 4


def _drawing_body(lines: list[str], text: str) -> list[str]:
    """The drawing's lines: up to the 'to move' line, trailing blank lines dropped."""
    body: list[str] = []
    for line in lines:
        if line.strip().lower().startswith("to move"):
            break
        body.append(line)
    while body and not body[-1].strip():
        body.pop()
    if len(body) < 3 or len(body) % 2 == 0:
        raise NotationError(text[:40], "a drawing has an odd number (at least 3) of lines")
    return body


def _read_drawing(body: list[str], game: EdgeGame, cols: int) -> tuple[list[int], list[int]]:
    """(claimant of every edge: UNKNOWN or -1, owner of every box) from the drawing.

    Grid point (i, j) sits at line i, character 2j: dots where both are
    even, boxes where both are odd, edges elsewhere.
    """
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
            if i % 2 == 1 and j % 2 == 1:
                owner[cell_at[(i, j)]] = _box_owner(line, raw, i, 2 * j)
            elif (i + j) % 2 == 1:
                claimed[game.point_to_edge[(i, j)]] = _edge_claim(line, raw, i, 2 * j)
            elif line[2 * j] != "+":
                raise NotationError(raw, f"line {i + 1} needs a + dot at column {2 * j + 1}")
    return claimed, owner


def _edge_claim(line: str, raw: str, i: int, x: int) -> int:
    """UNKNOWN for a drawn edge at character x of line i (`---` or `|`), -1 for a blank."""
    if i % 2 == 0:
        seg = line[x - 1 : x + 2]
        if seg not in ("---", "   "):
            raise NotationError(raw, f"line {i + 1}: an edge is --- or blank")
        return UNKNOWN if seg == "---" else -1
    if line[x] not in "| ":
        raise NotationError(raw, f"line {i + 1}: an edge is | or blank")
    return UNKNOWN if line[x] == "|" else -1


def _box_owner(line: str, raw: str, i: int, x: int) -> int:
    """The owner written in the box centred at character x of line i."""
    seg = line[x - 1 : x + 2]
    if seg[0] != " " or seg[2] != " " or seg[1] not in DOTS_OWNER:
        raise NotationError(raw, f"line {i + 1}: a box holds 1, 2, ? or nothing")
    return DOTS_OWNER[seg[1]]


def part_a(state: EdgeState) -> str:
    """The course's Part A answer, three lines: empty edges, the most cells
    one move can capture, cells with exactly one empty edge."""
    return "\n".join(str(n) for n in state.part_a_counts())
