"""`boardgames match --sprt`: an SPRT match in a results folder (the library is
`tournament.sprt_match`); no command of its own, `match` calls it."""

from __future__ import annotations

import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any

import click

from ..game import Game
from ..parallel import open_executor
from ..tournament.schedule import TournamentSettings
from ..tournament.sprt import Sprt, SprtState
from ..tournament.sprt_match import (
    SprtDir,
    SprtOutcome,
    run_sprt,
    sprt_settings,
    sprt_standing,
)
from ..tournament.store import LOGS
from ..tournament.tasks import GameResult
from .common import fail, progress
from .tournament import _check_players, _load_game, _workers_text, workers_for


def new_sprt(
    game: Game[Any],
    specs: tuple[str, str],
    test: Sprt,
    max_games: int,
    options: dict[str, Any],
    out_dir: str | None,
    workers: int | None,
    given: list[str],
) -> None:
    """Start the SPRT match of `specs` (tested, baseline) at `game` in
    `out_dir` (default sprt-GAME-TIME) and play it; `options` are the
    tournament settings' (time limit, clock, seed, openings, ...); `given`
    the flags on the command line (some do not go with --sprt)."""
    wrong = [flag for flag in ("--games", "--records", "--depth", "--threads", "--params",
                               "--params2") if flag in given]
    if wrong:
        fail(f"{', '.join(wrong)} cannot go with --sprt (an SPRT match plays up to"
             " --max-games, keeps its records in --out, and takes AI options in the specs)")
    settings = sprt_settings(
        game.name, dict(game.params), specs[0], specs[1], max_games=max_games, **options
    )
    _check_players(game, settings.players)
    default = f"sprt-{settings.game}-{time.strftime('%Y%m%d-%H%M%S')}"
    folder = SprtDir(default if out_dir is None else out_dir)
    with folder.lock(create=True):
        folder.create_sprt(settings, test)
        _play(folder, settings, test, [], workers)


def resume_sprt(
    path: str, workers: int | None, given: list[str], max_games: int | None = None
) -> None:
    """Go on with the SPRT match in `path` (its finished pairs count); `given`
    are the flags on the command line besides --resume, -w and --max-games
    (none may be).  `max_games` raises the most games the match may play."""
    if given:
        fail(f"--resume takes the settings from its folder; drop {', '.join(given)}")
    folder = SprtDir(path)
    with folder.lock():
        settings, test = folder.settings(), folder.test()
        _check_players(_load_game(settings), settings.players)
        done = folder.finished(settings)
        if max_games is not None and max_games != settings.planned:
            if max_games < settings.planned:
                fail(f"{folder.path} may play {settings.planned} games; --max-games can only"
                     " raise that")
            settings = replace(settings, games_per_pair=max_games + max_games % 2)
            folder.update_settings(settings)
        _play(folder, settings, test, done, workers)


def _play(
    folder: SprtDir,
    settings: TournamentSettings,
    test: Sprt,
    done: list[GameResult],
    workers: int | None,
) -> None:
    """Play on until a verdict (or the most games), a progress line per pair
    on stderr; then where the test stands and its verdict on stdout."""
    again = f"boardgames match --resume {folder.path}"
    names = settings.names
    workers = workers_for(workers, settings)
    progress(
        f"sprt: {names[0]} vs {names[1]} at {settings.game}, {test},"
        f" at most {settings.planned} games on {_workers_text(workers)}"
    )
    if done:
        progress(f"resuming: {len(done)} games already played")

    def keep(result: GameResult) -> None:
        folder.save(result)
        if result.error is not None:
            progress(f"game {result.index} could not be played: {result.error}")

    def show(state: SprtState) -> None:
        progress(state.line())

    try:
        with open_executor(workers) as executor:
            outcome = run_sprt(
                settings, test, executor, done=done, on_result=keep, on_pair=show,
                logs=str(folder.path / LOGS),
            )
    except KeyboardInterrupt:
        partial = sprt_standing(settings, test, folder.finished(settings))
        folder.save_sprt_summary(partial, settings)
        click.echo(partial.state.line())
        fail(
            f"interrupted: {partial.played} games kept in {folder.path}; continue with: {again}",
            130,
        )
    except BrokenProcessPool:
        fail(f"a worker process died; finished games are kept: continue with: {again}")
    folder.save_sprt_summary(outcome, settings)
    _report(outcome, folder, again)


def _report(outcome: SprtOutcome, folder: SprtDir, again: str) -> None:
    click.echo(outcome.state.line())
    click.echo(outcome.verdict_line())
    click.echo(f"records and summary in {folder.path}")
    forfeits = [r.record for r in outcome.results if r.record is not None and r.record.forfeited]
    if forfeits:
        progress(
            f"warning: {len(forfeits)} of {outcome.played} games forfeited; first:"
            f" {forfeits[0].summary()}"
        )
    if outcome.errors:
        fail(
            f"{len(outcome.errors)} games could not be played (first: {outcome.errors[0].error});"
            f" finished games are kept: continue with: {again}"
        )
