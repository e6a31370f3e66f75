"""The web server: a Starlette app with a JSON API, a WebSocket per game, the page.

Every request that changes a game is checked by the library before anything
changes: a bad one gets status 400 (409 when it does not fit the moment,
404 for an unknown game, 413 for a body over the cap, 503 when the server
is full) and a JSON body {"error": "..."} saying why.

Each browser tab plays its own game (`Session`), kept in memory while the
server runs, within the quotas of `store.Store`.  Every request is treated
as hostile (any page in the user's browser can send one): what it may start
is bounded by `WebSettings`, requests that change something must be JSON
(`Content-Type: application/json`) and come from the server's own page
(`guard.Guard`: the Host and Origin checks), AIs are built and records
parsed in worker threads, never on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import BoardgamesError, OptionError, UnknownNameError
from ..game import Game
from ..io import parse_json
from ..match.records import GameRecord, records_in_text
from ..options import check_real, check_whole
from ..registry import get_game
from .boards import board_for
from .catalog import catalog, load_plugins
from .guard import Guard
from .inputs import TooLarge, flag, only, read_json, text, whole
from .live import TooManyViewers, stream
from .model import ConflictError, Side
from .pool import SearchPool
from .session import WATCH_DELAY, Session
from .settings import WebSettings
from .specs import capped_seconds
from .store import ServerFull, Store, UnknownSession

STATIC = Path(__file__).parent / "static"
#: Longest pause between two AIs' moves a page may ask for (seconds).
MAX_DELAY = 10.0
#: Seconds between two checks for games nobody watches.
SWEEP_INTERVAL = 0.5
#: Largest WebSocket message a page may send (bytes).
WS_MAX_MESSAGE = 1 << 14
#: WebSocket close codes the page acts on.
GONE, CROWDED = 4404, 4429
#: The page may not be framed by another site (clickjacking).
PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
}


# --- requests --------------------------------------------------------------------------

Endpoint = Callable[[Request], Awaitable[Any]]
STATUS: tuple[tuple[type[BaseException], int], ...] = (
    (UnknownSession, 404),
    (ConflictError, 409),
    (TooLarge, 413),
    (ServerFull, 503),
    (BoardgamesError, 400),
    (ValueError, 400),
)


#: An error answer ends its connection: the server keeps nothing of a client
#: that sends bad requests in bulk, nor reads the rest of a body it refused.
CLOSE = {"Connection": "close"}


def api(endpoint: Endpoint) -> Callable[[Request], Awaitable[Response]]:
    """JSON in and out; library errors become 400/404/409/413/503 with {"error": ...}
    (and the connection is closed)."""

    async def run(request: Request) -> Response:
        try:
            result = await endpoint(request)
        except (BoardgamesError, ValueError) as exc:
            status = next(code for kind, code in STATUS if isinstance(exc, kind))
            return JSONResponse(
                {"error": str(exc) or type(exc).__name__}, status_code=status, headers=CLOSE
            )
        return result if isinstance(result, Response) else JSONResponse(result)

    return run


async def body(request: Request, *fields: str) -> dict[str, Any]:
    """The request's JSON object, taking only `fields`."""
    data = await read_json(request, settings_of(request).max_body)
    only(data, fields, "this request")
    return data


def build_sides(game: Game[Any], data: Any, settings: WebSettings) -> list[Side]:
    """Both sides from the page's list (runs in a worker thread: an AI may read a file)."""
    if data is None:
        data = [{}, {}]
    if not isinstance(data, list) or len(data) != 2:
        raise OptionError("sides must be a list of two players (first colour first)")
    return [Side.build(game, side, settings) for side in data]


def params_from(data: Any) -> dict[str, int]:
    """A game's options from a request's JSON (None: none).

    Raises:
        OptionError: not a mapping of names to whole numbers."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise OptionError("options must map option names to whole numbers")
    return {str(k): check_whole(str(k), v, None) for k, v in data.items()}


def delay_from(data: dict[str, Any]) -> float:
    """Seconds between two AIs' moves (`session.WATCH_DELAY` unless the page says)."""
    if data.get("delay") is None:
        return WATCH_DELAY
    return check_real("delay", data["delay"], 0, MAX_DELAY, unit="seconds")


def checked_game(name: Any, options: Any, settings: WebSettings) -> Game[Any]:
    """The game a request names, no larger than the server allows."""
    if not isinstance(name, str):
        raise UnknownNameError('name the game: {"game": "squatter", ...}')
    game = get_game(name, **params_from(options))
    if game.num_moves > settings.max_board:
        raise OptionError(
            f"{game.describe()} has {game.num_moves} moves on its board; this server takes at"
            f" most {settings.max_board} (boardgames web --max-board)"
        )
    return game


