"""Canonical forms of short partizan games (games/hadron/cgt.py), against
explicit game trees played out by brute force and against textbook values."""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames.games.hadron.cgt import ZERO, Games

RELAXED = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))

# An explicit game: (left options, right options), each a tuple of explicit games.
Tree = tuple[tuple["Tree", ...], tuple["Tree", ...]]

trees = st.recursive(
    st.just(((), ())),
    lambda inner: st.tuples(
        st.lists(inner, max_size=3).map(tuple), st.lists(inner, max_size=3).map(tuple)
    ),
    max_leaves=7,
)


@cache
def left_first(g: Tree) -> bool:
    """Left, moving first in g, wins (normal play): some Left option is lost for Right."""
    return any(not right_first(gl) for gl in g[0])


@cache
def right_first(g: Tree) -> bool:
    return any(not left_first(gr) for gr in g[1])


@cache
def plus(g: Tree, h: Tree) -> Tree:
    """The disjunctive sum as a tree (no simplification)."""
    return (
        tuple(plus(gl, h) for gl in g[0]) + tuple(plus(g, hl) for hl in h[0]),
        tuple(plus(gr, h) for gr in g[1]) + tuple(plus(g, hr) for hr in h[1]),
    )


@cache
def minus(g: Tree) -> Tree:
    return tuple(minus(gr) for gr in g[1]), tuple(minus(gl) for gl in g[0])


def intern(games: Games, g: Tree) -> int:
    return games.make([intern(games, gl) for gl in g[0]], [intern(games, gr) for gr in g[1]])


def outcome(games: Games, g: int) -> tuple[bool, bool]:
    return games.left_wins_first(g), games.right_wins_first(g)


@RELAXED
@given(g=trees, h=trees)
def test_sums_have_the_outcome_of_the_played_out_sum(g, h):
    games = Games()
    a, b = intern(games, g), intern(games, h)
    total = plus(g, h)
    assert outcome(games, games.add(a, b)) == (left_first(total), right_first(total))
    assert outcome(games, a) == (left_first(g), right_first(g))


@RELAXED
@given(g=trees, h=trees)
def test_order_is_the_outcome_of_the_difference(g, h):
    """G <= H iff Left moving first loses G - H."""
    games = Games()
    assert games.le(intern(games, g), intern(games, h)) == (not left_first(plus(g, minus(h))))


@RELAXED
@given(g=trees, h=trees, k=trees)
def test_canonical_forms_are_unique(g, h, k):
    """Equal games get one id: G - G = 0, G + H = H + G, (G + H) + K = G + (H + K),
    and interning the played-out sum gives the sum's id."""
    games = Games()
    a, b, c = (intern(games, x) for x in (g, h, k))
    assert games.add(a, games.neg(a)) == ZERO
    assert games.add(a, b) == games.add(b, a)
    assert games.add(games.add(a, b), c) == games.add(a, games.add(b, c))
    assert intern(games, plus(g, h)) == games.add(a, b)
    assert games.neg(games.neg(a)) == a


@RELAXED
@given(g=trees)
def test_canonical_forms_have_no_dominated_or_reversible_option(g):
    games = Games()
    a = intern(games, g)
    for x in (a, *games.left[a], *games.right[a]):
        left, right = games.left[x], games.right[x]
        assert not any(p != q and games.le(p, q) for p in left for q in left)
        assert not any(p != q and games.le(q, p) for p in right for q in right)
        assert not any(games.le(r, x) for p in left for r in games.right[p])
        assert not any(games.le(x, q) for p in right for q in games.left[p])


def test_textbook_values():
    """Values from Albert, Nowakowski and Wolfe, *Lessons in Play* (ch. 5)."""
    games = Games()
    star = games.star()
    up = games.make([ZERO], [star])
    double_up = games.add(up, up)
    up_star = games.add(up, star)
    assert games.show(star) == "*" and games.show(up) == "{0|*}"
    assert games.add(star, star) == ZERO
    assert games.add(up, games.neg(up)) == ZERO
    assert up_star == games.make([ZERO, star], [ZERO])  # up-star = {0, * | 0}
    assert double_up == games.make([ZERO], [up_star])  # double-up = {0 | up-star}
    assert games.add(games.star(2), games.star(3)) == star  # nim addition
    assert games.nim_heap(games.add(games.star(5), games.star(3))) == 6
    # up is positive but smaller than every positive number; up-star is fuzzy with 0.
    one = games.make([ZERO], [])
    assert games.le(ZERO, up) and not games.le(up, ZERO) and games.le(up, one)
    assert not games.le(up_star, ZERO) and not games.le(ZERO, up_star)
    assert outcome(games, up) == (True, False)
    assert outcome(games, star) == (True, True)
    assert outcome(games, ZERO) == (False, False)
