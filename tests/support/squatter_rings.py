"""Squatter games where rings capture rings, for tests: two hand-made
recaptures and a random player that builds nested rings around a centre, so
that captures and recaptures happen often."""

from __future__ import annotations


def _moves(text: str) -> list[str]:
    return text.split()


#: The example of a recapture (9 x 9, White first): White's diamond around E5
#: captures E5, Black's ring around it captures the diamond, and White's ring
#: around Black's closes at C6: D5 E4 E6 F5 are live White stones again.
RECAPTURE_9X9 = _moves(
    "D5 C5 E4 D4 E6 E3 F5 F4 A1 G5 A9 F6 I1 E7 I9 D6 B5 A2 C4 A8 D3 B1 E2 B9 F3 "
    "H1 G4 H9 H5 I2 G6 I8 F7 A3 E8 A7 D7 C1 C6"
)

#: Triple nesting on 7 x 7 around D4 (the course rules sheet names a
#: triple-nesting example without drawing it; this is one of that kind, as is
#: RECAPTURE_9X9): White's diamond at distance 1 takes D4; Black's
#: ring at distance 2 takes the diamond and D4; White's ring at distance 3
#: (with border stones) takes Black's ring and D4 and revives the diamond.
#: The other moves fill the corners and enclose nothing.
TRIPLE_NESTING = _moves(
    "C4 B4 D3 C3 D5 C5 E4 "  # White's diamond closes (Black starts its ring)
    "D2 B2 D6 B6 E3 F2 E5 F6 F4 "  # Black's ring closes
    "A4 A1 B3 A2 B5 B1 C2 A6 C6 A7 D1 B7 D7 F1 E2 G1 E6 G2 F3 F7 F5 G6 G4"  # White's ring
)
#: The scores (White, Black) after the three closing moves of TRIPLE_NESTING.
TRIPLE_NESTING_STEPS = {"E4": (1, 0), "F4": (0, 5), "G4": (9, 0)}


def biased_move(state, rng, plan):
    """A random move that builds nested rings: each side prefers the rings
    of its own parity around a centre, innermost first (with some jitter and
    noise), so loops capture loops and recaptures happen often.  `plan` None
    plays uniformly at random."""
    moves = state.legal_moves()
    if plan is None or rng.random() < plan[4]:
        return rng.choice(moves)
    cr, cc, chebyshev, parity, _, jitter = plan
    n = state.game.size

    def ring(m):
        dr, dc = abs(m // n - cr), abs(m % n - cc)
        return max(dr, dc) if chebyshev else dr + dc

    mine = [m for m in moves if (ring(m) + parity + state.to_move) % 2 == 0]
    if not mine:
        return rng.choice(moves)
    return min(mine, key=lambda m: ring(m) + jitter * rng.random())


def random_plan(size, rng):
    """A plan for `biased_move` on a `size` board: centre row and column,
    rings by Chebyshev or by Manhattan distance, parity, noise, jitter; None
    (uniform play) one time in five."""
    if rng.random() < 0.2:
        return None
    mid = (size - 1) / 2
    return (
        round(mid + rng.uniform(-1, 1)),
        round(mid + rng.uniform(-1, 1)),
        rng.random() < 0.5,
        rng.randrange(2),
        rng.choice([0.0, 0.05, 0.1]),
        rng.choice([0.5, 1.5]),
    )
