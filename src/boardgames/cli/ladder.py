"""Command: ladder (every named AI of a game in a standing round robin)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import click

from ..options import MAX_GAMES_PER_PAIR
from ..tournament.ladder import (
    LADDER_TIME,
    TARGET_ELO,
    bounds,
    focus_of,
    joined,
    ladder_dir,
    new_ladder,
    next_round,
)
from ..tournament.schedule import TournamentSettings
from ..tournament.standings import TournamentResult
from ..tournament.store import TournamentDir
from .common import (
    Command,
    Real,
    Seconds,
    Whole,
    fail,
    game_from_kwargs,
    game_options,
    plugin_paths,
    progress,
    workers_option,
)
from .tournament import _check_players, report_failures, run_games

#: How to go on after an interruption.
AGAIN = "the same boardgames ladder command"


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
    type=Whole(2, MAX_GAMES_PER_PAIR),
    default=None,
    help="A plain round robin up to N games per pair [default: focused rounds until ±--elo].",
)
@click.option(
    "--rounds",
    type=Whole(0),
    default=None,
    help="Play at most this many more rounds now (a round: two games a pair, or as many"
    " focused games); 0: the table only.",
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
@click.option(
    "-p", "--player", "players", multiple=True, metavar="SPEC",
    help="A player besides the named AIs: a program (program:CMD ARGS) or an AI with options"
    " (repeat); it stays in the ladder once in.",
)
@click.option("--markdown", is_flag=True, help="Print the table as Markdown.")
@game_options
def ladder(
    game_name: str,
    time_limit: float | None,
    games: int | None,
    rounds: int | None,
    target: float,
    out_dir: str | None,
    workers: int | None,
    players: tuple[str, ...],
    markdown: bool,
    **kwargs: Any,
) -> None:
    """Every named AI of GAME in a standing round robin, rated with alphabeta = 0.

    Plays round after round at 1 s a move until every AI's Elo is known to
    ±50 (95%): rounds of the round robin (two games a pair, colours swapped)
    to 4 games a pair, then focused rounds, as many games each, played by
    the pairs that narrow the widest intervals most (or a plain round robin
    to --games per pair).  After each round a line on stderr gives the
    widest interval so far and about how many games are still needed.
    Ctrl-C stops and keeps the games, and running the same command again
    goes on.  AIs registered since the ladder began join it, and so do the
    players given with -p (programs, AIs with options).
    """
    plugins = kwargs["plugin"]
    game = game_from_kwargs(game_name, kwargs)
    _check_players(game, players)
    folder = TournamentDir(ladder_dir(game) if out_dir is None else out_dir)
    with folder.lock(create=not folder.exists()):
        if folder.exists():
            settings = joined(folder.settings(), game, players)
            added = [p for p in settings.players if isinstance(p, str) and ":" in p]
            _check_players(game, [p for p in added if p not in players])
            if time_limit is not None and time_limit != settings.time_limit:
                fail(
                    f"the ladder in {folder.path} plays at {settings.time_limit:g} s a move;"
                    " drop --time, or start another ladder with --out"
                )
        else:
            settings = new_ladder(game, time_limit or LADDER_TIME, extra=players)
            settings = _with_plugins(settings, plugins)
            folder.create(settings)
        settings, result = _play_rounds(settings, folder, games, rounds, target, workers)
    click.echo(result.to_markdown() if markdown else result.format())
    click.echo(progress_line(result, settings, target))
    click.echo(f"records and summary in {folder.path}; run the same command again to play on")


def _play_rounds(
    settings: TournamentSettings,
    folder: TournamentDir,
    games: int | None,
    rounds: int | None,
    target: float,
    workers: int | None,
) -> tuple[TournamentSettings, TournamentResult]:
    """Play round after round until the goal (or `rounds` rounds); the
    settings and the table.  After each round, where the ladder stands
    goes to stderr (a long ladder's progress)."""
    done = folder.finished()
    result = folder.result(settings)
    played = 0
    while rounds is None or played < rounds:
        step = next_round(settings, result, games, target)
        if step is None:
            break
        if step != settings:
            folder.update_settings(step)
            settings = step
        keys = {r.key for r in done}
        result = run_games(settings, folder, done, workers, None, AGAIN)
        report_failures(result, keys, folder, AGAIN)
        done = folder.finished()
        played += 1
        progress(f"round {played}: {progress_line(result, settings, target)}")
    return settings, folder.result(settings)


def progress_line(result: TournamentResult, settings: TournamentSettings, target: float) -> str:
    """Where the ladder stands against ±`target` Elo: the widest interval and
    the games that focused rounds would take to reach the target."""
    played = sum(r.finished for r in result.results)
    left_out = bounds(result)
    if not played:
        line = f"no game played yet; ±{target:g} Elo (95%) is the goal"
    else:
        focus = focus_of(result, settings)
        widest = focus.widest()
        if widest <= target:
            line = f"every rated AI is within ±{target:g} Elo (95%) after {played} games"
        else:
            name = max(
                (s for s in result.standings() if s.label not in left_out and s.games),
                key=lambda s: s.elo_error if math.isfinite(s.elo_error) else -1.0,
            ).label
            more = focus.games_to_target(target)
            goal = "out of reach" if math.isinf(more) else f"about {int(more)} more games"
            line = (
                f"widest 95% interval ±{widest:.0f} Elo ({name}); ±{target:g} needs {goal}"
                f" in focused rounds (played: {played})"
            )
    if left_out:
        line += f"; won or lost every game, so rated as a bound only: {', '.join(left_out)}"
    return line


def _with_plugins(settings: TournamentSettings, plugins: tuple[str, ...]) -> TournamentSettings:
    paths = plugin_paths(plugins)
    return replace(settings, plugins=paths) if paths else settings


COMMANDS = [ladder]
