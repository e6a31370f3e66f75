"""Chain rules for the exact solver: which captures to take, loony endgames.

Both work on the solver's coins view (coins.py): `emp[c]` empty edges left
around cell c, `gleft[c]` of them on the border, `claimed[m]` for the inner
moves, `links[c]` the (inner move, neighbour) pairs of c.

`capture_plan`: when cells can be captured (one empty edge left), most
choices are provably dominated.  Let c be capturable through its last edge
e, leading to the ground or to a cell d:

1. e on the border, or d with one empty edge (e completes both), or d with
   three or more: capturing c now is at least as good as any other move.
   (Any move m that captures nothing leaves c to the opponent, who takes it
   and is then where we would be after e and m, a capture better off; and
   such an m stays non-capturing after e unless m completes d, which needs
   d to have exactly two empty edges.  Captures commute.)
2. d with two empty edges (e and f), f leading on to a cell x with two
   empty edges (the chain goes on) or one (the chain is open at both ends):
   capture c.  This is Berlekamp's rule for long chains: take all but the
   last two cells of a chain (all but four of a loop, which ends open at
   both ends), since declining earlier only gives cells away.
3. d with two empty edges and f on the border or into a junction (three or
   more): c and d are the last two cells of the chain.  The mover either
   takes both, or plays f, the double-dealing move that hands both to the
   opponent and keeps control (rule 1 rules out every other move except f).
   With two or more such pairs on offer, f is ruled out by the other pair's
   capture (rule 1 again), so only the captures remain.  With one pair,
   both choices claim e and f and leave the same position R: taking gains
   2 and moves in R, declining hands the 2 over with the move in R, so the
   value is max(2 + v, -2 - v) for v the value of R for its mover
   (`EdgeSolver._pair`).
4. The last four cells of an opened loop: c, d, x, y in a row, c and y
   capturable (c through e into d, d through f into x, x through g into
   y, the only empty edges).  Rule 2 would take c, and then only captures
   are left; but f, the middle edge, hands the two dominoes c-d and x-y to
   the opponent and keeps control (Berlekamp's all-but-four for loops).
   The quadruple is handled like a pair: taking all four or playing f both
   leave e, f and g claimed, so the value is max(4 + v, -4 - v); y, the
   other end, is not counted again.  With another pair on offer, only the
   captures are tried (rule 1, as in 3).

`simple_parts`: when no cell has three or more empty edges and none can be
captured, the board is a sum of independent chains and loops, and
`experts.simple_loony_value` gives its exact value (Berlekamp) without any
search.

`redundant_openings`: a chain or loop that touches no cell with three or
more empty edges is independent of the rest of the board; every way of
opening it (one of 3 or more cells, or a loop) ends the same way under the
rules above (the taker takes all of it, or all but the last two, four in a
loop, which go to the opener), so one opening per chain is enough, and one
per kind and length.  A chain of two is opened in the middle (the
"hard-hearted handout"): opening it at an end only adds the taker's option
to decline.
"""

from __future__ import annotations

from .experts import CHAIN, LOOP

Links = tuple[tuple[tuple[int, int], ...], ...]


def capture_plan(
    ones: set[int],
    emp: list[int],
    gleft: list[int],
    claimed: list[bool],
    links: Links,
    inner: int,
) -> int | tuple[int, ...] | list[int]:
    """A forced capture (a move); or the last two cells of a chain, (capture,
    double-dealing move), or the last four of an opened loop, (capture,
    double-dealing move, last capture); or, with several such hand-outs on
    offer, their first captures (a list)."""
    pairs: list[tuple[int, ...]] = []
    ends: tuple[int, ...] = ()
    for c in ones:
        if gleft[c]:
            return inner + c
        if c in ends:
            continue
        for link in links[c]:
            if not claimed[link[0]]:
                break
        e, d = link
        ed = emp[d]
        if ed != 2:
            return e
        if gleft[d]:
            pairs.append((e, inner + d))
            continue
        for link in links[d]:
            if link[0] != e and not claimed[link[0]]:
                break
        f, x = link
        if emp[x] == 1:
            return e
        if emp[x] == 2:
            if gleft[x]:
                return e
            for link in links[x]:
                if link[0] != f and not claimed[link[0]]:
                    break
            g, y = link
            if emp[y] != 1:
                return e
            pairs.append((e, f, g))  # rule 4: the last four of a loop
            ends = (y,)
            continue
        pairs.append((e, f))
    if len(pairs) == 1:
        return pairs[0]
    return [hand_out[0] for hand_out in pairs]


def simple_parts(
    emp: list[int], gleft: list[int], claimed: list[bool], links: Links
) -> tuple[tuple[int, int], ...]:
    """Sorted (CHAIN or LOOP, length) of a board whose live cells all have
    exactly two empty edges."""
    seen = [False] * len(emp)
    parts = []
    for c, left in enumerate(emp):
        if left != 2 or seen[c]:
            continue
        seen[c] = True
        length, loop = 1, False
        for e, d in links[c]:
            if claimed[e]:
                continue
            prev, cur = c, d
            while cur != c:
                seen[cur] = True
                length += 1
                nxt = -1
                for f, y in links[cur]:
                    if y != prev and not claimed[f]:
                        nxt = y
                        break
                if nxt < 0:
                    break
                prev, cur = cur, nxt
            if cur == c:
                loop = True
                break
        parts.append((LOOP if loop else CHAIN, length))
    parts.sort()
    return tuple(parts)


def redundant_openings(
    emp: list[int], gleft: list[int], claimed: list[bool], links: Links, inner: int
) -> set[int]:
    """Moves that open an independent chain or loop and need not be tried:
    all but one opening of each (kind, length).  No cell may be capturable."""
    seen = [False] * len(emp)
    shapes: set[tuple[int, int]] = set()
    drop: set[int] = set()
    for c, left in enumerate(emp):
        if left != 2 or seen[c]:
            continue
        seen[c] = True
        found = _walk(c, emp, gleft, claimed, links, inner, seen)
        if found is None:
            continue
        shape, moves = found
        # a chain of two: its middle edge; otherwise any
        keep = next(m for m in moves if m < inner) if shape == (CHAIN, 2) else moves[0]
        drop.update(m for m in moves if m != keep)
        if shape in shapes:
            drop.add(keep)
        shapes.add(shape)
    return drop


def _walk(
    c: int,
    emp: list[int],
    gleft: list[int],
    claimed: list[bool],
    links: Links,
    inner: int,
    seen: list[bool],
) -> tuple[tuple[int, int], list[int]] | None:
    """The chain or loop of two-empty-edge cells through c: ((kind, length),
    its moves), or None when it reaches a cell with more empty edges."""
    length = 1
    moves = [inner + c] if gleft[c] else []
    for e, d in links[c]:
        if claimed[e]:
            continue
        moves.append(e)
        cur, via = d, e
        while cur != c:
            if emp[cur] != 2:
                return None
            seen[cur] = True
            length += 1
            nxt = -1
            for f, y in links[cur]:
                if f != via and not claimed[f]:
                    nxt, via = y, f
                    break
            if nxt < 0:
                moves.append(inner + cur)
                break
            moves.append(via)
            cur = nxt
        if cur == c:
            return (LOOP, length), moves
    return (CHAIN, length), moves
