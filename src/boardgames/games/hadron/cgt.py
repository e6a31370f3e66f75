"""Short partizan games in canonical form (Conway, *On Numbers and Games*).

The Hadron solver adds up the values of independent regions, and Hadron is
*partizan*: both players may play the same cells, but a White stone and a
Black stone leave different positions (a cell with one more White
neighbour is killed by a White stone next to it and opened by a Black one),
so the regions' values are not nimbers and Sprague-Grundy theory does not
apply.  Conway's theory of partizan sums does: every short game G has a
unique simplest equal form, its *canonical form*, and G + H, -G and the
comparison G <= H are computed from the options.

`Games` interns games as small integers: `left[g]` and `right[g]` are the
ids of the options, id 0 is the game 0 = { | }.  `make(L, R)` returns the
id of the canonical form of { L | R } (options given canonical), so two
canonical ids are equal exactly when the games are equal.  Non-canonical
games are interned too (the reversibility test compares options with the
game being simplified), under ids that are never returned by `make`.

The algorithm is the textbook one (Albert, Nowakowski and Wolfe, *Lessons
in Play*, ch. 4): G <= H iff no Left option of G is >= H and no Right
option of H is <= G; a canonical form has no dominated option (a Left
option <= another one, a Right option >= another one) and no reversible
option (a Left option G^L with a Right option G^LR <= G is replaced by the
Left options of G^LR; symmetrically for Right).
"""

from __future__ import annotations

from collections.abc import Iterable

ZERO = 0
#: Ids are packed in pairs for the memo keys (g << SHIFT | h).
SHIFT = 32


class Games:
    """A table of interned short games with memoized comparison, sum and negation."""

    def __init__(self) -> None:
        self.left: list[tuple[int, ...]] = [()]
        self.right: list[tuple[int, ...]] = [()]
        #: (left, right) -> id, for every interned game (canonical or not).
        self.index: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {((), ()): ZERO}
        self.canonical: set[int] = {ZERO}
        self._le: dict[int, bool] = {}
        self._sum: dict[int, int] = {}
        self._neg: dict[int, int] = {ZERO: ZERO}

    def __len__(self) -> int:
        return len(self.left)

    # --- interning ------------------------------------------------------------------
    def _intern(self, left: tuple[int, ...], right: tuple[int, ...]) -> int:
        key = (left, right)
        g = self.index.get(key)
        if g is None:
            g = self.index[key] = len(self.left)
            self.left.append(left)
            self.right.append(right)
        return g

    # --- order ----------------------------------------------------------------------
    def le(self, g: int, h: int) -> bool:
        """G <= H: no Left option of G is >= H and no Right option of H is <= G."""
        if g == h:
            return True
        key = g << SHIFT | h
        known = self._le.get(key)
        if known is None:
            le = self.le
            known = not any(le(h, gl) for gl in self.left[g]) and not any(
                le(hr, g) for hr in self.right[h]
            )
            self._le[key] = known
        return known

    def left_wins_first(self, g: int) -> bool:
        """Left moving first wins G (G > 0 or G fuzzy with 0): not G <= 0."""
        return not self.le(g, ZERO)

    def right_wins_first(self, g: int) -> bool:
        """Right moving first wins G: not G >= 0."""
        return not self.le(ZERO, g)

    # --- canonical forms --------------------------------------------------------------
    def make(self, left: Iterable[int], right: Iterable[int]) -> int:
        """The canonical form of { left | right } (the options canonical ids)."""
        le = self.le
        lefts, rights = set(left), set(right)
        while True:
            lefts = {a for a in lefts if not any(b != a and le(a, b) for b in lefts)}
            rights = {a for a in rights if not any(b != a and le(b, a) for b in rights)}
            g = self._intern(tuple(sorted(lefts)), tuple(sorted(rights)))
            if g in self.canonical:
                return g
            changed = False
            for a in lefts:
                reverse = next((ar for ar in self.right[a] if le(ar, g)), None)
                if reverse is not None:
                    lefts = (lefts - {a}) | set(self.left[reverse])
                    changed = True
                    break
            if not changed:
                for a in rights:
                    reverse = next((al for al in self.left[a] if le(g, al)), None)
                    if reverse is not None:
                        rights = (rights - {a}) | set(self.right[reverse])
                        changed = True
                        break
            if not changed:
                self.canonical.add(g)
                return g

    def neg(self, g: int) -> int:
        """-G: the players' roles swapped (canonical in, canonical out)."""
        known = self._neg.get(g)
        if known is None:
            neg = self.neg
            known = self._intern(
                tuple(sorted(neg(gr) for gr in self.right[g])),
                tuple(sorted(neg(gl) for gl in self.left[g])),
            )
            self.canonical.add(known)
            self._neg[g] = known
            self._neg[known] = g
        return known

    def add(self, g: int, h: int) -> int:
        """G + H (canonical in, canonical out)."""
        if g == ZERO:
            return h
        if h == ZERO:
            return g
        key = g << SHIFT | h if g < h else h << SHIFT | g
        known = self._sum.get(key)
        if known is None:
            add = self.add
            left, right = self.left, self.right
            known = self.make(
                [add(gl, h) for gl in left[g]] + [add(g, hl) for hl in left[h]],
                [add(gr, h) for gr in right[g]] + [add(g, hr) for hr in right[h]],
            )
            self._sum[key] = known
        return known

    def total(self, games: Iterable[int]) -> int:
        """The sum of canonical games."""
        result = ZERO
        for g in games:
            result = self.add(result, g)
        return result

    # --- names --------------------------------------------------------------------------
    def star(self, n: int = 1) -> int:
        """The nimber *n: { 0, *, .., *(n-1) | 0, *, .., *(n-1) }."""
        heaps: list[int] = []
        for _ in range(n):
            heaps.append(self.make(heaps, heaps))
        return self.make(heaps, heaps) if n else ZERO

    def show(self, g: int) -> str:
        """A readable form: 0, *, *n, up, down, or { .. | .. } with the options."""
        if g == ZERO:
            return "0"
        left, right = self.left[g], self.right[g]
        if left == right:
            heap = self.nim_heap(g)
            if heap is not None:
                return "*" if heap == 1 else f"*{heap}"
        return "{" + ",".join(map(self.show, left)) + "|" + ",".join(map(self.show, right)) + "}"

    def nim_heap(self, g: int) -> int | None:
        """n if G is the nimber *n, else None."""
        if g == ZERO:
            return 0
        left = self.left[g]
        if left != self.right[g]:
            return None
        heaps = sorted(h for h in (self.nim_heap(x) for x in left) if h is not None)
        if len(heaps) != len(left) or heaps != list(range(len(heaps))):
            return None
        return len(heaps)
