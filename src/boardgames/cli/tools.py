"""Commands: list, analyse, bestmove, perft, bench, solve."""

from __future__ import annotations

import time as _time
from typing import Any

import click

from ..ai import ai_names, make_player
from ..errors import OptionError
from ..game import Game, State, perft
from ..options import MAX_THREADS, MAX_WORKERS, parameter_defaults
from ..players import no_legal_move
from ..plugins import env_plugins, try_plugins
from ..registry import game_names, get_game
from .common import (
    SEED,
    Command,
    Seconds,
    Whole,
    game_from_kwargs,
    game_options,
    given_options,
    load_plugins,
    load_position,
    note_cores,
    plugin_paths,
    progress,
    threads_for,
    threads_option,
)


def game_option_defaults(game: Game[Any]) -> dict[str, Any]:
    """A game's options with the values this instance uses (defaults filled in)."""
    options = {**parameter_defaults(type(game).__init__), **game.params}
    return {k: v for k, v in options.items() if v is not None}


@click.command("list", cls=Command)
@click.option("--plugin", multiple=True, metavar="MODULE|FILE.py", help="Import extra games.")
def list_games(plugin: tuple[str, ...]) -> None:
    """The games, their options, AIs and evaluators."""
    for failure in try_plugins([*env_plugins(), *plugin]):
        click.echo(f"plugin not available ({failure})")
    for name in game_names():
        try:
            click.echo(describe_game(get_game(name)))
        except Exception as exc:  # one broken game must not hide the others
            click.echo(f"{name}: not available ({type(exc).__name__}: {exc})")


def describe_game(game: Game[Any]) -> str:
    """A few lines about a game for `list`: title, options, evaluators, AIs."""
    lines = [f"{game.name}: {game.title} ({game.player_names[0]} vs {game.player_names[1]})"]
    options = game_option_defaults(game)
    if options:
        shown = " ".join(f"{k}={'-' if v is None else v}" for k, v in options.items())
        lines.append(f"  options:    {shown}")
    lines.append(f"  evaluators: {', '.join(sorted(game.evaluators()))}")
    lines.append("  ai:")
    lines.extend(f"    {ai:<12} {text}" for ai, text in ai_names(game).items())
    return "\n".join(lines)


@click.command(cls=Command)
@click.argument("game_name", metavar="GAME")
@click.argument("path", metavar="FILE")
@click.option("--part-a", is_flag=True, help="The course's Part A answer (games that define one).")
@game_options
def analyse(game_name: str, path: str, part_a: bool, **kwargs: Any) -> None:
    """Print the game's report on the position in FILE (or its Part A answer)."""
    given = given_options(kwargs)
    game = game_from_kwargs(game_name, kwargs)
    state = load_position(game, path, given)
    click.echo(state.game.part_a(state) if part_a else state.game.analyse(state))


@click.command(cls=Command)
@click.argument("game_name", metavar="GAME")
@click.argument("path", metavar="FILE")
@click.option("--ai", "ai_spec", default="default", show_default=True, help="The AI to ask.")
@click.option("--time", "seconds", type=Seconds(), default=None, help="Seconds to think.")
@click.option("--depth", type=Whole(), default=None, help="Search depth.")
@threads_option
@click.option("--seed", type=SEED, default=None)
@game_options
def bestmove(
    game_name: str,
    path: str,
    ai_spec: str,
    seconds: float | None,
    depth: int | None,
    threads: int | None,
    seed: int | None,
    **kwargs: Any,
) -> None:
    """The AI's move in FILE: score, PV, depth, speed."""
    given = given_options(kwargs)
    game = game_from_kwargs(game_name, kwargs)
    state = load_position(game, path, given)
    game = state.game
    if state.is_over():
        raise no_legal_move(state)  # "the game is over (white won)", whatever the AI
    (count,) = threads_for(game, (ai_spec,), threads)
    player = make_player(game, ai_spec, depth=depth, time=seconds, seed=seed, threads=count)
    started = _time.perf_counter()
    try:
        move = player.choose(state)
    finally:
        player.close()  # a program ends here
    result = player.last_result
    if result is not None and hasattr(result, "summary"):
        click.echo(result.summary(game))
    else:
        click.echo(f"move:     {game.format_move(move)}")
        click.echo(f"time:     {_time.perf_counter() - started:.3f} s")


