"""Commands: tune (an evaluator's weights by texel, spsa or natural selection)."""

from __future__ import annotations

import math
import sys
from typing import Any

import click

from ..errors import OptionError
from ..game import Game
from ..io import check_writable, parse_json, read_text
from ..options import MAX_WORKERS
from ..parallel import open_executor
from ..tuning.selection import SelectionResult, tuner_for
from ..weights import Weights
from .common import (
    SEED,
    Command,
    Real,
    Seconds,
    Whole,
    fail,
    game_from_kwargs,
    game_options,
    progress,
)

METHODS = ("selection", "texel", "spsa")


@click.command(cls=Command)
@click.argument("game_name", metavar="GAME")
@click.option("--method", type=click.Choice(METHODS), default="selection", show_default=True,
              help="texel: fit to game results; spsa: match results; selection: natural"
              " selection.")
@click.option("--population", type=Whole(3), default=8, show_default=True,
              help="selection: players per generation.")
@click.option("--generations", type=Whole(), default=5, show_default=True,
              help="selection: generations.")
@click.option("--keep", type=Whole(), default=2, show_default=True,
              help="selection: survivors per generation (by win/loss ratio).")
@click.option("--games-per-pair", type=Whole(), default=2, show_default=True,
              help="selection: games each pair plays per generation, colours alternating.")
@click.option("--games", type=Whole(), default=400, show_default=True,
              help="texel: self-play games to take positions from.")
@click.option("--data", "data", multiple=True, metavar="PATH",
              help="texel: take positions from these record files (one record, or JSON"
              " lines as `match --records` writes them) or tournament folders"
              " instead of self-play (repeatable).")
@click.option("--positions", "positions_path", default=None, metavar="FILE",
              help="texel: where the positions are kept (and resumed from)"
              " [default: GAME-positions.json].")
@click.option("--random-plies", type=Whole(0), default=None,
              help="texel: random moves that open each self-play game [default: the game's].")
@click.option("--solve-from", type=Whole(0), default=None,
              help="texel: label leaves with this many legal moves or fewer by the exact solver"
              " [default: the game's; 0: off].")
@click.option("--l2", type=Real(0), default=None,
              help="texel: pull towards the starting weights (in units of each range)"
              " [default: the strength with the lowest held-out loss].")
@click.option("--held-out", type=Real(0, 0.9), default=0.2, show_default=True,
              help="texel: share of the games held out of the fit.")
@click.option("--iterations", type=Whole(), default=100, show_default=True,
              help="spsa: iterations.")
@click.option("--pairs", type=Whole(), default=2, show_default=True,
              help="spsa: game pairs per iteration.")
@click.option("--depth", type=Whole(), default=None,
              help="Search depth of every player (default 2 for selection and spsa, 4 for"
              " texel's positions).")
@click.option("--time", "seconds", type=Seconds(), default=None,
              help="selection, spsa: search seconds per move instead of a depth (not"
              " reproducible).")
@click.option("--params", "params", default=None, metavar="FILE",
              help="texel, spsa: start from the weights of this params file.")
@click.option("--workers", "-w", type=Whole(0, MAX_WORKERS), default=None,
              help="Worker processes (default: one per core; 0 plays here).")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="texel, spsa: run on a Dask cluster (needs the dask extra).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed for the random players and the games.")
@click.option("--resume", is_flag=True, default=False,
              help="texel: add to the positions file; spsa: continue the run in --output.")
@click.option("--output", default=None,
              help="Where to save the result [default: GAME-tune.json for selection,"
              " GAME-params.json otherwise].")