def records_from(text: Any) -> list[GameRecord]:
    """A record file: one JSON record, or JSON lines (`match --records`)."""
    if not isinstance(text, str) or not text.strip():
        raise OptionError("no record text")
    return records_in_text(text, "the file")


# --- the endpoints ------------------------------------------------------------------------


def store_of(request: Request | WebSocket) -> Store:
    """The app's session store."""
    store: Store = request.app.state.store
    return store


def settings_of(request: Request | WebSocket) -> WebSettings:
    """The app's settings."""
    settings: WebSettings = request.app.state.settings
    return settings


def session_of(request: Request) -> Session:
    """The session the request's path names.

    Raises:
        UnknownSession: no such session on this server."""
    return store_of(request).get(request.path_params["sid"])


def client_of(request: Request) -> str:
    """Who asks: the client's address (games are counted per address)."""
    return request.client.host if request.client else ""


async def index(request: Request) -> Response:
    """`GET /`: the page."""
    return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)


async def get_catalog(request: Request) -> Any:
    """`GET /api/catalog`: the games, their options and AIs, and the server's limits."""
    settings = settings_of(request)
    return catalog(request.app.state.plugin_failures) | {
        "limits": {"max_time": settings.max_time, "max_board": settings.max_board},
        "programs": settings.allow_programs,
    }


def new_session(
    data: dict[str, Any], settings: WebSettings, pool: SearchPool, owner: str
) -> Session:
    """The game a create request asks for, built in a worker thread: the AIs
    may read files and a record's moves are replayed and evaluated."""
    sid = secrets.token_urlsafe(9)
    if data.get("record") is not None:
        record = data["record"]
        if isinstance(record, str):
            record = parse_json(record, "the record")
        loaded = GameRecord.from_dict(record, "the record")
        game = checked_game(loaded.game, loaded.params, settings)
        sides = build_sides(game, data.get("sides"), settings)
        return Session(sid, game, sides, settings=settings, pool=pool, record=loaded, owner=owner)
    game = checked_game(data.get("game"), data.get("options"), settings)
    sides = build_sides(game, data.get("sides"), settings)
    delay = delay_from(data)
    return Session(sid, game, sides, settings=settings, pool=pool, delay=delay, owner=owner)


async def create(request: Request) -> Any:
    """A new game: {"game", "options", "sides", "delay"} or {"record", "sides"}."""
    data = await body(request, "game", "options", "sides", "delay", "record")
    settings, store = settings_of(request), store_of(request)
    pool = request.app.state.pool
    session = await asyncio.to_thread(new_session, data, settings, pool, client_of(request))
    store.add(session)
    session.kick()
    return session.snapshot()


async def close_session(request: Request) -> Any:
    """DELETE: the page has moved on to another game; stop this one."""
    return {"closed": store_of(request).remove(request.path_params["sid"])}


async def get_state(request: Request) -> Any:
    """`GET /api/sessions/{sid}`: the session's state."""
    return session_of(request).snapshot()


async def get_board(request: Request) -> Any:
    """`GET /api/sessions/{sid}/board`: where each move is on the game's picture."""
    game = session_of(request).game
    return (await asyncio.to_thread(board_for, game)).to_json()


async def get_position(request: Request) -> Any:
    """`GET /api/sessions/{sid}/position?ply=N`: the position after `N` moves."""
    ply = check_whole("ply", _int(request.query_params.get("ply", "")), 0)
    return session_of(request).position(ply)