# ignore_unknown_options: "-1" reaches DEPTH (and its check) instead of
# failing as an unknown option.
@click.command("perft", cls=Command, context_settings={"ignore_unknown_options": True})
@click.argument("game_name", metavar="GAME")
@click.argument("depth", type=Whole(0))
@click.option("--moves", default="", help="Moves (notation) from the start, space separated.")
@click.option("--divide", is_flag=True, help="Also print the count below each first move.")
@click.option(
    "--leaves",
    is_flag=True,
    help="Count a game that ends before DEPTH too: the leaves of the tree cut at DEPTH.",
)
@game_options
def perft_command(
    game_name: str, depth: int, moves: str, divide: bool, leaves: bool, **kwargs: Any
) -> None:
    """Count move sequences of length DEPTH (tests move generation)."""
    game = game_from_kwargs(game_name, kwargs)
    state = game.replay(moves.split())
    started = _time.perf_counter()
    if depth == 0 or (leaves and state.is_over()):
        total = 1
    else:
        total, shown = 0, started
        first_moves = sorted(state.legal_moves())
        for done, move in enumerate(first_moves, start=1):
            state.make(move)
            count = perft(state, depth - 1, leaves=leaves)
            state.undo()
            total += count
            if divide:
                click.echo(f"{game.format_move(move)}: {count}")
            if _time.perf_counter() - shown > 2.0:  # long counts show progress
                shown = _time.perf_counter()
                progress(f"perft: {done}/{len(first_moves)} first moves, {total} so far")
    elapsed = _time.perf_counter() - started
    click.echo(f"perft({depth}) = {total}")
    rate = total / elapsed if elapsed > 0 else 0.0
    click.echo(f"time: {elapsed:.3f} s ({rate:,.0f} leaves/s)")


def perft_speed(state: State[Any], budget: float) -> tuple[int, int, float]:
    """(depth, leaves, seconds) of the deepest perft that fits in about `budget` s."""
    done = (0, 1, 0.0)
    depth, previous = 1, 1
    spent = 0.0
    while True:
        started = _time.perf_counter()
        count = perft(state, depth)
        elapsed = _time.perf_counter() - started
        spent += elapsed
        done = (depth, count, elapsed)
        branching = max(1.0, count / previous)
        if count == previous or spent + elapsed * branching > budget or depth >= 12:
            return done
        depth, previous = depth + 1, count


@click.command(cls=Command)
@click.argument("games", nargs=-1, metavar="[GAME ...]")
@click.option("--time", "seconds", type=Seconds(), default=1.0, show_default=True, help="Per test.")
@click.option("--ai", "ai_spec", default="default", show_default=True, help="The AI to time.")
@game_options
def bench(games: tuple[str, ...], seconds: float, ai_spec: str, **kwargs: Any) -> None:
    """Search and perft speed on benchmark positions.

    Game options (--size, --rows, --cols, -o) apply to the games named; with
    no game named, every game is timed at its default size.
    """
    load_plugins(kwargs["plugin"])
    names = games or tuple(game_names())
    header = f"{'game':<12} {'position':<14} {'depth':>5} {'nodes':>9} {'nodes/s':>9}"
    rows = [header + f" {'perft':>5} {'leaves/s':>10}  how"]
    for name in names:
        try:
            game = game_from_kwargs(name, dict(kwargs)) if games else get_game(name)
        except Exception as exc:
            if games:  # a game the user asked for must work
                raise
            progress(f"bench: skipping {name} ({type(exc).__name__}: {exc})")
            continue
        for label, position in game.benchmark_positions().items():
            progress(f"bench: {name} {label} ...")
            if position.is_over():
                continue
            player = make_player(game, ai_spec, time=seconds, seed=0)
            try:
                player.choose(position)
            finally:
                player.close()
            depth, nodes, nps, how = search_figures(player.last_result)
            if nodes == "-":
                progress(f"bench: {name} {label}: the AI chose without searching ({how})")
            pdepth, leaves, ptime = perft_speed(position.copy(), seconds)
            rate = leaves / ptime if ptime > 0 else 0.0
            row = f"{name:<12} {label:<14} {depth:>5} {nodes:>9} {nps:>9}"
            rows.append(f"{row} {pdepth:>5} {rate:>10.0f}  {how}")
    click.echo("\n".join(rows))


def search_figures(result: Any) -> tuple[str, str, str, str]:
    """(depth, nodes, nodes/s, how) of a player's `last_result` as bench shows
    them: '-' for the three figures when the player reported no search (no
    result, or no node), '-' for the depth when its search reached none (a
    solver cut short, whose move came from elsewhere); `how` is the
    result's `algorithm`, the search or the AI's own step that chose."""
    how = getattr(result, "algorithm", "") or "-"
    nodes = getattr(result, "nodes", 0) or 0
    if not nodes:
        return "-", "-", "-", how
    depth = str(result.depth) if result.depth > 0 else "-"
    return depth, str(nodes), f"{result.nps:.0f}", how


