"""Commands: play (human vs AI, or AI vs AI) and match (N games between two AIs)."""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack
from typing import Any

import click

from ..ai import make_player
from ..clock import TimeControl
from ..errors import GameInterrupted, MatchInterrupted
from ..game import End, Game, State
from ..io import atomic_write_text, check_writable
from ..match.play import MatchSummary, play_game, play_match
from ..match.records import GameRecord
from ..options import MAX_GAMES_PER_PAIR
from ..players import HumanPlayer, Player
from ..programs import is_program_spec
from ..tournament.sprt import MAX_GAMES as SPRT_MAX_GAMES
from ..tournament.sprt import Sprt
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
    load_file,
    opening_file,
    plugin_paths,
    progress,
    read_opening_file,
    threads_for,
    threads_option,
    workers_option,
)

#: A game clock on the command line: "SECONDS[+INCREMENT]".
CLOCK = Number(lambda name, value: TimeControl.parse(value, name), "SECONDS[+INC]")


def describe_move(state: State[Any], move: int, player: Player[Any], side: int) -> str:
    """'red (default) plays d   score +3, depth 7, 12345 nodes, 0.84 s'."""
    game = state.game
    line = f"{game.player_names[side]} ({player.name}) plays {game.format_move(move)}"
    result = player.last_result
    if result is not None and getattr(result, "move", None) == move:
        from ..search.result import describe_score

        line += (
            f"   score {describe_score(result.score, game.scored)}, depth {result.depth},"
            f" {result.nodes} nodes, {result.time:.2f} s"
        )
    return line


def describe_end(record: GameRecord, game: Game[Any]) -> str:
    """'result: white wins (6-0)' (the board above shows how the rules ended
    it), '... (black loses by timeout: ...)', 'result: unfinished (Ctrl-C)',
    'result: unfinished (human quit)'."""
    if record.result == "none":
        return "result: unfinished" + (f" ({record.reason})" if record.reason else "")
    notes = [] if record.scores is None else [f"{record.scores[0]}-{record.scores[1]}"]
    if record.end is not End.RULES and record.winner is not None:
        loser = game.player_names[1 - record.winner]
        notes.append(f"{loser} loses by {record.end.value}: {record.reason}")
    elif record.end is not End.RULES and record.reason:
        notes.append(record.reason)
    text = "draw" if record.result == "draw" else f"{record.result} wins"
    return f"result: {text}" + (f" ({', '.join(notes)})" if notes else "")


