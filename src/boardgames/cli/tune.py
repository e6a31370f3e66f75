"""Commands: tune (natural selection of evaluator parameters)."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..errors import OptionError
from ..io import check_writable
from ..options import MAX_WORKERS
from ..parallel import open_executor
from ..tuning.selection import SelectionResult, tuner_for
from .common import (
    SEED,
    Command,
    Seconds,
    Whole,
    fail,
    game_from_kwargs,
    game_options,
    progress,
)


@click.command(cls=Command)
@click.argument("game_name", metavar="GAME")
@click.option("--population", type=Whole(3), default=8, show_default=True,
              help="Players per generation.")
@click.option("--generations", type=Whole(), default=5, show_default=True)
@click.option("--keep", type=Whole(), default=2, show_default=True,
              help="Survivors per generation (by win/loss ratio).")
@click.option("--games-per-pair", type=Whole(), default=2, show_default=True,
              help="Games each pair plays per generation, colours alternating.")
@click.option("--depth", type=Whole(), default=None,
              help="Search depth of every player (default 2 unless --time is given).")
@click.option("--time", "seconds", type=Seconds(), default=None,
              help="Search seconds per move instead of a depth (not reproducible).")
@click.option("--workers", type=Whole(0, MAX_WORKERS), default=None,
              help="Worker processes (default: one per core; 0 plays here).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed for the random players and the games.")
@click.option("--output", default=None,
              help="Where to save the best parameters and the history (JSON)"
              " [default: GAME-tune.json].")
@game_options
def tune(
    game_name: str,
    population: int,
    generations: int,
    keep: int,
    games_per_pair: int,
    depth: int | None,
    seconds: float | None,
    workers: int | None,
    seed: int,
    output: str | None,
    **kwargs: Any,
) -> None:
    """Tune the parameters of GAME's AI by natural selection (the game's
    tuner names the AI and the ranges of its parameters).

    Each generation plays a round robin; the best players by win/loss ratio
    survive and the rest are replaced by random newcomers.  The result loads
    back with `--ai AI:params=FILE`.
    """
    game = game_from_kwargs(game_name, kwargs)
    tuner = tuner_for(game.name)
    if keep >= population:
        raise OptionError(f"--keep ({keep}) must be smaller than --population ({population})")
    output = f"{game.name}-tune.json" if output is None else output
    check_writable(output, "--output")
    if depth is None and seconds is None:
        depth = 2
    pairs = population * (population - 1) // 2
    total = generations * pairs * games_per_pair
    progress(
        f"tuning {tuner.ai} on {game.describe()}: {population} players x {generations}"
        f" generations, {total} games"
    )
    time_limit = None if seconds is None else max(1.0, 2 * seconds)
    saved: list[SelectionResult] = []

    def save(result: SelectionResult) -> None:  # after every generation
        result.save(output)
        saved[:] = [result]

    try:
        with (
            open_executor(workers) as executor,
            click.progressbar(length=total, label="games", show_eta=True, show_pos=True,
                              file=sys.stderr) as bar,
        ):
            result = tuner.run(
                game,
                depth=depth,
                time=seconds,
                population=population,
                generations=generations,
                keep=keep,
                games_per_pair=games_per_pair,
                time_limit=time_limit,
                seed=seed,
                executor=executor,
                on_result=lambda _: bar.update(1),
                on_progress=save,
            )
    except KeyboardInterrupt:
        if not saved:
            fail("interrupted before the first generation finished; nothing saved", 130)
        click.echo(saved[0].format())
        done = len(saved[0].history)
        fail(f"interrupted after {done} of {generations} generations; the best so far"
             f" is saved to {output}", 130)
    click.echo(result.format())
    click.echo(f"saved to {output} (use --ai {tuner.ai}:params={output})")


COMMANDS = [tune]
