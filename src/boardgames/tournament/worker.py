"""One game of a tournament, played where a worker runs it.

`play_task`, a top-level function, plays one `GameTask` and returns a
`GameResult`, so the same tasks run in this process, in worker processes
(`ProcessPoolExecutor`) or on a Dask cluster.  Every game builds fresh
players from the task's specs and seeds, and closes them at its end (a
program's process ends with its game; its stderr goes to the task's log
folder).  A player that cannot be built,
raises, returns an illegal move or overruns the time limit loses that game
(the referee is `play_game`); a player that hangs is stopped by the
watchdog and loses too.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from ..ai import make_player
from ..game import End, Game
from ..match.openings import opening_position
from ..match.play import describe, play_game, random_opening
from ..match.records import GameRecord
from ..match.watchdog import Deadline, Watched
from ..players import Player
from ..plugins import import_plugins
from ..programs import is_program_spec
from ..registry import get_game
from .tasks import GameResult, GameTask, PlayerSpec, derive_seed, log_name


def play_task(task: GameTask) -> GameResult:
    """Play one game in this process (the function executors run).

    Never raises for a player's fault: a player that cannot even be built,
    crashes, cheats or hangs loses the game.  Only a failure outside the
    players (an unknown game, a bug in the rules) gives a result with `error`.
    """
    started = time.perf_counter()

    def result(record: GameRecord | None, error: str | None = None) -> GameResult:
        if record is not None:
            record.players = list(task.labels)
        seconds = round(time.perf_counter() - started, 3)
        return GameResult(task.pair, task.index, record, error, seconds)

    try:
        import_plugins(task.plugins)
        game = get_game(task.game, **dict(task.params))
    except Exception as exc:
        return result(None, f"cannot set up {task.game}: {describe(exc)}")

    players: list[Player[Any]] = []
    try:
        return result(*_play(task, game, players))
    finally:
        for player in players:  # a program's process ends with its game
            player.close()


def _play(
    task: GameTask, game: Game[Any], players: list[Player[Any]]
) -> tuple[GameRecord | None, str | None]:
    """(the record, None), or (None, the error) of a failure outside the players;
    `players` gets each player once it is built (the caller closes them)."""
    deadline = Deadline(task.move_timeout, task.game_timeout)
    for side, spec in enumerate(task.specs):
        log = None
        if task.logs is not None and isinstance(spec, str) and is_program_spec(spec):
            log = str(Path(task.logs) / log_name(task.pair, task.index, task.players[side]))
        try:
            player = build_player(game, spec, derive_seed(task.seed, side), log)
        except Exception as exc:
            why = f"{task.labels[side]}: cannot build the player: {describe(exc)}"
            state = game.new_state()
            return GameRecord.from_state(state).forfeit(state, side, End.CRASH, why), None
        player.name = task.labels[side]  # reasons name the side as the tables do
        players.append(Watched(player, deadline))
    try:
        start = None
        if task.opening_plies:
            start = random_opening(game, task.opening_plies, random.Random(task.opening_seed))
        elif task.opening:
            start = opening_position(game, task.opening)
        record = play_game(
            game,
            players,
            time_limit=task.time_limit,
            start=start,
            max_moves=task.max_moves,
            clock=task.clock,
        )
    except Exception as exc:
        return None, f"game failed outside the players: {describe(exc)}"
    if record.end is End.INTERRUPTED:  # stopped at max_moves: adjudicated a draw
        record.finish(record.replay(game), record.reason, draw=True)
    return record, None


def build_player(
    game: Game[Any], spec: PlayerSpec, seed: int, log: str | None = None
) -> Player[Any]:
    """A fresh player for one game (a seed the spec sets itself wins); `log`
    is the stderr log of a program."""
    if isinstance(spec, str):
        return make_player(game, spec, seed=seed, log=log)
    return spec(game, seed=seed)