@click.command(cls=Command)
@click.argument("game_name", metavar="GAME")
@click.option(
    "--ai", "ai_spec", default="default", show_default=True,
    help="The computer's AI: a spec (alphabeta:depth=4) or a program (program:CMD ARGS).",
)
@click.option("--ai2", "ai2_spec", default=None, help="A second AI: watch AI vs AI.")
@click.option(
    "--params", "params", default=None, metavar="FILE",
    help="Parameters for --ai from a file (e.g. tuned weights from `boardgames tune`).",
)
@click.option("--params2", "params2", default=None, metavar="FILE", help="The same for --ai2.")
@click.option("--depth", type=Whole(), default=None, help="AI search depth.")
@click.option("--time", "seconds", type=Seconds(), default=None, help="AI seconds per move.")
@threads_option
@click.option(
    "--first",
    type=click.Choice(["human", "ai"]),
    default="human",
    show_default=True,
    help="Who plays the first colour.",
)
@click.option("--seed", type=SEED, default=None, help="Seed for reproducible AIs.")
@click.option("--record", "record_path", default=None, help="Save the game (JSON) to this file.")
@click.option("--load", "load_path", default=None, help="Continue a record or start a position.")
@click.option("--color/--no-color", default=None, help="ANSI colours (default: on a terminal).")
@game_options
def play(
    game_name: str,
    ai_spec: str,
    ai2_spec: str | None,
    params: str | None,
    params2: str | None,
    depth: int | None,
    seconds: float | None,
    threads: int | None,
    first: str,
    seed: int | None,
    record_path: str | None,
    load_path: str | None,
    color: bool | None,
    **kwargs: Any,
) -> None:
    """Play GAME against the computer (or watch two AIs with --ai2).

    Type moves in the game's notation; `help` lists undo, save, hint, quit.
    """
    given = given_options(kwargs)
    game = game_from_kwargs(game_name, kwargs)
    if record_path is not None:
        check_writable(record_path, "--record")
    start: State[Any] | GameRecord | None = None
    if load_path is not None:
        game, start = load_file(game, load_path, given)
    if color is None:
        color = sys.stdout.isatty()
    if isinstance(start, State) and any(is_program_spec(s) for s in (ai_spec, ai2_spec)):
        from ..programs.wire import position_moves

        position_moves(start)  # a program is given moves: a bare board is an error here
    limits = {"depth": depth, "time": seconds}
    specs = (ai_spec,) if ai2_spec is None else (ai_spec, ai2_spec)
    counts = threads_for(game, specs, threads)
    with ExitStack() as built:  # every player made here is closed here (a program ends)
        ai = _player(built, game, ai_spec, seed=seed, params=params, threads=counts[0], **limits)
        if ai2_spec is not None:
            seed2 = None if seed is None else seed + 1
            other = _player(
                built, game, ai2_spec, seed=seed2, params=params2, threads=counts[1], **limits
            )
            players: tuple[Player[Any], Player[Any]] = (ai, other)
        else:
            # A program gives its own hints; a library AI a fresh copy of itself.
            hint = ai if is_program_spec(ai_spec) else make_player(
                game, ai_spec, seed=seed, params=params, **limits
            )
            human = HumanPlayer(input=input, output=click.echo, hint_player=hint)
            players = (human, ai) if first == "human" else (ai, human)
        _play_one(game, players, start, record_path, color)


def _player(built: ExitStack, game: Game[Any], spec: str, **defaults: Any) -> Player[Any]:
    """`make_player`, closed when `built` closes."""
    player = make_player(game, spec, **defaults)
    built.callback(player.close)
    return player


def _play_one(
    game: Game[Any],
    players: tuple[Player[Any], Player[Any]],
    start: State[Any] | GameRecord | None,
    record_path: str | None,
    color: bool,
) -> None:
    """The game of `play`, shown move by move; the record saved if asked."""
    names = game.player_names
    click.echo(f"{game.title}: {names[0]} = {players[0].name}, {names[1]} = {players[1].name}")
    if isinstance(players[0], HumanPlayer) or isinstance(players[1], HumanPlayer):
        click.echo("type a move, or 'help' for commands")

    def show(state: State[Any], move: int | None, player: Player[Any] | None) -> None:
        if move is None or player is None:
            click.echo("position after undo:")
        else:
            side = 0 if player is players[0] else 1
            click.echo(describe_move(state, move, player, side))
        click.echo(state.game.render_text(state, color=color))

    initial = start.replay(game) if isinstance(start, GameRecord) else (start or game.new_state())
    click.echo(initial.game.render_text(initial, color=color))
    interrupted = False
    try:
        record = play_game(game, players, start=start, on_move=show)
    except GameInterrupted as stop:  # Ctrl-C: the moves so far, marked unfinished
        record, interrupted = stop.record, True
        click.echo("")
    click.echo(describe_end(record, game))
    if record_path is not None:
        record.save(record_path)
        click.echo(f"saved to {record_path}")
    if interrupted:  # the result line said it: no error line, the exit code of Ctrl-C
        sys.exit(130)