@game_options
def tune(
    game_name: str,
    method: str,
    population: int,
    generations: int,
    keep: int,
    games_per_pair: int,
    games: int,
    data: tuple[str, ...],
    positions_path: str | None,
    random_plies: int | None,
    solve_from: int | None,
    l2: float | None,
    held_out: float,
    iterations: int,
    pairs: int,
    depth: int | None,
    seconds: float | None,
    params: str | None,
    workers: int | None,
    scheduler: str | None,
    seed: int,
    resume: bool,
    output: str | None,
    **kwargs: Any,
) -> None:
    """Tune the weights of GAME's evaluator.

    texel fits the weights the evaluator declares to the results of
    self-play games (or of --data records); spsa tunes them on match
    results; selection replays natural selection (the game's tuner, or the
    declared weights).  texel and spsa save a params file that any AI of
    the evaluator loads with `--ai default:params=FILE`, and print the old
    and new weights.  Ctrl-C keeps what is done; --resume continues.
    """
    game = game_from_kwargs(game_name, kwargs)
    if method == "selection":
        _selection(game, population, generations, keep, games_per_pair, depth, seconds,
                   workers, seed, output)
        return
    if workers is not None and scheduler is not None:
        raise OptionError("give either --workers or --scheduler, not both")
    from ..tuning.texel import declared

    weights = declared(game)
    output = f"{game.name}-params.json" if output is None else output
    check_writable(output, "--output")
    start = weights.resolve(params, {})
    if method == "texel":
        _texel(game, weights, start, games, data, positions_path, random_plies, solve_from,
               l2, held_out, depth, workers, scheduler, seed, resume, output)
    else:
        _spsa(game, weights, start, iterations, pairs, depth, seconds, workers, scheduler,
              seed, resume, output)


def weight_table(weights: Weights, old: dict[str, float], new: dict[str, float]) -> str:
    """The weights, old and new, as a Markdown table."""
    lines = ["| weight | old | new |", "|---|---:|---:|"]
    for name in weights.names:
        lines.append(f"| {name} | {old[name]:g} | {new[name]:.4g} |")
    return "\n".join(lines)


def _texel(
    game: Game[Any], weights: Weights, start: dict[str, float], games: int,
    data: tuple[str, ...], positions_path: str | None, random_plies: int | None,
    solve_from: int | None, l2: float | None, held_out: float, depth: int | None,
    workers: int | None, scheduler: str | None, seed: int, resume: bool, output: str,
) -> None:
    from ..tuning.texel import (
        PositionSet,
        fit_positions,
        record_tasks,
        selfplay_tasks,
        texel_defaults,
    )

    defaults = texel_defaults(game)
    depth = defaults["depth"] if depth is None else depth
    plies = defaults["random_plies"] if random_plies is None else random_plies
    solve = defaults["solve_from"] if solve_from is None else solve_from
    path = f"{game.name}-positions.json" if positions_path is None else positions_path
    check_writable(path, "--positions")
    if resume and data:
        raise OptionError("--resume goes with self-play, not --data")
    if resume:
        positions = PositionSet.load(path, game, weights)
    else:
        positions = PositionSet(game.name, dict(game.params), weights.evaluator, weights.linear,
                                dict(start))
    positions.settings = {"depth": depth, "random_plies": plies, "solve_from": solve,
                          "seed": seed, "data": list(data)}
    if data:
        tasks = record_tasks(game, positions.weights, data, depth=depth, solve_from=solve)
    else:
        tasks = selfplay_tasks(game, positions.weights, range(positions.games, games), seed=seed,
                               depth=depth, random_plies=plies, solve_from=solve)
    progress(f"texel on {game.describe()}: {len(tasks)} games to read at depth {depth}"
             f" ({positions.games} done), positions to {path}")
    errors: list[str] = []
    try:
        _collect(positions, tasks, workers, scheduler, path, errors)
    except KeyboardInterrupt:
        positions.save(path)
        fail(f"interrupted: the positions of {positions.games} games are saved to {path}"
             " (--resume continues)", 130)
    positions.save(path)
    if errors and not positions.rows:
        fail(f"no positions: {len(errors)} games failed, first: {errors[0]}")
    x, y, _ = positions.arrays()
    progress(f"{len(y)} positions from {positions.games} games ({positions.solved} labelled by"
             f" the solver); fitting")
    result = fit_positions(positions, weights, l2=l2, held_out=held_out, seed=seed)
    new = {**positions.weights, **result.weights}
    (train0, held0), (train1, held1) = result.start_loss, result.end_loss
    held_losses = [None if math.isnan(v) else v for v in result.held_out]
    weights.save(output, new, method="texel", scale=result.scale, positions=len(y),
                 games=positions.games, loss={"train": result.train, "held_out": held_losses},
                 settings={**positions.settings, "l2": result.l2, "held_out": held_out})
    click.echo(weight_table(weights, start, new))
    held = (f"held out {held0:.5f} -> {held1:.5f} on {result.held_out_positions}"
            if result.held_out_positions else "none held out")
    click.echo(f"scale K {result.scale:.4g}, L2 {result.l2:g}; loss {train0:.5f} ->"
               f" {train1:.5f} on {result.positions} positions, {held}")
    click.echo(f"saved to {output} (use --ai default:params={output})")