async def get_record(request: Request) -> Response:
    """`GET /api/sessions/{sid}/record`: the game record, as a file to download."""
    session = session_of(request)
    name = f"{session.game.name}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    return Response(
        session.record().to_json(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


async def get_analysis(request: Request) -> Response:
    """`GET /api/sessions/{sid}/analysis`: the game's analysis of the position, as text."""
    session = session_of(request)
    return PlainTextResponse(await asyncio.to_thread(session.game.analyse, session.state.copy()))


async def move(request: Request) -> Any:
    """`POST /api/sessions/{sid}/move`: play `{"move": ...}` (at `ply`, when
    given); the new state."""
    data, session = await body(request, "move", "ply"), session_of(request)
    if "move" not in data:
        raise OptionError('send {"move": "A1"} (a name or an index)')
    session.move(data["move"], whole(data, "ply"))
    return session.snapshot()


ACTIONS = {
    "undo": (), "truncate": ("ply",), "swap": (), "sides": ("sides",), "pause": ("paused",),
    "stop": (), "hint": ("ai", "time"),
}


async def action(request: Request) -> Any:
    """undo, truncate, swap, sides, pause, stop, hint."""
    what = request.path_params["action"]
    if what not in ACTIONS:
        raise UnknownNameError(f"unknown action {what!r} (known: {', '.join(ACTIONS)})")
    data, session = await body(request, *ACTIONS[what]), session_of(request)
    settings = settings_of(request)
    if what == "undo":
        session.undo()
    elif what == "truncate":
        session.truncate(check_whole("ply", data.get("ply"), 0))
    elif what == "swap":
        session.swap()
    elif what == "sides":
        sides = await asyncio.to_thread(build_sides, session.game, data.get("sides"), settings)
        session.set_sides(sides)
    elif what == "pause":
        session.set_paused(flag(data, "paused", True))
    elif what == "stop":
        return {"stopped": session.stop()}
    elif what == "hint":
        session.check_hint()
        spec = text(data, "ai") or session.hint_spec()
        seconds = capped_seconds("time", data.get("time", session.hint_time()), settings)
        helper = await asyncio.to_thread(
            Side.build, session.game, {"ai": spec, "time": seconds}, settings
        )
        return await session.hint_move(helper)
    return session.snapshot()


async def parse_records(request: Request) -> Any:
    """`POST /api/records`: the game records in `{"text": ...}`, parsed."""
    data = await body(request, "text")
    records = await asyncio.to_thread(records_from, data.get("text"))
    return {"records": [{"summary": r.summary(), "record": r.to_dict()} for r in records]}


async def live(websocket: WebSocket) -> None:
    """The game's WebSocket.  It is always accepted first, so that the page
    sees why it ends (GONE: no such game; CROWDED: too many pages watch it)."""
    await websocket.accept()
    try:
        session = store_of(websocket).get(websocket.path_params["sid"])
        mailbox = session.subscribe()
    except UnknownSession as exc:
        await close_quietly(websocket, GONE, str(exc))
        return
    except TooManyViewers as exc:
        await close_quietly(websocket, CROWDED, str(exc))
        return
    try:
        await stream(websocket, mailbox)
    finally:
        session.unsubscribe(mailbox)
    if mailbox.ended:
        await close_quietly(websocket, GONE, "the game was closed")


async def close_quietly(websocket: WebSocket, code: int, reason: str) -> None:
    """Close with `code`, unless the page has gone already."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.close(code=code, reason=reason[:120])


ROUTES = [
    Route("/", index),
    Route("/api/catalog", api(get_catalog)),
    Route("/api/records", api(parse_records), methods=["POST"]),
    Route("/api/sessions", api(create), methods=["POST"]),
    Route("/api/sessions/{sid}", api(get_state)),
    Route("/api/sessions/{sid}", api(close_session), methods=["DELETE"]),
    Route("/api/sessions/{sid}/board", api(get_board)),
    Route("/api/sessions/{sid}/position", api(get_position)),
    Route("/api/sessions/{sid}/record", api(get_record)),
    Route("/api/sessions/{sid}/analysis", api(get_analysis)),
    Route("/api/sessions/{sid}/move", api(move), methods=["POST"]),
    Route("/api/sessions/{sid}/{action}", api(action), methods=["POST"]),
    WebSocketRoute("/api/sessions/{sid}/live", live),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]


def create_app(
    *,
    allowed_hosts: list[str] | None = None,
    plugins: tuple[str, ...] = (),
    games: tuple[str, ...] = (),
    settings: WebSettings | None = None,
) -> ASGIApp:
    """The ASGI app.  `allowed_hosts`: the names the Host header may give
    (None: any, for tests and --allow-remote); `plugins` are imported besides
    BOARDGAMES_PLUGINS; `games` are built now, so that the new-game form
    offers them (members of a family: "openspiel:tic_tac_toe"; a bad name
    raises the registry's error); `settings`: the limits (WebSettings() by
    default)."""
    settings = settings or WebSettings()
    store = Store(settings)
    pool = SearchPool(settings.searches)

    async def sweep() -> None:
        while True:
            await asyncio.sleep(SWEEP_INTERVAL)
            store.sweep()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        sweeper = asyncio.ensure_future(sweep())
        yield
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        store.close()
        pool.close()

    app = Starlette(routes=ROUTES, lifespan=lifespan)
    app.state.store = store
    app.state.pool = pool
    app.state.settings = settings
    app.state.plugin_failures = load_plugins(plugins)
    for name in games:
        get_game(name)
    return Guard(app, allowed_hosts)


def server_limits(settings: WebSettings) -> dict[str, Any]:
    """uvicorn.Config settings that bound what connections can hold: WebSocket
    messages from a page are small (it sends nothing that matters), the
    connections at once are a few per game the server keeps, and stopping
    waits at most two seconds for them."""
    return {
        "ws": "websockets-sansio",
        "ws_max_size": WS_MAX_MESSAGE,
        "limit_concurrency": settings.max_games * (settings.max_viewers + 2) + 64,
        # Ctrl-C: clients that never answer (or read) do not keep the server up.
        "timeout_graceful_shutdown": 2,
    }


def _int(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        return text