@click.command(cls=Command)
@click.argument("game_name", metavar="GAME", required=False)
@click.option(
    "--ai", "ai_spec", default="default", show_default=True,
    help="AI A: a spec (alphabeta:depth=4) or a program (program:CMD ARGS).",
)
@click.option("--ai2", "ai2_spec", default="random", show_default=True, help="AI B.")
@click.option(
    "--params", "params", default=None, metavar="FILE",
    help="Parameters for AI A from a file (e.g. tuned weights from `boardgames tune`).",
)
@click.option("--params2", "params2", default=None, metavar="FILE", help="The same for AI B.")
@click.option("--games", type=Whole(), default=None, help="Games to play [default: 10].")
@click.option("--time", "seconds", type=Seconds(), default=None, help="Per-move limit (s).")
@click.option(
    "--clock",
    type=CLOCK,
    default=None,
    help="A game clock: SECONDS for each side's whole game, +INCREMENT after each move"
    " (e.g. 60 or 5+0.1); out of time loses. With --time too, --time caps each move.",
)
@click.option("--depth", type=Whole(), default=None, help="Depth for both AIs.")
@threads_option
@click.option("--seed", type=SEED, default=None, help="Seed for AIs and openings.")
@click.option(
    "--opening",
    type=Whole(0),
    default=0,
    show_default=True,
    help="Random plies before each pair of games (same opening, colours swapped).",
)
@opening_file
@click.option("--max-moves", type=Whole(), default=None, help="Stop long games.")
@click.option("--records", "records_path", default=None, help="Save all records (JSON lines).")
@click.option(
    "--sprt", "sprt_text", metavar="elo0=E0,elo1=E1[,alpha=A,beta=B]", default=None,
    help="A sequential test of A against B: game pairs until the LLR decides (accepted: A is"
    " elo1 stronger; rejected: elo0 fits better), at most --max-games.",
)
@click.option(
    "--max-games", type=Whole(2, MAX_GAMES_PER_PAIR), default=None,
    help=f"With --sprt: the most games [default: {SPRT_MAX_GAMES}]; with --resume, a new"
    " most, to play on past the old one.",
)
@click.option(
    "--out", "out_dir", metavar="DIR", default=None,
    help="With --sprt: the folder for the records and summary [default: sprt-GAME-TIME].",
)
@click.option(
    "--resume", "resume_dir", metavar="DIR", default=None,
    help="Continue the SPRT match in this folder.",
)
@workers_option
@game_options
def match(
    game_name: str | None,
    ai_spec: str,
    ai2_spec: str,
    params: str | None,
    params2: str | None,
    games: int | None,
    seconds: float | None,
    clock: TimeControl | None,
    depth: int | None,
    threads: int | None,
    seed: int | None,
    opening: int,
    opening_file: str | None,
    max_moves: int | None,
    records_path: str | None,
    sprt_text: str | None,
    max_games: int | None,
    out_dir: str | None,
    resume_dir: str | None,
    workers: int | None,
    **kwargs: Any,
) -> None:
    """N games between two AIs, colours alternating.

    With --sprt, a sequential probability ratio test instead: pairs of games
    (one opening, colours swapped) until the log-likelihood ratio leaves its
    bounds, printed after each pair; on worker processes (-w), in a results
    folder that --resume continues.
    """
    given = {
        "GAME": game_name, "--games": games, "--time": seconds, "--clock": clock,
        "--depth": depth, "--threads": threads, "--seed": seed, "--opening": opening,
        "--opening-file": opening_file, "--max-moves": max_moves, "--records": records_path,
        "--sprt": sprt_text, "--max-games": max_games, "--out": out_dir, "--params": params,
        "--params2": params2,
        "--ai": ai_spec != "default", "--ai2": ai2_spec != "random",
        "game options": given_options(kwargs),
    }  # fmt: skip
    if resume_dir is not None:
        from .sprt import resume_sprt

        resume_sprt(
            resume_dir, workers, [flag for flag, value in given.items()
                                  if value and flag != "--max-games"], max_games,
        )
        return
    if game_name is None:
        fail("give a GAME (or --resume DIR)")
    plugins = plugin_paths(kwargs["plugin"])
    game = game_from_kwargs(game_name, kwargs)
    if opening and opening_file is not None:
        fail("give --opening or --opening-file, not both")
    openings = read_opening_file(game, opening_file)
    if sprt_text is not None:
        from .sprt import new_sprt

        options = dict(time_limit=seconds, clock=None if clock is None else str(clock),
                       seed=seed or 0, opening_plies=opening, openings=openings,
                       max_moves=max_moves, plugins=plugins)
        new_sprt(game, (ai_spec, ai2_spec), Sprt.parse(sprt_text), max_games or SPRT_MAX_GAMES,
                 options, out_dir, workers, [flag for flag, value in given.items() if value])
        return
    named = [flag for flag in ("--max-games", "--out") if given[flag]]
    if named or workers is not None:
        named += ["--workers"] if workers is not None else []
        fail(f"{', '.join(named)} only go with --sprt")
    games = 10 if games is None else games
    if records_path is not None:
        check_writable(records_path, "--records")
    summary, interrupted = _match_games(
        game, (ai_spec, ai2_spec), (params, params2), depth, threads, games, seconds, seed,
        opening, openings, max_moves, clock,
    )
    _report_match(summary, interrupted, games, records_path)