def first_player_value(value: int, to_move: int) -> int:
    """Solvers answer from the side to move; the CLI reports the first player's view."""
    return value if to_move == 0 else -value


@click.command(cls=Command)
@click.argument("game_name", metavar="GAME")
@click.option("--all", "all_moves", is_flag=True, help="List every optimal first move.")
@click.option("--time", "seconds", type=Seconds(), default=None, help="Give up after S seconds.")
@click.option("--moves", default="", help="Solve the position after these moves.")
@click.option(
    "--outcome",
    is_flag=True,
    help="Only win, draw or loss (1/0/-1) in scored games: a narrower search than the margin.",
)
@click.option("--no-line", is_flag=True, help="Skip the principal line (it may cost solves).")
@click.option(
    "--workers",
    "-w",
    type=Whole(1, MAX_WORKERS),
    default=None,
    help="Split the solve over N worker processes [default: solve in this process].",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Split the solve over a Dask cluster (e.g. tcp://host:8786); needs the dask extra.",
)
@click.option(
    "--threads",
    type=Whole(1, MAX_THREADS),
    default=1,
    show_default=True,
    help="Processes solving together, sharing one table in memory.",
)
@click.option(
    "--table",
    type=Whole(2, 1 << 28),
    default=None,
    help="Entries of the shared table with --threads [default: 4194304, 128 MB].",
)
@game_options
def solve(
    game_name: str,
    all_moves: bool,
    seconds: float | None,
    moves: str,
    outcome: bool,
    no_line: bool,
    workers: int | None,
    scheduler: str | None,
    threads: int,
    table: int | None,
    **kwargs: Any,
) -> None:
    """Solve GAME exactly (small boards): winner, value, best moves.

    Also a principal line (optimal play to the end) when the solver can give
    one; --workers/--scheduler split the work, --threads shares one table
    among processes solving together (the same answer).
    """
    plugins = tuple(kwargs.get("plugin", ()))
    if workers is not None and scheduler is not None:
        raise OptionError("give either a number of workers or a Dask scheduler, not both")
    if threads > 1 and (workers is not None or scheduler is not None):
        raise OptionError("give either --threads or a split (--workers, --scheduler), not both")
    if table is not None and threads == 1:
        raise OptionError("--table is the shared table of --threads")
    game = game_from_kwargs(game_name, kwargs)
    state = game.replay(moves.split())
    options: dict[str, Any] = {
        "all_moves": all_moves,
        "time": seconds,
        "outcome": outcome,
        "line": not no_line,
    }
    if workers is None and scheduler is None:
        from ..solving.position import solve_position

        if threads > 1:
            note_cores(threads)
            options["threads"] = threads
            if table is not None:
                options["table"] = table
        shared = f" on {threads} processes sharing a table" if threads > 1 else ""
        progress(f"solving {game.describe()}{shared} ...")
        result = solve_position(state, **options)
    else:
        from ..solving.split import solve_with_workers

        where = f"Dask scheduler {scheduler}" if scheduler else "worker processes"
        progress(f"solving {game.describe()} on {where} ...")
        report = solve_with_workers(
            state, workers=workers, scheduler=scheduler, plugins=tuple(plugin_paths(plugins)),
            **options,
        )  # fmt: skip
        result = report.result
        progress(
            f"split: {report.tasks} tasks over {report.leaves} subtrees {report.depth} moves"
            f" deep, run by {report.workers} worker process{'es' if report.workers != 1 else ''};"
            f" the workers' CPU time {report.cpu:.3f} s"
        )
    value = first_player_value(int(result.value), state.to_move)
    winner = {None: "draw", 0: "first", 1: "second"}[result.winner]
    click.echo(f"winner: {winner}")
    click.echo(f"value: {value}")
    click.echo(f"best: {' '.join(game.format_move(m) for m in result.best) or '-'}")
    if result.line is not None:  # said only when the solver could give one
        click.echo(f"line: {' '.join(game.format_move(m) for m in result.line) or '-'}")
    click.echo(f"nodes: {result.nodes}")
    click.echo(f"time: {result.time:.3f}")


COMMANDS = [list_games, analyse, bestmove, perft_command, bench, solve]
