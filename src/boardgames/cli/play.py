"""Commands: play (human vs AI, or AI vs AI) and match (N games between two AIs)."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..ai import make_player
from ..clock import TimeControl
from ..errors import GameInterrupted, MatchInterrupted
from ..game import End, Game, State
from ..io import atomic_write_text, check_writable
from ..match.play import play_game, play_match
from ..match.records import GameRecord
from ..players import HumanPlayer, Player
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
    progress,
    read_opening_file,
)

#: A game clock on the command line: "SECONDS[+INCREMENT]".
CLOCK = Number(lambda name, value: TimeControl.parse(value, name), "SECONDS[+INC]")


def describe_move(state: State, move: int, player: Player, side: int) -> str:
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


def describe_end(record: GameRecord, game: Game) -> str:
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
@click.option("--ai", "ai_spec", default="default", show_default=True, help="The computer's AI.")
@click.option("--ai2", "ai2_spec", default=None, help="A second AI: watch AI vs AI.")
@click.option(
    "--params", "params", default=None, metavar="FILE",
    help="Parameters for --ai from a file (e.g. tuned weights from `boardgames tune`).",
)
@click.option("--params2", "params2", default=None, metavar="FILE", help="The same for --ai2.")
@click.option("--depth", type=Whole(), default=None, help="AI search depth.")
@click.option("--time", "seconds", type=Seconds(), default=None, help="AI seconds per move.")
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
    start: State | GameRecord | None = None
    if load_path is not None:
        game, start = load_file(game, load_path, given)
    if color is None:
        color = sys.stdout.isatty()
    limits = {"depth": depth, "time": seconds}
    ai = make_player(game, ai_spec, seed=seed, params=params, **limits)
    if ai2_spec is not None:
        seed2 = None if seed is None else seed + 1
        other = make_player(game, ai2_spec, seed=seed2, params=params2, **limits)
        players = (ai, other)
    else:
        hint = make_player(game, ai_spec, seed=seed, params=params, **limits)
        human = HumanPlayer(input=input, output=click.echo, hint_player=hint)
        players = (human, ai) if first == "human" else (ai, human)

    names = game.player_names
    click.echo(f"{game.title}: {names[0]} = {players[0].name}, {names[1]} = {players[1].name}")
    if isinstance(players[0], HumanPlayer) or isinstance(players[1], HumanPlayer):
        click.echo("type a move, or 'help' for commands")

    def show(state: State, move: int | None, player: Player | None) -> None:
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
@click.argument("game_name", metavar="GAME")
@click.option("--ai", "ai_spec", default="default", show_default=True, help="AI A.")
@click.option("--ai2", "ai2_spec", default="random", show_default=True, help="AI B.")
@click.option(
    "--params", "params", default=None, metavar="FILE",
    help="Parameters for AI A from a file (e.g. tuned weights from `boardgames tune`).",
)
@click.option("--params2", "params2", default=None, metavar="FILE", help="The same for AI B.")
@click.option("--games", type=Whole(), default=10, show_default=True)
@click.option("--time", "seconds", type=Seconds(), default=None, help="Per-move limit (s).")
@click.option(
    "--clock",
    type=CLOCK,
    default=None,
    help="A game clock: SECONDS for each side's whole game, +INCREMENT after each move"
    " (e.g. 60 or 5+0.1); out of time loses. With --time too, --time caps each move.",
)
@click.option("--depth", type=Whole(), default=None, help="Depth for both AIs.")
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
@game_options
def match(
    game_name: str,
    ai_spec: str,
    ai2_spec: str,
    params: str | None,
    params2: str | None,
    games: int,
    seconds: float | None,
    clock: TimeControl | None,
    depth: int | None,
    seed: int | None,
    opening: int,
    opening_file: str | None,
    max_moves: int | None,
    records_path: str | None,
    **kwargs: Any,
) -> None:
    """N games between two AIs, colours alternating."""
    game = game_from_kwargs(game_name, kwargs)
    if opening and opening_file is not None:
        fail("give --opening or --opening-file, not both")
    openings = read_opening_file(game, opening_file)
    if records_path is not None:
        check_writable(records_path, "--records")
    a = make_player(game, ai_spec, seed=seed, depth=depth, params=params)
    seed2 = None if seed is None else seed + 1
    b = make_player(game, ai2_spec, seed=seed2, depth=depth, params=params2)

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


COMMANDS = [play, match]
