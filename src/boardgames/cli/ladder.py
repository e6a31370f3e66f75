"""Command: ladder (every named AI of a game in a standing round robin)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import replace
from typing import Any

import click

from ..arena.ladder import (
    LADDER_TIME,
    TARGET_ELO,
    goal_games,
    joined,
    ladder_dir,
    new_ladder,
    planned,
)
from ..arena.schedule import round_robin_tasks
from ..arena.store import TournamentDir
from ..arena.tournament import TournamentResult, TournamentSettings
from .common import (
    Command,
    Real,
    Seconds,
    Whole,
    fail,
    game_from_kwargs,
    game_options,
    handle_errors,
    plugin_paths,
    workers_option,
)
from .tournament import report_failures, run_games


@click.command(cls=Command)
@click.argument("game_name", metavar="GAME")
@click.option(
    "--time",
    "time_limit",
    type=Seconds(),
    default=None,
    help=f"Seconds per move of a new ladder [default: {LADDER_TIME:g}]; a ladder keeps its own.",
)
@click.option(
    "--games",
    "-n",
    type=Whole(2),
    default=None,
    help="Games per pair to reach [default: as many as ±--elo needs, from the ratings so far].",
)
@click.option(
    "--rounds",
    type=Whole(0),
    default=None,
    help="Play at most this many more rounds now (a round: two games a pair); 0: the table only.",
)
@click.option(
    "--elo",
    "target",
    type=Real(1, 1000),
    default=TARGET_ELO,
    show_default=True,
    help="The 95% interval half-width to reach, in Elo.",
)
@click.option(
    "--out",
    "out_dir",
    metavar="DIR",
    default=None,
    help="The ladder's directory [default: ladder-GAME-OPTIONS, e.g. ladder-hexifence-size2].",
)
@workers_option
@click.option("--markdown", is_flag=True, help="Print the table as Markdown.")
@game_options
@handle_errors
def ladder(
    game_name: str,
    time_limit: float | None,
    games: int | None,
    rounds: int | None,
    target: float,
    out_dir: str | None,
    workers: int | None,
    markdown: bool,
    **kwargs: Any,
) -> None:
    """Every named AI of GAME in a standing round robin, rated with alphabeta = 0.

    Plays round after round (two games a pair, colours swapped) at 1 s a
    move until every AI's Elo is known to ±50 (95%), or --games per pair;
    Ctrl-C stops and keeps the games, and running the same command again
    goes on.  AIs registered since the ladder began join it.
    """
    plugins = kwargs["plugin"]
    game = game_from_kwargs(game_name, kwargs)
    folder = TournamentDir(out_dir or ladder_dir(game))
    with folder.lock(create=not folder.exists()):
        if folder.exists():
            settings = joined(folder.settings(), game)
            if time_limit is not None and time_limit != settings.time_limit:
                fail(
                    f"the ladder in {folder.path} plays at {settings.time_limit:g} s a move;"
                    " drop --time, or start another ladder with --out"
                )
        else:
            settings = new_ladder(game, time_limit or LADDER_TIME)
            settings = _with_plugins(settings, plugins)
            folder.create(settings)
        result = _play_rounds(settings, folder, games, rounds, target, workers)
    click.echo(result.to_markdown() if markdown else result.format())
    goal, bounds = goal_games(result, target)
    played = least_played(result)
    line = f"±{target:g} Elo (95%) needs about {goal} games per pair (played: {played})"
    needed = result.games_needed(target)
    each = sorted(
        ((n, name) for name, n in needed.items() if n > 0 and name not in bounds),
        key=lambda item: (-item[0], item[1]),
    )
    if len(each) > 1 and math.isfinite(each[0][0]):
        line += "; by AI: " + ", ".join(f"{name} {math.ceil(n)}" for n, name in each)
    if bounds:
        line += f"; won or lost every game, so rated as a bound only: {', '.join(bounds)}"
    click.echo(line)
    click.echo(f"records and summary in {folder.path}; run the same command again to play on")


def _play_rounds(
    settings: TournamentSettings,
    folder: TournamentDir,
    games: int | None,
    rounds: int | None,
    target: float,
    workers: int | None,
) -> TournamentResult:
    """Play round after round until the goal (or `rounds` rounds); the table."""
    done = folder.finished()
    result = folder.result(settings)
    played = 0
    while rounds is None or played < rounds:
        goal = games if games is not None else goal_games(result, target)[0]
        keys = {r.key for r in done}
        step = planned(settings, keys, 1, goal)
        if all(task.key in keys for task in round_robin_tasks(step)):
            break  # every pair has played its goal
        if step != settings:
            folder.update_settings(step)
            settings = step
        result = run_games(settings, folder, done, workers, None)
        report_failures(result, keys, folder)
        done = folder.finished()
        played += 1
    return folder.result(settings)


def least_played(result: TournamentResult) -> int:
    """The games played by the pair that has played least."""
    counts = Counter(r.pair for r in result.results if r.finished)
    pairs = itertools.combinations(range(len(result.labels)), 2)
    return min((counts[pair] for pair in pairs), default=0)


def _with_plugins(settings: TournamentSettings, plugins: tuple[str, ...]) -> TournamentSettings:
    paths = plugin_paths(plugins)
    return replace(settings, plugins=paths) if paths else settings


COMMANDS = [ladder]
