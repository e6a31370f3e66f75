"""Command: web (play, watch and analyse every game in the browser)."""

from __future__ import annotations

import ipaddress
import socket
import threading
import webbrowser
from pathlib import Path

import click

from ..errors import MissingExtraError
from ..options import MAX_SECONDS
from ..web.settings import (
    GAMES_PER_CLIENT,
    MAX_BOARD,
    MAX_GAMES,
    MAX_TIME,
    PAUSE_AFTER,
    WebSettings,
    default_searches,
)
from .common import Command, Host, Seconds, Whole, cannot_listen, fail, progress

LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost: addresses only this machine reaches."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str) -> list[str] | None:
    """The names a request's Host header may give: the loopback names, or (for a
    server bound elsewhere, on purpose) any."""
    if not is_loopback(host):
        return None
    return ["127.0.0.1", "localhost", "::1", host.strip("[]")]


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: any free port), so the URL is known before serving."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise cannot_listen(host, port, exc) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


@click.command("web", cls=Command)
@click.option(
    "--host", type=Host(), default="127.0.0.1", show_default=True, help="Address to listen on."
)
@click.option(
    "--port", type=Whole(0, 65535), default=8000, show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--allow-remote", is_flag=True,
    help="Allow an address other machines can reach (anyone there can use the server).",
)
@click.option(
    "--allow-programs", is_flag=True,
    help="Let a side be an external program (program:CMD ARGS): any page you open could then"
    " run commands on this machine. Loopback addresses only.",
)
@click.option("--open/--no-open", "open_browser", default=False, help="Open the page in a browser.")
@click.option("--plugin", multiple=True, metavar="MODULE|FILE.py", help="Import extra games.")
@click.option(
    "--game", "games", multiple=True, metavar="NAME",
    help="Offer this game too: a member of a family, e.g. openspiel:tic_tac_toe.",
)
@click.option(
    "--data-dir", type=click.Path(exists=True, file_okay=False), default=None,
    help="Folder whose files AI options may name (params=FILE) [default: none: no file].",
)
@click.option(
    "--max-time", type=Seconds(MAX_SECONDS), default=MAX_TIME, show_default=True,
    help="Most seconds an AI or a hint may think per move.",
)
@click.option(
    "--max-board", type=Whole(1), default=MAX_BOARD, show_default=True,
    help="Largest board a game may have, in moves (cells or edges).",
)
@click.option(
    "--searches", type=Whole(1, 256), default=None,
    help="Searches at once, the others wait their turn [default: one per core].",
)
@click.option(
    "--max-games", type=Whole(1, 100_000), default=MAX_GAMES, show_default=True,
    help="Games kept at once.",
)
@click.option(
    "--games-per-client", type=Whole(1, 100_000), default=GAMES_PER_CLIENT, show_default=True,
    help="Games kept at once for one client address (its oldest goes first).",
)
@click.option(
    "--pause-after", type=Seconds(MAX_SECONDS), default=PAUSE_AFTER, show_default=True,
    help="Pause the AIs of a game no page has watched for this many seconds.",
)
@click.option(
    "--log-level", type=click.Choice(["critical", "error", "warning", "info", "debug"]),
    default="warning", show_default=True, help="Server log level.",
)
def web(
    host: str, port: int, allow_remote: bool, allow_programs: bool, open_browser: bool,
    plugin: tuple[str, ...], games: tuple[str, ...],
    data_dir: str | None, max_time: float, max_board: int, searches: int | None,
    max_games: int, games_per_client: int, pause_after: float, log_level: str,
) -> None:
    """Play, watch and analyse every game in the browser (a local web server).

    Needs the web extra: pip install 'boardgames-ai[web]'.
    """
    if not is_loopback(host):
        if allow_programs:
            fail(
                f"--allow-programs serves only on a loopback address, not {host}: other"
                " machines could run commands on this one"
            )
        if not allow_remote:
            fail(
                f"--host {host} is not a loopback address: other machines could reach the"
                " server; add --allow-remote if that is what you want"
            )
        progress(
            f"warning: serving on {host}, which other machines may reach; anyone who can"
            " connect can start games and use this machine's CPU"
        )
    if allow_programs:
        progress(
            "warning: --allow-programs: a side may be any program on this machine"
            " (program:CMD ARGS), run as you; pages from other sites are refused"
        )
    try:
        import uvicorn
        import websockets  # noqa: F401  (uvicorn's WebSocket support)

        from ..web.app import create_app, server_limits
    except ImportError as exc:
        raise MissingExtraError(
            f"boardgames web needs the web extra ({exc.name or exc} is missing):"
            " pip install 'boardgames-ai[web]'"
        ) from None
    settings = WebSettings(
        max_time=max_time, max_board=max_board, searches=searches or default_searches(),
        max_games=max_games, games_per_client=min(games_per_client, max_games),
        pause_after=pause_after, data_dir=None if data_dir is None else Path(data_dir),
        allow_programs=allow_programs,
    )
    app = create_app(
        allowed_hosts=allowed_hosts(host), plugins=plugin, games=games, settings=settings
    )
    sock = bind(host, port)
    shown = f"[{host.strip('[]')}]" if ":" in host.strip("[]") else host
    url = f"http://{shown}:{sock.getsockname()[1]}/"
    config = uvicorn.Config(app, log_level=log_level, lifespan="on", **server_limits(settings))
    server = uvicorn.Server(config)
    click.echo(f"boardgames web: serving on {url} (Ctrl-C to stop)", err=True)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server.run(sockets=[sock])


COMMANDS = [web]