def _report_match(
    summary: MatchSummary, interrupted: bool, games: int, records_path: str | None
) -> None:
    """The end of `match`: the records saved if asked, the summary printed,
    and an error when Ctrl-C stopped the match or every game was forfeited."""
    if records_path is not None:
        lines = "".join(json.dumps(r.to_dict()) + "\n" for r in summary.records)
        atomic_write_text(records_path, lines)
    click.echo(summary.format())
    if interrupted:
        fail(f"interrupted: {summary.games - 1} of {games} games finished", 130)
    forfeited = sum(summary.forfeits.values())
    if summary.games and forfeited == summary.games:
        first = summary.records[0]
        fail(f"every game was forfeited ({forfeited} of {summary.games}): check the players;"
             f" first: {first.summary()}")


def _match_games(
    game: Game[Any],
    specs: tuple[str, str],
    params: tuple[str | None, str | None],
    depth: int | None,
    threads: int | None,
    games: int,
    seconds: float | None,
    seed: int | None,
    opening: int,
    openings: list[str],
    max_moves: int | None,
    clock: TimeControl | None,
) -> tuple[MatchSummary, bool]:
    """The games of `match`, a line on stderr for each; (the summary, whether
    Ctrl-C stopped it).  The players are made here and closed at the end (a
    program ends with the match, however it ends)."""
    seed2 = None if seed is None else seed + 1
    counts = threads_for(game, specs, threads)
    with ExitStack() as built:
        a = _player(
            built, game, specs[0], seed=seed, depth=depth, params=params[0], threads=counts[0]
        )
        b = _player(
            built, game, specs[1], seed=seed2, depth=depth, params=params[1], threads=counts[1]
        )
        return _play_match_games(
            game, a, b, games, seconds, seed, opening, openings, max_moves, clock
        )


def _play_match_games(
    game: Game[Any],
    a: Player[Any],
    b: Player[Any],
    games: int,
    seconds: float | None,
    seed: int | None,
    opening: int,
    openings: list[str],
    max_moves: int | None,
    clock: TimeControl | None,
) -> tuple[MatchSummary, bool]:

    def report(index: int, record: GameRecord, summary: Any) -> None:
        progress(f"game {index + 1}/{games}: {record.summary()}")

    interrupted = False
    try:
        summary = play_match(
            game,
            a,
            b,
            games=games,
            time_limit=seconds,
            seed=seed,
            opening_plies=opening,
            openings=openings,
            on_game=report,
            max_moves=max_moves,
            clock=clock,
        )
    except MatchInterrupted as stop:  # Ctrl-C: keep the games so far
        summary, interrupted = stop.summary, True
    return summary, interrupted


COMMANDS = [play, match]
