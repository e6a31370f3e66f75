"""Texel's method: fit an evaluator's linear weights to the results of games.

1. Positions: games of self-play (`selfplay_task`) or game records
   (`record_task`), each on a worker.  At every move the searcher's
   principal variation is followed to its leaf, the *quiet* position its
   score came from, and the leaf's features are kept (`Probes`): for each
   linear weight the evaluation with that weight 1 and the others 0.
2. Labels: 1, 1/2 or 0 for the leaf's side to move, by the game's result,
   or by the exact solver's verdict where the leaf is small enough
   (`solve_from` legal moves or fewer, within a node budget).
3. Fit (`fit`, numpy): the predicted score of a position is
   sigmoid(K * w . f).  K is fitted first on the starting weights and then
   held, so the weights keep their scale; the weights then minimise the
   mean logistic loss plus an L2 pull towards the starting weights (in
   units of each weight's range), by Newton steps kept inside the ranges.
   A share of the games (never part of a game) is held out, and its loss
   reported: a fit that only learns its own positions shows there.

A `PositionSet` is saved as JSON naming the game, its options and the
evaluator, so a set is never fitted to another board or evaluator.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..budget import Limits
from ..errors import BadFileError, BoardgamesError, NotationError, OptionError, quote
from ..game import Game, State
from ..io import atomic_write_text, parse_json, read_text
from ..match.records import GameRecord
from ..registry import get_game
from ..tournament.sprt_match import SPRT_FILE
from ..tournament.store import MANIFEST, SUMMARY
from ..tournament.tasks import derive_seed
from ..weights import Weights

#: The search depth of self-play games and of the leaves' searches.
DEFAULT_DEPTH = 4
#: The `format` of a positions file.
POSITIONS_FORMAT = "boardgames-positions"


def declared(game: Game[Any]) -> Weights:
    """The game's tunable weights; OptionError when its evaluator declares none
    (or none it is linear in)."""
    weights = game.tunable_weights()
    if weights is None or weights.build is None or not weights.linear:
        raise OptionError(
            f"{game.name}'s default evaluator declares no tunable weights"
            " (see docs/tuning.md, \"Declaring weights\")"
        )
    return weights


class Probes:
    """The features of the linear weights at a position: the evaluation with
    that weight 1 and the other linear weights 0 (the rest held at `values`).

    None where the evaluation with every linear weight 0 is not 0: there
    the evaluator scored a win or a loss found statically, not a sum of
    weighted features.  Each probe is a separate evaluator, so the
    evaluator's own caches stay right.
    """

    def __init__(self, weights: Weights, values: Mapping[str, float]) -> None:
        assert weights.build is not None
        zero = {**values, **{name: 0.0 for name in weights.linear}}
        self.names = weights.linear
        self.bias = weights.build(dict(zero))
        self.units = [weights.build({**zero, name: 1.0}) for name in weights.linear]

    def __call__(self, state: State[Any]) -> list[float] | None:
        """The features at `state`, or None where it is not linear (or over)."""
        if state.is_over() or self.bias(state) != 0:
            return None
        return [float(unit(state)) for unit in self.units]


# --- positions from games ----------------------------------------------------------------


@dataclass(frozen=True)
class PositionTask:
    """One game to take positions from (data only: it crosses to a worker).

    Self-play when `moves` is None: `random_plies` random moves, then the
    search to `depth` for both sides.  A record's game otherwise: its
    `moves` from `start`, with the record's `winner` (None: a draw).
    """

    game: str
    params: dict[str, int]
    weights: dict[str, float]
    index: int
    seed: int
    depth: int
    random_plies: int = 0
    max_moves: int = 1000
    solve_from: int = 0
    solve_nodes: int = 20_000
    moves: tuple[str, ...] | None = None
    start: str | None = None
    winner: int | None = None
    source: str = ""


@dataclass
class TaskPositions:
    """What one task gave: rows of (label, features), or why it gave none."""

    index: int
    rows: list[list[float]] = field(default_factory=list)
    solved: int = 0
    error: str | None = None


def _leaf_features(
    state: State[Any], pv: Sequence[int], probes: Probes
) -> tuple[list[float], int, State[Any]] | None:
    """Follow `pv` from `state` and read the leaf's features, its side to
    move and a copy of the leaf (None when the leaf is over or not linear)."""
    made = 0
    for move in pv:
        if state.is_over():
            break
        state.make(move)
        made += 1
    found = probes(state)
    result = None if found is None else (found, state.to_move, state.copy())
    for _ in range(made):
        state.undo()
    return result


def _solved_label(leaf: State[Any], task: PositionTask) -> float | None:
    """The exact result of `leaf` for its side to move (1, 1/2, 0), when it
    is small enough and the solver finishes within its node budget."""
    if not task.solve_from or len(leaf.legal_moves()) > task.solve_from:
        return None
    from ..errors import SearchStopped
    from ..solving.position import solve_position

    try:
        result = solve_position(leaf, Limits(nodes=task.solve_nodes), outcome=True)
    except SearchStopped:
        return None
    return 0.5 if result.value == 0 else (1.0 if result.value > 0 else 0.0)


def play_task(task: PositionTask) -> TaskPositions:
    """The labelled quiet positions of one game (run in a worker)."""
    from ..search import Searcher

    try:
        game = get_game(task.game, **task.params)
        weights = declared(game)
        probes = Probes(weights, task.weights)
        assert weights.build is not None
        searcher = Searcher(weights.build(dict(task.weights)), seed=task.seed, tt_size=1 << 16)
        rng = random.Random(task.seed)
        state = game.new_state() if task.start is None else game.parse_position(task.start)
        leaves: list[tuple[list[float], int, State[Any]]] = []
        replay = None if task.moves is None else list(task.moves)
        ply = 0
        while not state.is_over() and ply < task.max_moves:
            if replay is not None and ply >= len(replay):
                break
            if replay is None and ply < task.random_plies:
                move = rng.choice(state.legal_moves())
            else:
                result = searcher.search(state, Limits(depth=task.depth))
                if result.move is None:
                    break
                leaf = _leaf_features(state, result.pv or [result.move], probes)
                if leaf is not None:
                    leaves.append(leaf)
                move = result.move if replay is None else game.parse_move(replay[ply])
            if replay is None:
                state.make(move)
            else:
                state.play(move)  # checked: a record may hold anything
            ply += 1
        if replay is not None:
            winner = task.winner
        elif state.is_over():
            winner = state.winner()
        else:
            return TaskPositions(task.index, error="unfinished game")
        out = TaskPositions(task.index)
        for features, mover, leaf_state in leaves:
            label = _solved_label(leaf_state, task)
            if label is not None:
                out.solved += 1
            elif winner is None:
                label = 0.5
            else:
                label = 1.0 if winner == mover else 0.0
            out.rows.append([label, *features])
        return out
    except (BoardgamesError, ValueError) as exc:
        where = f"{task.source}: " if task.source else ""
        return TaskPositions(task.index, error=f"{where}{exc}")


def run_position_tasks(
    tasks: Iterable[PositionTask], executor: Executor | None = None
) -> Iterator[TaskPositions]:
    """Play `tasks` (here, or on the executor's workers: processes or Dask) and
    yield what each gave as it finishes; Ctrl-C cancels the rest."""
    if executor is None:
        for task in tasks:
            yield play_task(task)
        return
    futures = [executor.submit(play_task, task) for task in tasks]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:
            future.cancel()


def selfplay_tasks(
    game: Game[Any],
    values: Mapping[str, float],
    games: range,
    *,
    seed: int = 0,
    depth: int = 2,
    random_plies: int = 4,
    max_moves: int = 1000,
    solve_from: int = 0,
) -> list[PositionTask]:
    """Tasks of self-play games number `games` (each with its seed derived from `seed`)."""
    return [
        PositionTask(
            game.name, dict(game.params), dict(values), i, derive_seed(seed, i), depth,
            random_plies, max_moves, solve_from,
        )
        for i in games
    ]


#: The files of a tournament or SPRT folder that are not game records.
NOT_RECORDS = {MANIFEST, SUMMARY, SPRT_FILE}


def record_files(paths: Sequence[str]) -> list[Path]:
    """The game records named by `paths`: files, and the .json files under
    folders but a tournament folder's manifest and summaries (its games);
    OptionError when there are none."""
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found.extend(
                p for p in sorted(path.rglob("*.json"))
                if p.is_file() and p.name not in NOT_RECORDS and not p.name.startswith(".")
            )
        elif path.is_file():
            found.append(path)
        else:
            raise OptionError(f"no such file or folder: {quote(name)}")
    if not found:
        raise OptionError(f"no game records in {', '.join(quote(p) for p in paths)}")
    return found


def record_tasks(
    game: Game[Any],
    values: Mapping[str, float],
    paths: Sequence[str],
    *,
    depth: int = 2,
    solve_from: int = 0,
) -> list[PositionTask]:
    """A task per finished game record under `paths` of exactly `game` (its
    options too): record files of one record or of JSON lines (`match
    --records`), and tournament folders.  Records of another game or size,
    unfinished or unreadable ones raise OptionError (one line) naming the
    first such file."""
    tasks = []
    numbers = itertools.count()
    for path in record_files(paths):
        try:
            found = GameRecord.load_all(path)
        except OSError as exc:
            raise OptionError(f"{path}: cannot read: {exc.strerror}") from None
        except NotationError as exc:
            raise OptionError(str(exc)) from None
        for record in found:
            i = next(numbers)
            if record.game != game.name or dict(record.params) != dict(game.params):
                raise OptionError(
                    f"{path}: a record of {record.game} {record.params}, not of "
                    f"{game.describe()}"
                )
            if record.result == "none" or record.forfeited:
                continue
            tasks.append(PositionTask(
                game.name, dict(game.params), dict(values), i, derive_seed(0, i), depth,
                solve_from=solve_from, moves=tuple(record.moves), start=record.start,
                winner=record.winner, source=str(path),
            ))  # fmt: skip
    if not tasks:
        raise OptionError(f"no finished game of {game.describe()} among the records")
    return tasks


@dataclass
class PositionSet:
    """Labelled features of quiet positions of one game and evaluator.

    `rows[i]` is `[game, label, *features]`; `games` counts the games whose
    positions are in (a self-play run resumes after them).
    """

    game: str
    params: dict[str, int]
    evaluator: str
    names: tuple[str, ...]
    weights: dict[str, float]
    rows: list[list[float]] = field(default_factory=list)
    games: int = 0
    solved: int = 0
    settings: dict[str, Any] = field(default_factory=dict)

    def add(self, found: TaskPositions) -> None:
        """Add one task's positions (tagged with its game)."""
        self.rows.extend([float(found.index), *row] for row in found.rows)
        self.games += 1
        self.solved += found.solved

    def arrays(self) -> tuple[Any, Any, Any]:
        """(features n x k, labels n, games n) as numpy arrays."""
        data = np.asarray(self.rows, dtype=float).reshape(-1, len(self.names) + 2)
        return data[:, 2:], data[:, 1], data[:, 0].astype(int)

    def to_json(self) -> dict[str, Any]:
        """The set as JSON data."""
        return {
            "format": POSITIONS_FORMAT, "version": 1, "game": self.game, "params": self.params,
            "evaluator": self.evaluator, "names": list(self.names), "weights": self.weights,
            "games": self.games, "solved": self.solved, "settings": self.settings,
            "rows": self.rows,
        }  # fmt: skip

    def save(self, path: str | Path) -> None:
        """Write the set (atomically)."""
        atomic_write_text(path, json.dumps(self.to_json(), allow_nan=False) + "\n")

    @classmethod
    def load(cls, path: str | Path, game: Game[Any], weights: Weights) -> PositionSet:
        """Read a set made for exactly `game` (its options too) and `weights`;
        BadFileError (one line) otherwise."""
        source = str(path)
        try:
            data = parse_json(read_text(path), source)
        except OSError as exc:
            raise NotationError(source, f"cannot read positions: {exc.strerror}") from None
        if not isinstance(data, dict) or data.get("format") != POSITIONS_FORMAT:
            raise BadFileError(source, f"not a positions file (no format {POSITIONS_FORMAT})")
        if data.get("game") != game.name or data.get("params") != dict(game.params):
            raise BadFileError(
                source,
                f"positions of {quote(data.get('game'))} {quote(data.get('params'))},"
                f" not of {game.describe()}",
            )
        if data.get("evaluator") != weights.evaluator or data.get("names") != list(weights.linear):
            raise BadFileError(
                source, f"positions for the {quote(data.get('evaluator'))} evaluator's features,"
                f" not for {weights.describe()}"
            )
        rows, width = data.get("rows"), len(weights.linear) + 2
        if not isinstance(rows, list) or not all(
            isinstance(r, list) and len(r) == width and all(_finite(x) for x in r) for r in rows
        ):
            raise BadFileError(source, f"\"rows\" must be lists of {width} finite numbers")
        try:
            values = weights.check(data.get("weights") or {})
        except OptionError as exc:
            raise BadFileError(source, str(exc)) from None
        games = data.get("games")
        if not isinstance(games, int) or isinstance(games, bool) or games < 0:
            raise BadFileError(source, "\"games\" must be a whole number")
        return cls(
            game.name, dict(game.params), weights.evaluator, weights.linear, values, rows,
            games, int(data.get("solved") or 0), dict(data.get("settings") or {}),
        )  # fmt: skip


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


# --- the fit ------------------------------------------------------------------------------


@dataclass
class FitResult:
    """A Texel fit: the weights, the scale K, the L2 strength, the losses per
    Newton step (training and held-out; the first are the starting weights')."""

    weights: dict[str, float]
    scale: float
    train: list[float]
    held_out: list[float]
    positions: int
    held_out_positions: int
    l2: float = 0.0

    @property
    def start_loss(self) -> tuple[float, float]:
        """(training, held-out) loss of the starting weights."""
        return self.train[0], self.held_out[0]

    @property
    def end_loss(self) -> tuple[float, float]:
        """(training, held-out) loss of the fitted weights."""
        return self.train[-1], self.held_out[-1]


def _loss(z: Any, y: Any) -> float:
    """Mean logistic loss of scores `z` (logits) against labels `y` in [0, 1]."""
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def fit_scale(x: Any, y: Any, w: Any) -> float:
    """The K > 0 minimising the logistic loss of sigmoid(K * x.w), by Newton steps
    on log K (1 when the scores say nothing)."""
    s = x @ w
    if not np.any(s):
        return 1.0
    k = 1.0 / max(float(np.std(s)), 1e-12)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(k * s, -500, 500)))
        grad = float(np.mean((p - y) * s))
        hess = float(np.mean(p * (1 - p) * s * s))
        if hess <= 0:
            break
        step = grad / hess
        new = k - step
        if new <= 0:
            new = k / 2
        if abs(new - k) <= 1e-10 * k:
            k = new
            break
        k = new
    return float(k)