def _collect(
    positions: Any, tasks: list[Any], workers: int | None, scheduler: str | None,
    path: str, errors: list[str],
) -> None:
    from ..tuning.texel import run_position_tasks

    with (
        open_executor(workers, scheduler) as executor,
        click.progressbar(length=len(tasks), label="games", show_eta=True, show_pos=True,
                          file=sys.stderr) as bar,
    ):
        for done, found in enumerate(run_position_tasks(tasks, executor), 1):
            if found.error is not None:
                errors.append(found.error)
            else:
                positions.add(found)
            bar.update(1)
            if done % 20 == 0:
                positions.save(path)


def _spsa(
    game: Game[Any], weights: Weights, start: dict[str, float], iterations: int, pairs: int,
    depth: int | None, seconds: float | None, workers: int | None, scheduler: str | None,
    seed: int, resume: bool, output: str,
) -> None:
    from ..tuning.spsa import SpsaState, spsa

    state = None
    if resume:
        saved = parse_json(read_text(output), output)
        weights.read(saved, output)
        state = SpsaState.from_dict(saved.get("spsa"), weights)
        start = weights.complete(saved.get("start") or start)
    if depth is None and seconds is None:
        depth = 2
    done = 0 if state is None else state.iteration
    total = (iterations - done) * 4 * pairs
    progress(f"spsa on {game.describe()}: {iterations - done} iterations of {2 * pairs} pairs")
    saved_state: list[Any] = [state]

    def save(now: SpsaState) -> None:
        weights.save(output, now.weights, method="spsa", start=start, spsa=now.to_dict(),
                     settings={"pairs": pairs, "depth": depth, "time": seconds, "seed": seed,
                               "iterations": iterations})
        saved_state[0] = now

    try:
        with (
            open_executor(workers, scheduler) as executor,
            click.progressbar(length=total, label="games", show_eta=True, show_pos=True,
                              file=sys.stderr) as bar,
        ):
            final = spsa(game, weights, start, iterations=iterations, pairs=pairs, depth=depth,
                         time=seconds, seed=seed, state=state, executor=executor,
                         on_result=lambda _: bar.update(1), on_iteration=save)
    except KeyboardInterrupt:
        now = saved_state[0]
        if now is None:
            fail("interrupted before the first iteration finished; nothing saved", 130)
        click.echo(weight_table(weights, start, now.weights))
        fail(f"interrupted after {now.iteration} of {iterations} iterations; saved to {output}"
             " (--resume continues)", 130)
    click.echo(weight_table(weights, start, final.weights))
    click.echo(f"saved to {output} (use --ai default:params={output})")


def _selection(
    game: Game[Any], population: int, generations: int, keep: int, games_per_pair: int,
    depth: int | None, seconds: float | None, workers: int | None, seed: int,
    output: str | None,
) -> None:
    tuner = tuner_for(game)
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
