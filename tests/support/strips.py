"""The tiny test game `Strip` and plain references to check the search on it.

`Strip` is a one-row board of n cells; players put a mark on an empty
cell.  It has a mirror symmetry, transpositions, and options that exercise
every branch of the search core:
- extra=True: a move that fills a cell whose neighbours (or the board edge)
  are all occupied gives the mover another turn (the no-negation rule);
- scored=True: each such "closing" move scores a point and the game ends
  when the board is full (bigger margins must be preferred);
- otherwise (unscored) a mark next to one's own mark wins at once.
Its evaluator is a pseudo-random but symmetric function of the position, so
the search trees are irregular but every algorithm must agree on them.

The references (`brute_value`, `child_values`, `brute_negamax`) use no
library search code.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, settings

from boardgames.errors import NotationError
from boardgames.game import Game, State, nothing_to_undo
from boardgames.search import WIN
from boardgames.zobrist import ZobristTable

#: Hypothesis settings for the property tests over the strips.
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- a tiny game with extra turns, scores and a mirror symmetry -----------------------------
class Strip(Game):
    """A row of `n` cells; `extra` gives closing moves another turn, `scored`
    makes them score a point (see the module docstring)."""

    name = "strip"
    title = "Strip"
    player_names = ("first", "second")

    def __init__(self, n: int = 6, extra: int = 0, scored: int = 0, seed: int = 1) -> None:
        super().__init__(n=n, extra=extra, scored=scored, seed=seed)
        self.n = n
        self.extra = bool(extra)
        self.scored = bool(scored)
        self.num_moves = n
        self._set_symmetries([tuple(range(n)), tuple(reversed(range(n)))])
        # Extra keys hash the scores: the same board can be reached with
        # different scores, and the TT must not mix them up.
        self.zobrist = ZobristTable(n, 2, self.symmetries, seed=seed, extra=2 * (n + 1))

    def score_key(self, player: int, points: int) -> tuple[int, ...]:
        return self.zobrist.extra[player * (self.n + 1) + points]

    def new_state(self) -> StripState:
        return StripState(self)

    def _parse_move(self, text: str) -> int:
        if text.isdigit() and int(text) < self.n:
            return int(text)
        raise NotationError(text, "a cell number")

    def _format_move(self, move: int) -> str:
        return str(move)

    def evaluators(self):
        return {"default": lambda **_: strip_noise}


def strip_noise(state: State) -> float:
    """Pseudo-random, symmetric (depends only on the canonical key), in -50..50."""
    key = min(state.hashes)
    return float((key * 0x9E3779B97F4A7C15 >> 17) % 101 - 50)


class StripState(State):
    """A position of a `Strip` game."""

    def __init__(self, game: Strip) -> None:
        self.game = game
        self.board = [-1] * game.n
        self.to_move = 0
        self.history: list[int] = []
        self.hashes = list(game.zobrist.zero)
        self.points = [0, 0]
        self._winner: int | None = None
        self._undo: list[tuple[int, int, bool]] = []

    def legal_moves(self) -> list[int]:
        if self.is_over():
            return []
        return [i for i, v in enumerate(self.board) if v < 0]

    def make(self, move: int) -> None:
        game, board, p = self.game, self.board, self.to_move
        board[move] = p
        self.hashes = [h ^ k for h, k in zip(self.hashes, game.zobrist.keys[move][p])]
        left = move == 0 or board[move - 1] >= 0
        right = move == game.n - 1 or board[move + 1] >= 0
        closing = left and right
        if game.scored:
            if closing:
                self._rescore(p, 1)
        elif (move > 0 and board[move - 1] == p) or (move < game.n - 1 and board[move + 1] == p):
            self._winner = p
        self._undo.append((p, closing, self._winner))
        self.history.append(move)
        if not (game.extra and closing):
            self.to_move = 1 - p
            self.hashes = [h ^ k for h, k in zip(self.hashes, game.zobrist.side)]

    def undo(self) -> int:
        try:
            move = self.history.pop()
        except IndexError:
            raise nothing_to_undo() from None
        p, closing, _ = self._undo.pop()
        if self.to_move != p:
            self.hashes = [h ^ k for h, k in zip(self.hashes, self.game.zobrist.side)]
        self.to_move = p
        if self.game.scored and closing:
            self._rescore(p, -1)
        self.board[move] = -1
        self.hashes = [h ^ k for h, k in zip(self.hashes, self.game.zobrist.keys[move][p])]
        self._winner = self._undo[-1][2] if self._undo else None
        return move

    def _rescore(self, player: int, change: int) -> None:
        game = self.game
        old = game.score_key(player, self.points[player])
        self.points[player] += change
        new = game.score_key(player, self.points[player])
        self.hashes = [h ^ a ^ b for h, a, b in zip(self.hashes, old, new)]

    def is_over(self) -> bool:
        return self._winner is not None or -1 not in self.board

    def winner(self) -> int | None:
        if self.game.scored:
            if not self.is_over() or self.points[0] == self.points[1]:
                return None
            return 0 if self.points[0] > self.points[1] else 1
        return self._winner

    def scores(self) -> tuple[int, int]:
        return self.points[0], self.points[1]

    def copy(self) -> StripState:
        new = StripState(self.game)
        for move in self.history:
            new.make(move)
        return new

    def recompute_hashes(self) -> list[int]:
        items = [(i, v) for i, v in enumerate(self.board) if v >= 0]
        hashes = self.game.zobrist.full(items, side=self.to_move)
        if self.game.scored:
            for player in (0, 1):
                keys = self.game.score_key(player, self.points[player])
                zero = self.game.score_key(player, 0)
                hashes = [h ^ k ^ z for h, k, z in zip(hashes, keys, zero)]
        return hashes

    def render(self, color: bool = False) -> str:
        return "".join(".XO"[v + 1] for v in self.board)

    def to_svg(self) -> str:
        return "<svg/>"


STRIPS = {
    "plain": Strip(6),
    "extra": Strip(7, extra=1),
    "scored": Strip(7, extra=1, scored=1, seed=3),
    "scored-noextra": Strip(6, scored=1, seed=5),
}


def random_position(game: Game, seed: int, max_moves: int) -> State:
    """A position after up to `max_moves` random moves (fewer if the game ends)."""
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(rng.randint(0, max_moves)):
        moves = state.legal_moves()
        if not moves:
            break
        state.make(rng.choice(moves))
    return state


def snapshot(state: State) -> tuple:
    """What a search must leave unchanged: moves, hashes, side to move, end."""
    return tuple(state.history), tuple(state.hashes), state.to_move, state.is_over()


# --- brute force references (no library search code) ----------------------------------------
def brute_value(state: State) -> int:
    """Exact solve value: +1/0/-1 (or the margin in scored games), side to move."""
    if state.is_over():
        if state.game.scored:
            a, b = state.scores()
            return a - b if state.to_move == 0 else b - a
        w = state.winner()
        return 0 if w is None else (1 if w == state.to_move else -1)
    return max(child_values(state).values())


def child_values(state: State) -> dict[int, int]:
    """The exact value of every legal move, from the side to move (brute force)."""
    side = state.to_move
    values = {}
    for m in state.legal_moves():
        state.make(m)
        v = brute_value(state)
        values[m] = v if state.to_move == side else -v
        state.undo()
    return values


def brute_negamax(state: State, depth: int, evaluator, ply: int = 0) -> float:
    """Fixed-depth negamax with the library's scoring conventions, written plainly."""
    if state.is_over():
        w = state.winner()
        v = 0 if w is None else (WIN - ply if w == state.to_move else ply - WIN)
        if state.game.scored:
            a, b = state.scores()
            v += a - b if state.to_move == 0 else b - a
        return v
    if depth == 0:
        return evaluator(state)
    side = state.to_move
    best = -float("inf")
    for m in state.legal_moves():
        state.make(m)
        v = brute_negamax(state, depth - 1, evaluator, ply + 1)
        if state.to_move != side:
            v = -v
        state.undo()
        best = max(best, v)
    return best
