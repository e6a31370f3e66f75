"""The default AI of HexiFence and dots-and-boxes: exact play, and the
safe-edge model before it.

`ChainPlayer` ("default") spends its clock on two searches, both the edge
solver (`games.hexifence.solver`), each with a table kept for the whole
match:

- **Exact**: once at most `exact` edges are empty (or at most `threshold`
  safe moves remain) it tries to solve the position and plays a move that
  keeps the solved value.  HexiFence N=2 (30 edges) is in reach from the
  first move; N=3 from about 30 empty edges.
- **The safe-edge model** (`EdgeSolver(safe_only=True)`), before that, from
  `model` safe edges on (every safe edge by default): the game in which
  nobody sacrifices a cell while a safe edge (one that offers nothing) is
  left.  Who has to open the first chain then is a question of parity, and
  the chains and loops that the safe edges leave decide what that costs:
  the model's leaves are exact loony endgames.  It plays a safe edge that
  wins the model when it can prove one in time.  Cut short, it plays a
  safe edge the table has not proven to lose.  With every safe edge lost
  it offers one or two cells (`sacrifice`) if that wins the model once the
  opponent has taken or declined them: handing over cells passes the turn
  of the parity game, the one way out that the model itself never tries.
  Failing that, the safe edge whose refutation cost most, the hardest for
  the opponent to find.
- **Exact, with the time the model leaves**: from `reach` empty edges (40)
  on, once the model has chosen, the rest of the move goes to an exact
  null-window search for a move that wins (`move_reaching(1)`, over every
  move, sacrifices included).  It is played when proven; otherwise a lost
  model's fallback that the exact table proves to lose gives way to a
  safe edge it has not refuted.  Where the model is lost the game is
  often still won by a move the model never considers, and the move's
  searches so far took a fraction of its time.

With `threads` above 1, helper processes (forked at the first move of a
game, kept for the match) think about each move alongside: each is a copy
of the player that makes the same stages' searches on the same position,
with both solvers' tables in shared memory, so that what any process
proves the others find.  The helpers take the solves' moves from the
other end (`EdgeSolver.vary`), and the busy marks keep them off the moves
another process is on; the main process alone chooses the move.

An exact solve cut short falls back on the opening book (book.py: the
first plies of HexiFence N=2), then on the bounds its table proves: a move
keeping the best margin proven so far is played when that margin wins,
when the model finds no win, or when cells are on offer.  Without any of
these it plays chains as the loony-endgame rules say: takes what is
offered except the last two cells of a chain (four of an opened loop) when
handing them back keeps control profitably (`capture_choice`), and with no
safe edge opens what costs least (`cheapest_opening`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection

from ...budget import Budget, Limits
from ...busy import clear_marks
from ...errors import SearchStopped
from ...games.hexifence import EdgeGame, EdgeState, book
from ...games.hexifence.experts import (
    giveaway,
    hand_out_values,
    loony_value,
    plain_capture,
    single_hand_out,
)
from ...games.hexifence.solver import EdgeSolver
from ...options import MAX_THREADS, check_whole
from ...players import Player, move_limits, no_legal_move
from ...search import SearchResult
from ...search.smp import Helpers, helping, kept_helpers
from ...solution import SolveResult

#: Table sizes of the player's two solvers (entries, both generations): a
#: match fills them; each generation switch is free (table.py).
EXACT_ENTRIES = 2_000_000
MODEL_ENTRIES = 2_000_000
#: Entries of each solver's shared table when several processes think
#: (32 bytes each: 64 MB a solver, given by the kernel as it fills).
SHARED_ENTRIES = 1 << 21


class ChainPlayer(Player[EdgeState]):
    """Exact play where the solver reaches, the safe-edge model before it.

    Time: the move's budget (its own `time` capped by the move's limits,
    `players.move_limits`, else 30 s) is shared from the start of `choose`: the exact
    solver may use EXACT_SHARE of it when it reaches the whole board (at
    most `exact` edges in all, as HexiFence N=2) or no safe edge is left,
    SOLVE_SHARE otherwise; the model search, then the exact search for a
    win (from `reach` empty edges), run until SEARCH_SHARE.  `last_result` is a
    SearchResult saying what was done: `algorithm` "solve" (exact: `depth`
    is every move left, `score` the final margin), "book" (the solve was
    cut short and the opening book knows the position), "proven" (the
    exact solve was cut short: a move keeping the best margin its table
    proves, `score`), "model" (a proven win of the safe-edge model), "open"
    (the model search was cut short: a safe edge not proven to lose),
    "sacrifice" (cells offered to win a lost model), "lost" (every safe
    edge loses the model), "exact" (a move the exact search proves to win
    after the model's turn, `score` 1: at least), "unrefuted" (the lost
    model's choice was proven to lose exactly, another safe edge was not),
    or a move chosen without search ("capture", "random", "opening");
    `nodes` counts the solvers' nodes, abandoned searches included (the
    main process's: the helpers' are not counted).

    `threads` processes think about each move (see the module docstring);
    `close` ends the helpers, and a later move starts new ones.
    """

    EXACT_SHARE = 0.85
    SOLVE_SHARE = 0.55
    SEARCH_SHARE = 0.9

    def __init__(
        self,
        exact: int = 30,
        threshold: int = 10,
        model: int = 1000,
        sacrifice: int = 2,
        reach: int = 40,
        time: float | None = None,
        seed: int | None = None,
        threads: int = 1,
        name: str = "default",
    ) -> None:
        super().__init__(name)
        check_whole("threads", threads, 1, MAX_THREADS)
        self.threads = threads
        self._helpers: Helpers | None = None
        self.exact = exact
        self.threshold = threshold
        self.model = model
        self.sacrifice = sacrifice
        self.reach = reach
        self.time = time
        self.rng = random.Random(seed)
        self.solvers: dict[EdgeGame, EdgeSolver] = {}
        self.models: dict[EdgeGame, EdgeSolver] = {}
        self.nodes = 0
        self.completed = True

    def _solver(self, game: EdgeGame) -> EdgeSolver:
        if game not in self.solvers:
            self.solvers[game] = self._shared(EdgeSolver(game, max_entries=EXACT_ENTRIES))
        return self.solvers[game]

    def _model(self, game: EdgeGame) -> EdgeSolver:
        if game not in self.models:
            self.models[game] = self._shared(
                EdgeSolver(game, safe_only=True, max_entries=MODEL_ENTRIES)
            )
        return self.models[game]

    def _shared(self, solver: EdgeSolver) -> EdgeSolver:
        """`solver`, its table shared with the helpers when there are any."""
        if self.threads > 1:
            solver.share(SHARED_ENTRIES)
        return solver

    def choose(self, state: EdgeState, limits: Limits | None = None) -> int:
        """The move by the stages above, within `limits` (30 s without a time);
        `state` is left unchanged.

        Raises:
            GameOverError: the game is over."""
        budget = Budget(move_limits(Limits(time=self.time), limits)).with_default_time(30.0)
        if state.is_over() or not state.n_empty:
            raise no_legal_move(state)
        if self.threads == 1:
            return self._think(state.copy(), budget)
        with helping(self._helpers_for(state.game), state, budget.limits, self.close):
            return self._think(state.copy(), budget)

    def close(self) -> None:
        """End the helper processes (a later move starts new ones)."""
        super().close()
        helpers, self._helpers = self._helpers, None
        if helpers is not None:
            helpers.close()

    def _helpers_for(self, game: EdgeGame) -> Helpers:
        """The helpers, started for `game` with both solvers' tables shared
        (again if the game changed); the busy marks of the last move cleared.
        BoardgamesError, with every helper ended, if one of them failed."""
        helpers = kept_helpers(self._helpers, game, self.close)
        solvers = (self._solver(game), self._model(game))  # made before the fork
        for solver in solvers:
            assert solver.shared is not None
            clear_marks(solver.shared.busy)
        if helpers is None:
            helpers = self._helpers = Helpers(_Helper(self, game), self.threads - 1, game)
        return helpers

    def _think(self, state: EdgeState, budget: Budget) -> int:
        """`choose` on a copy of the position, within `budget`."""
        self.nodes = 0
        self.completed = True
        caps = state.captures()
        safe = state.safe_moves()
        proven = None
        if state.n_empty <= self.exact or (not caps and len(safe) <= self.threshold):
            # Most of the move when the solver reaches the whole board (HexiFence
            # N=2); on bigger boards the model needs the rest while safe edges last.
            whole = state.game.num_moves <= self.exact or not safe
            share = self.EXACT_SHARE if whole else self.SOLVE_SHARE
            solved = self._solve(state, budget.part(share))
            if solved is not None:
                return self._done(solved.best[0], "solve", budget, state.n_empty, solved.value)
            # Cut short: the opening book, else what the exact table proves so
            # far (a bound and a move).
            booked = book.lookup(self._solver(state.game), state)
            if booked is not None:
                return self._done(booked, "book", budget)
            proven = self._solver(state.game).proven(state)
            if proven is not None and proven[0] > 0:
                return self._done(proven[1], "proven", budget, 0, proven[0])
        if caps and proven is None:
            return self._done(capture_choice(state, caps), "capture", budget)
        if safe and not caps and len(safe) <= self.model:
            searching = budget.until(self.SEARCH_SHARE)
            chosen = self._model_move(state, searching)
            if state.n_empty <= self.reach:
                won = self._exact_win(state, searching)
                if won is not None:
                    return self._done(won, "exact", budget, 0, 1)
                if chosen is not None and chosen[1] in ("lost", "sacrifice"):
                    chosen = self._unrefuted(state, chosen)
            if chosen is not None and (chosen[1] in ("model", "sacrifice") or proven is None):
                return self._done(chosen[0], chosen[1], budget)
        if proven is not None:
            return self._done(proven[1], "proven", budget, 0, proven[0])
        if safe:
            return self._done(self.rng.choice(safe), "random", budget)
        return self._done(cheapest_opening(state), "opening", budget)

    def _solve(self, state: EdgeState, budget: Budget) -> SolveResult | None:
        """The exact solution, or None when the solver gives up (its nodes count)."""
        solver = self._solver(state.game)
        try:
            result = solver.solve(state, budget.remaining())
        except SearchStopped:
            self.nodes += solver.nodes
            self.completed = False
            return None
        self.nodes += result.nodes
        return result

    def _exact_win(self, state: EdgeState, budget: Budget) -> int | None:
        """A move the exact solver proves to win (final margin at least 1),
        searched within the `budget` with the match's table; None when there
        is no time, no win, or none proven in time (a win the table proves
        from the interrupted search is still returned)."""
        if budget.left() <= 0:
            return None
        solver = self._solver(state.game)
        try:
            move = solver.move_reaching(state, 1, budget.remaining())
        except SearchStopped:
            self.nodes += solver.nodes
            self.completed = False
            proven = solver.proven(state)
            return proven[1] if proven is not None and proven[0] > 0 else None
        self.nodes += solver.nodes
        return move

    def _unrefuted(self, state: EdgeState, chosen: tuple[int, str]) -> tuple[int, str]:
        """The model's fallback, unless the exact table proves it loses and
        some safe edge is not proven to: then that edge, the one whose model
        refutation cost most ("unrefuted")."""
        refuted = {m for m, _, high, _ in self._solver(state.game).outlook(state) if high <= 0}
        if chosen[0] not in refuted:
            return chosen
        others = [item for item in self._model(state.game).outlook(state) if item[0] not in refuted]
        if not others:
            return chosen
        return max(others, key=lambda item: item[3])[0], "unrefuted"

    def _model_move(self, state: EdgeState, budget: Budget) -> tuple[int, str] | None:
        """(a safe edge, how it was chosen) from the safe-edge model, or None
        when there is no time to search it."""
        if budget.left() <= 0:
            return None
        model = self._model(state.game)
        try:
            move = model.move_reaching(state, 1, budget.remaining())
        except SearchStopped:
            self.completed = False
            move = None
        self.nodes += model.nodes
        if move is not None:
            return move, "model"
        outlook = model.outlook(state)
        wins = [m for m, low, _, _ in outlook if low > 0]
        if wins:
            return wins[0], "model"
        open_moves = [m for m, _, high, _ in outlook if high > 0]
        if open_moves:
            return self.rng.choice(open_moves), "open"
        if self.sacrifice:
            offer = self._sacrifice(state, model, budget) if budget.left() > 0 else None
            if offer is not None:
                return offer, "sacrifice"
        return max(outlook, key=lambda item: item[3])[0], "lost"

    def _sacrifice(self, state: EdgeState, model: EdgeSolver, budget: Budget) -> int | None:
        """With every safe edge lost in the model: an edge that offers one or
        two cells and wins the model once the opponent has dealt with them
        (took them, or declined), the smallest offer first; None if none does
        within the `budget`.  Handing over cells passes the turn of the parity game."""
        offers = []
        for move in range(state.game.num_moves):
            if (
                state.claimed[move] < 0
                and min(state.empties[c] for c in state.game.edge_cells[move]) == 2
            ):
                cells = giveaway(state, move)
                if cells <= self.sacrifice:
                    offers.append((cells, move))
        for _, move in sorted(offers):
            if budget.left() <= 0:
                break
            state.make(move)
            try:
                theirs = model.reaches(state, 0, budget.remaining())
            except SearchStopped:
                break
            finally:
                state.undo()
                self.nodes += model.nodes
            if not theirs:
                return move
        return None

    def _done(
        self, move: int, how: str, budget: Budget, depth: int = 0, score: float = 0.0
    ) -> int:
        """Record what `choose` did in `last_result` and return the move."""
        self.last_result = SearchResult(
            move=move,
            score=score,
            pv=[move],
            depth=depth,
            nodes=self.nodes,
            time=budget.elapsed(),
            completed=self.completed,
            algorithm=how,
            threads=self.threads,
        )
        return move


class _Helper:
    """A helper process's copy of a `ChainPlayer` (the `search.smp.Searcher`
    its helper loop drives): each search is the player's thinking about
    the position sent, within the main process's limits, until the main
    process stops it; its move is not used."""

    tt = None

    def __init__(self, player: ChainPlayer, game: EdgeGame) -> None:
        self.player = player
        self.game = game

    def become_helper(self, index: int) -> None:
        """Turn the forked copy into helper `index`: it thinks alone, its
        solvers taking their shares from the other end (`EdgeSolver.vary`)."""
        player = self.player
        player.threads, player._helpers = 1, None
        for solver in (*player.solvers.values(), *player.models.values()):
            solver.vary(index)

    def game_of_helper(self) -> EdgeGame:
        """The game the helper was forked for."""
        return self.game

    def clear_own(self) -> None:
        """Nothing of its own to forget: both tables are shared."""

    def search(
        self, state: EdgeState, limits: Limits | None = None, *,
        on_iteration: Callable[[SearchResult], None] | None = None,
        root_moves: Collection[int] | None = None,
    ) -> SearchResult:
        """Think about `state` as the main process does, within `limits` (the
        main process never restricts its moves: `root_moves` is None)."""
        player = self.player
        budget = Budget(limits).with_default_time(30.0)
        player._think(state.copy(), budget)
        assert player.last_result is not None
        return player.last_result


def capture_choice(state: EdgeState, caps: list[int]) -> int:
    """Take what is offered, except the last two cells of a chain (four of an
    opened loop) when handing them back (double-dealing) keeps control
    profitably."""
    single = single_hand_out(state, caps)
    if single is None:
        return plain_capture(state, caps)
    take, decline = hand_out_values(state, single)
    return single[1] if decline > take else single[0][0]


def cheapest_opening(state: EdgeState) -> int:
    """With no safe move: the sacrifice after which the opponent gains least."""
    best_move, best = -1, None
    for move in range(state.game.num_moves):
        if state.claimed[move] >= 0:
            continue
        state.make(move)
        value = -loony_value(state) if state.n_empty else 0
        state.undo()
        if best is None or value > best:
            best, best_move = value, move
    return best_move
