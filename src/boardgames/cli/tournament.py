"""Command: tournament (a round robin with Elo, on local processes or Dask)."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any

import click

from ..ai import make_player, spec_threads
from ..clock import TimeControl
from ..errors import OptionError
from ..game import Game
from ..match.openings import parse_openings
from ..options import MAX_GAMES_PER_PAIR
from ..parallel import default_workers, local_workers, open_executor
from ..plugins import import_plugins
from ..registry import get_game
from ..tournament.run import round_robin
from ..tournament.schedule import TournamentSettings
from ..tournament.standings import TournamentResult
from ..tournament.store import LOGS, TournamentDir
from ..tournament.tasks import GameResult, PlayerSpec
from .common import (
    SEED,
    Command,
    Number,
    Seconds,
    Whole,
    fail,
    game_from_kwargs,
    game_options,
    given_options,
    opening_file,
    plugin_paths,
    progress,
    read_opening_file,
    workers_option,
)

DEFAULT_GAMES = 2
#: A game clock on the command line: "SECONDS[+INCREMENT]".
CLOCK = Number(lambda name, value: TimeControl.parse(value, name), "SECONDS[+INC]")


@click.command(cls=Command)
@click.argument("game_name", metavar="GAME", required=False)
@click.option(
    "-p",
    "--player",
    "players",
    multiple=True,
    metavar="SPEC",
    help="An AI with its options, e.g. alphabeta:depth=4, or a program (program:CMD ARGS);"
    " repeat, at least twice.",
)
@click.option(
    "--games",
    "-n",
    type=Whole(1, MAX_GAMES_PER_PAIR),
    default=None,
    help=f"Games per pair, colours alternating [default: {DEFAULT_GAMES}].",
)
@click.option("--time", "time_limit", type=Seconds(), default=None, help="Seconds per move.")
@click.option(
    "--clock",
    type=CLOCK,
    default=None,
    help="A game clock: SECONDS for each side's whole game, +INCREMENT after each move"
    " (e.g. 60 or 5+0.1); out of time loses. With --time too, --time caps each move.",
)
@click.option(
    "--anchor",
    metavar="PLAYER",
    default=None,
    help="The player rated 0 in the table, or 'mean' [default: random, if it plays].",
)
@workers_option
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Run on a Dask cluster (e.g. tcp://host:8786); needs the dask extra.",
)
@click.option(
    "--out",
    "out_dir",
    metavar="DIR",
    default=None,
    help="Directory for the records and summary [default: tournament-GAME-TIME].",
)
@click.option(
    "--resume",
    "resume_dir",
    metavar="DIR",
    default=None,
    help="Continue the tournament in this directory (only missing games are played).",
)
@click.option("--seed", type=SEED, default=None, help="Tournament seed [default: 0].")
@click.option(
    "--game-timeout",
    type=Seconds(),
    default=None,
    help="Hard limit in seconds per game: the side to move then loses.",
)
@click.option(
    "--max-moves",
    type=Whole(),
    default=None,
    help="A game still going after this many moves is a draw.",
)
@click.option(
    "--openings",
    "opening_plies",
    type=Whole(0),
    default=None,
    help="Start each pair of games (colours swapped) from a random opening this deep.",
)
@opening_file
@game_options
def tournament(
    game_name: str | None,
    players: tuple[str, ...],
    games: int | None,
    time_limit: float | None,
    clock: TimeControl | None,
    anchor: str | None,
    workers: int | None,
    scheduler: str | None,
    out_dir: str | None,
    resume_dir: str | None,
    seed: int | None,
    game_timeout: float | None,
    max_moves: int | None,
    opening_plies: int | None,
    opening_file: str | None,
    **kwargs: Any,
) -> None:
    """A round robin between AIs at GAME: every pair plays N games.

    Prints wins, draws, losses, score and Elo (95% intervals; random = 0
    when it plays).  Every game record and a summary.json go to --out;
    Ctrl-C stops and keeps finished games, and --resume DIR continues.
    With depth- or node-limited AIs the results depend only on the seed,
    not on the number of workers.
    """
    if resume_dir is not None:
        flags = [
            ("GAME", game_name),
            ("--player", players),
            ("--time", time_limit),
            ("--clock", clock),
            ("--anchor", anchor),
            ("--seed", seed),
            ("--out", out_dir),
            ("--game-timeout", game_timeout),
            ("--max-moves", max_moves),
            ("--openings", opening_plies),
            ("--opening-file", opening_file),
            ("game options", given_options(kwargs)),
        ]
        given = [name for name, value in flags if value]
        if given:
            fail(f"--resume takes the settings from its directory; drop {', '.join(given)}")
        _resume(TournamentDir(resume_dir), games, kwargs["plugin"], workers, scheduler)
        return
    if game_name is None:
        fail("give a GAME (or --resume DIR)")
        return
    if len(players) < 2:
        fail("give at least two --player SPEC")
    plugins = plugin_paths(kwargs["plugin"])
    game = game_from_kwargs(game_name, kwargs)
    _check_players(game, players)
    if opening_plies and opening_file is not None:
        fail("give --openings or --opening-file, not both")
    settings = TournamentSettings(
        game=game.name,
        params=dict(game.params),
        players=list(players),
        games_per_pair=games or DEFAULT_GAMES,
        time_limit=time_limit,
        seed=0 if seed is None else seed,
        game_timeout=game_timeout,
        max_moves=max_moves,
        opening_plies=opening_plies or 0,
        openings=read_opening_file(game, opening_file),
        plugins=plugins,
        clock=None if clock is None else str(clock),
        anchor_label=anchor,
    )
    default_dir = f"tournament-{game.name}-{time.strftime('%Y%m%d-%H%M%S')}"
    folder = TournamentDir(default_dir if out_dir is None else out_dir)
    with folder.lock(create=True):
        folder.create(settings)
        _play(settings, folder, [], workers, scheduler)


def _resume(
    folder: TournamentDir,
    games: int | None,
    plugins: tuple[str, ...],
    workers: int | None,
    scheduler: str | None,
) -> None:
    """Play the missing games of the tournament in `folder` (`games` per pair
    may add games; `plugins` may add plugins, e.g. a file that moved)."""
    from ..tournament.sprt_match import is_sprt_dir

    if is_sprt_dir(folder.path):
        fail(
            f"{folder.path} holds an SPRT match: continue it with boardgames match --resume"
            f" {folder.path}"
        )
    with folder.lock():
        settings = folder.settings()
        if plugins:
            extra = [p for p in plugin_paths(plugins) if p not in settings.plugins]
            settings = replace(settings, plugins=[*settings.plugins, *extra])
        if games is not None and games != settings.games_per_pair:
            if games < settings.games_per_pair:
                raise OptionError(
                    f"{folder.path} was started with {settings.games_per_pair} games per"
                    " pair; --games can only add games"
                )
            settings = replace(settings, games_per_pair=games)
        game = _load_game(settings)
        _check_players(game, settings.players)
        if settings.openings:  # checked as an opening file's would be
            parse_openings(game, "\n".join(settings.openings), str(folder.manifest))
        done = folder.finished()  # before any change: a damaged record stops here
        if settings.games_per_pair != folder.settings().games_per_pair:
            folder.update_settings(settings)
        _play(settings, folder, done, workers, scheduler)


def _play(
    settings: TournamentSettings,
    folder: TournamentDir,
    done: list[GameResult],
    workers: int | None,
    scheduler: str | None,
) -> None:
    """Run the missing games, print the table, and say so when games were forfeited."""
    result = run_games(settings, folder, done, workers, scheduler)
    click.echo(result.format())
    click.echo(f"records and summary in {folder.path}")
    report_failures(result, {r.key for r in done}, folder)


def report_failures(
    result: TournamentResult,
    before: set[tuple[int, int, int]],
    folder: TournamentDir,
    again: str = "",
) -> None:
    """A warning line for games lost by a player's fault (a crash, a bad move,
    time, a hang); an error (exit 2) when no game of this run ended on the board,
    or some could not be played at all: the table then measures nothing."""
    new = [r.record for r in result.results if r.key not in before and r.record is not None]
    forfeits = [record for record in new if record.forfeited]
    if forfeits:
        counts: dict[str, int] = {}
        for record in forfeits:
            counts[record.end.value] = counts.get(record.end.value, 0) + 1
        how = ", ".join(f"{n} by {end}" for end, n in sorted(counts.items()))
        first = forfeits[0]
        progress(
            f"warning: {len(forfeits)} of {len(new)} games forfeited ({how});"
            f" first: {first.summary()}"
        )
    if result.errors:
        fail(
            f"{len(result.errors)} games could not be played (first: {result.errors[0].error});"
            " finished games are kept: continue with:"
            f" {again or f'boardgames tournament --resume {folder.path}'}"
        )
    if new and len(forfeits) == len(new):
        fail(
            f"every game played was forfeited ({len(new)} of {len(new)}): check the players"
            " and the time limits"
        )


def run_games(
    settings: TournamentSettings,
    folder: TournamentDir,
    done: list[GameResult],
    workers: int | None,
    scheduler: str | None,
    again: str = "",
) -> TournamentResult:
    """Play the games of `settings` not in `done`, saving each in `folder`;
    on Ctrl-C or a dead worker, one error line that says how to go on
    (`again`, default: `boardgames tournament --resume DIR`)."""
    again = again or f"boardgames tournament --resume {folder.path}"
    planned = settings.planned
    finished = {r.key for r in done}
    remaining = max(0, planned - len(finished))
    if done:
        progress(f"resuming: {len(finished)} of {planned} games already played")
    if scheduler is None:
        workers = workers_for(workers, settings)
    where = f"Dask scheduler {scheduler}" if scheduler else _workers_text(workers)
    progress(f"{settings.game}: {len(settings.players)} players, {planned} games on {where}")

    def keep(result: GameResult) -> None:
        folder.save(result)
        if result.error is not None:
            progress(f"\ngame {result.pair} #{result.index} could not be played: {result.error}")
        bar.update(1)

    try:
        with (
            open_executor(workers, scheduler) as executor,
            click.progressbar(
                length=remaining,
                label="games",
                show_eta=True,
                show_pos=True,
                file=sys.stderr,
            ) as bar,
        ):
            logs = str(folder.path / LOGS)
            result = round_robin(settings, executor, on_result=keep, done=done, logs=logs)
    except KeyboardInterrupt:
        partial = folder.result(settings)
        folder.save_summary(partial, settings)
        click.echo(partial.format())
        fail(
            f"interrupted: {sum(r.finished for r in partial.results)} of {planned} games kept in"
            f" {folder.path}; continue with: {again}",
            130,
        )
    except BrokenProcessPool:
        fail(f"a worker process died; finished games are kept: continue with: {again}")
    folder.save_summary(result, settings)
    return result


def _load_game(settings: TournamentSettings) -> Game[Any]:
    import_plugins(settings.plugins)
    return get_game(settings.game, **settings.params)


def _check_players(game: Game[Any], specs: Sequence[PlayerSpec]) -> None:
    """Build each player once here, so a typo (or a program that does not
    start) fails now and not in every game."""
    for spec in specs:
        if isinstance(spec, str):
            make_player(game, spec).close()


def workers_for(workers: int | None, settings: TournamentSettings) -> int | None:
    """`workers`, or when not given, enough to keep every core busy and no
    more: one worker per core, or per N cores when an AI searches with
    `threads=N` (its helpers need cores of their own while it thinks)."""
    if workers is not None:
        return workers
    threads = max((spec_threads(s) for s in settings.players if isinstance(s, str)), default=1)
    return None if threads == 1 else max(1, default_workers() // threads)


def _workers_text(workers: int | None) -> str:
    count = local_workers(workers)
    if count == 0:
        return "this process"
    return f"{count} worker process{'es' if count > 1 else ''}"


COMMANDS = [tournament]
