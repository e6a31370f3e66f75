"""Commands: connect (play on a tournament server), serve (run one)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..ai import make_player
from ..errors import OptionError
from ..io import check_writable
from ..protocols.network import protocol_for
from .common import (
    SEED,
    Command,
    Host,
    Seconds,
    Whole,
    cannot_listen,
    game_from_kwargs,
    game_options,
    progress,
)

PROTOCOL_DEFAULT = "[default: set by the game's protocol]"


@click.command(cls=Command)
@click.argument("game_name", metavar="GAME")
@click.argument("host", type=Host())
@click.argument("port", type=Whole(1, 65535))
@click.option(
    "--ai", "ai_spec", default="default", show_default=True,
    help="The AI to play: a spec (alphabeta:depth=4) or a program (program:CMD ARGS).",
)
@click.option(
    "--time-limit",
    type=Seconds(),
    default=None,
    help="The server's per-move limit in seconds (the AI stays safely inside it) "
    + PROTOCOL_DEFAULT,
)
@click.option(
    "--idle-timeout",
    type=Seconds(),
    default=None,
    help="Give up when the server is silent this long once the game began "
    "[default: wait as long as it takes].",
)
@click.option("--seed", type=SEED, default=None, help="Seed for the AI's random choices.")
@click.option("-q", "--quiet", is_flag=True, help="Only print the result.")
@game_options
def connect(
    game_name: str,
    host: str,
    port: int,
    ai_spec: str,
    time_limit: float | None,
    idle_timeout: float | None,
    seed: int | None,
    quiet: bool,
    **kwargs: Any,
) -> None:
    """Play one game of GAME as a client of the tournament server at HOST PORT.

    Exits 0 after a finished game (won, lost or timed out); 2 with one
    `error: ...` line when the connection fails, the server breaks the
    protocol or the connection ends before the game does.
    """
    game = game_from_kwargs(game_name, kwargs)
    protocol = protocol_for(game.name)
    player = make_player(game, ai_spec, seed=seed)
    try:  # a program's process ends with the game, however it ends
        client = protocol.client(
            game,
            player,
            time_limit=protocol.time_limit if time_limit is None else time_limit,
            idle_timeout=idle_timeout,
            log=_log(quiet),
        )
        result = client.play(host, port)
    finally:
        player.close()
    colour = "none" if result.colour < 0 else game.player_names[result.colour]
    slowest = max(result.think_times, default=0.0)
    click.echo(f"colour: {colour}")
    click.echo(f"result: {result.outcome.lower()}")
    click.echo(f"moves: {' '.join(result.moves)}")
    click.echo(f"slowest move: {slowest:.3f} s")


@click.command(cls=Command)
@click.argument("game_name", metavar="GAME")
@click.option(
    "--host", type=Host(), default=None, help=f"Interface to listen on {PROTOCOL_DEFAULT}."
)
@click.option(
    "--port",
    type=Whole(0, 65535),
    default=None,
    help=f"Port to listen on, 0 for a free one {PROTOCOL_DEFAULT}.",
)
@click.option(
    "--time-limit",
    type=Seconds(),
    default=None,
    help=f"Per-move limit in seconds; a later move loses {PROTOCOL_DEFAULT}.",
)
@click.option("--games", type=Whole(), default=1, show_default=True)
@click.option("--save", "save_dir", default=None, help="Directory for the JSON game records.")
@click.option("-q", "--quiet", is_flag=True, help="Only print the results.")
@game_options
def serve(
    game_name: str,
    host: str | None,
    port: int | None,
    time_limit: float | None,
    games: int,
    save_dir: str | None,
    quiet: bool,
    **kwargs: Any,
) -> None:
    """Run a GAME tournament server: each game is played by the next two clients to connect."""
    game = game_from_kwargs(game_name, kwargs)
    protocol = protocol_for(game.name)
    saves = None if save_dir is None else _save_dir(save_dir, game.name)
    host = protocol.host if host is None else host
    port = protocol.port if port is None else port
    try:
        listening = protocol.server(
            game,
            host=host,
            port=port,
            time_limit=protocol.time_limit if time_limit is None else time_limit,
            log=_log(quiet),
        )
    except OSError as exc:
        raise cannot_listen(host, port, exc) from None
    with listening as server:
        progress(f"serving {game.describe()} on {server.address[0]}:{server.port}")
        for index, served in enumerate(server.serve(games), start=1):
            record = served.record
            click.echo(f"game {index}: {record.summary()}")
            if saves is not None:
                record.save(saves / f"{game.name}-server-{index:03d}.json")


def _save_dir(path: str, game_name: str) -> Path:
    """The --save directory, made now: a bad one is an error before any client
    connects, not after the first game."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise OptionError(f"--save {path} is a file, not a directory")
    folder.mkdir(parents=True, exist_ok=True)
    check_writable(folder / f"{game_name}-server-001.json", "--save")
    return folder


def _log(quiet: bool) -> Callable[[str], None]:
    return (lambda _: None) if quiet else progress


COMMANDS = [connect, serve]