def split_games(games: Any, held_out: float, seed: int) -> Any:
    """A mask of the rows held out: the rows of a `held_out` share of the games."""
    ids = np.unique(games)
    rng = np.random.default_rng(seed)
    count = int(round(len(ids) * held_out))
    if held_out > 0 and len(ids) > 1:
        count = min(max(count, 1), len(ids) - 1)
    chosen = rng.choice(ids, size=count, replace=False) if count else ids[:0]
    return np.isin(games, chosen)


def fit(
    x: Any,
    y: Any,
    start: Sequence[float],
    *,
    low: Sequence[float],
    high: Sequence[float],
    l2: float = 1e-3,
    held: Any = None,
    steps: int = 50,
    scale: float | None = None,
    names: Sequence[str] = (),
    on_step: Callable[[int, float, float], None] | None = None,
) -> FitResult:
    """Fit weights to labelled features by Texel's method (see the module's text).

    `x` (n x k features), `y` (labels in [0, 1]); `held` masks the held-out
    rows (None: none); `l2` weighs the pull towards `start`, in units of
    each weight's range; `scale` K (None: fitted on `start`).
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n, k = x.shape
    if n == 0 or k == 0:
        raise OptionError("no positions to fit")
    held = np.zeros(n, dtype=bool) if held is None else np.asarray(held, dtype=bool)
    xt, yt, xh, yh = x[~held], y[~held], x[held], y[held]
    if len(yt) == 0:
        raise OptionError("every position is held out: nothing to fit")
    w0 = np.asarray(start, dtype=float)
    lo, hi = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    span = np.maximum(hi - lo, 1e-12)
    kk = fit_scale(xt, yt, w0) if scale is None else float(scale)
    a = kk * xt  # logits are a @ w

    def objective(w: Any) -> float:
        d = (w - w0) / span
        return _loss(a @ w, yt) + l2 * float(d @ d)

    def held_loss(w: Any) -> float:
        return _loss(kk * (xh @ w), yh) if len(yh) else float("nan")

    w = np.clip(w0, lo, hi)
    train, held_out = [_loss(a @ w, yt)], [held_loss(w)]
    if on_step is not None:
        on_step(0, train[0], held_out[0])
    for step in range(1, steps + 1):
        z = a @ w
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -500, 500)))
        grad = a.T @ (p - yt) / len(yt) + 2 * l2 * (w - w0) / span**2
        hess = (a * (p * (1 - p))[:, None]).T @ a / len(yt) + np.diag(2 * l2 / span**2)
        try:
            direction = np.linalg.solve(hess + 1e-12 * np.eye(k), grad)
        except np.linalg.LinAlgError:
            direction = grad
        before = objective(w)
        t = 1.0
        while True:
            candidate = np.clip(w - t * direction, lo, hi)
            if objective(candidate) <= before or t < 1e-6:
                break
            t /= 2
        moved = float(np.max(np.abs(candidate - w) / span))
        w = candidate
        train.append(_loss(a @ w, yt))
        held_out.append(held_loss(w))
        if on_step is not None:
            on_step(step, train[-1], held_out[-1])
        if moved < 1e-7:
            break
    labels = list(names) or [f"w{i}" for i in range(k)]
    return FitResult(
        {name: float(v) for name, v in zip(labels, w, strict=True)}, kk, train, held_out,
        int(len(yt)), int(len(yh)), l2,
    )  # fmt: skip


#: The L2 strengths tried when none is given: the one with the lowest
#: held-out loss is kept.
L2_GRID = (1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1000.0)


def fit_positions(
    positions: PositionSet,
    weights: Weights,
    *,
    l2: float | None = None,
    held_out: float = 0.2,
    seed: int = 0,
    steps: int = 50,
) -> FitResult:
    """Fit the linear weights to a position set (the other weights stay as the
    set's).  With `l2` None, each strength of L2_GRID is tried and the fit
    with the lowest held-out loss kept (that needs held-out games)."""
    x, y, games = positions.arrays()
    if len(y) == 0:
        raise OptionError("the position set holds no positions")
    held = split_games(games, held_out, seed)
    if l2 is None and not held.any():
        raise OptionError("choosing the L2 strength needs held-out games (or give --l2)")
    chosen = [weights.weight(name) for name in positions.names]
    best: FitResult | None = None
    for strength in L2_GRID if l2 is None else (l2,):
        result = fit(
            x, y, [positions.weights[d.name] for d in chosen],
            low=[d.low for d in chosen], high=[d.high for d in chosen], l2=strength,
            held=held, steps=steps, names=positions.names,
        )  # fmt: skip
        if best is None or result.end_loss[1] < best.end_loss[1]:
            best = result
    assert best is not None
    return best


def texel_defaults(game: Game[Any]) -> dict[str, int]:
    """The default depth, random opening plies and solver threshold of a
    Texel run on `game` (from its declaration)."""
    weights = declared(game)
    return {"depth": DEFAULT_DEPTH, "random_plies": weights.random_plies,
            "solve_from": weights.solve_from}
