"""The web server: a Starlette app with a JSON API, a WebSocket per game, the page.

Every request that changes a game is checked by the library before anything
changes: a bad one gets status 400 (409 when it does not fit the moment,
404 for an unknown game) and a JSON body {"error": "..."} saying why.

Each browser tab plays its own game (`Session`), kept in memory while the
server runs (at most MAX_SESSIONS; the longest unused go first).  Requests
that change something must be JSON (`Content-Type: application/json`), so
another web site cannot send them from a visitor's browser, and the `Host`
header must name the address the server was started on.
"""

from __future__ import annotations

import asyncio
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
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import BoardgamesError, OptionError, UnknownNameError
from ..io import parse_json
from ..match.records import GameRecord
from ..options import check_seconds, check_whole
from ..registry import get_game
from .boards import board_for
from .catalog import catalog, load_plugins
from .model import ConflictError, Side
from .session import WATCH_DELAY, Session

STATIC = Path(__file__).parent / "static"
#: Games kept in memory at once.
MAX_SESSIONS = 64
#: Largest request body read (a record of a long game is a few kilobytes).
MAX_BODY = 4 << 20


class UnknownSession(BoardgamesError):
    """No game with this id (the server restarted, or it was dropped)."""


class Store:
    """The games of this server, by id."""

    def __init__(self, limit: int = MAX_SESSIONS) -> None:
        self.sessions: dict[str, Session] = {}
        self.limit = limit

    def get(self, sid: str) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            raise UnknownSession(f"no game {sid!r} on this server (it may have restarted)")
        session.touched = time.monotonic()
        return session

    def add(self, make: Callable[[str], Session]) -> Session:
        while len(self.sessions) >= self.limit:
            idle = [s for s in self.sessions.values() if not s.subscribers] or list(
                self.sessions.values()
            )
            oldest = min(idle, key=lambda s: s.touched)
            oldest.close()
            del self.sessions[oldest.id]
        session = make(secrets.token_urlsafe(9))
        self.sessions[session.id] = session
        return session

    def close(self) -> None:
        for session in self.sessions.values():
            session.close()


# --- requests --------------------------------------------------------------------------


async def body(request: Request) -> dict[str, Any]:
    """The JSON object of a request that changes something."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise OptionError("send JSON (Content-Type: application/json)")
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise OptionError(f"request too large ({len(raw)} bytes)")
    if not raw.strip():
        return {}
    data = parse_json(raw, "the request")
    if not isinstance(data, dict):
        raise OptionError("send a JSON object")
    return data


Endpoint = Callable[[Request], Awaitable[Any]]


def api(endpoint: Endpoint) -> Callable[[Request], Awaitable[Response]]:
    """JSON in and out; library errors become 400/404/409 with {"error": ...}."""

    async def run(request: Request) -> Response:
        try:
            result = await endpoint(request)
        except UnknownSession as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        except ConflictError as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        except (BoardgamesError, ValueError) as exc:
            return JSONResponse({"error": str(exc) or type(exc).__name__}, status_code=400)
        return result if isinstance(result, Response) else JSONResponse(result)

    return run


def sides_from(game: Any, data: Any) -> list[Side]:
    if data is None:
        data = [{}, {}]
    if not isinstance(data, list) or len(data) != 2:
        raise OptionError("sides must be a list of two players (first colour first)")
    return [Side.build(game, side) for side in data]


def params_from(data: Any) -> dict[str, int]:
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise OptionError("options must map option names to whole numbers")
    return {str(k): check_whole(str(k), v, None) for k, v in data.items()}


def delay_from(data: dict[str, Any]) -> float:
    """Seconds between two AIs' moves (`session.WATCH_DELAY` unless the page says)."""
    if data.get("delay") is None:
        return WATCH_DELAY
    return check_seconds("delay", data["delay"]) if data["delay"] else 0.0


def records_from(text: Any) -> list[GameRecord]:
    """A record file: one JSON record, or JSON lines (`match --records`)."""
    if not isinstance(text, str) or not text.strip():
        raise OptionError("no record text")
    try:
        return [GameRecord.from_json(text, "the file")]
    except BoardgamesError:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2:
            raise
    return [GameRecord.from_json(line, f"line {n}") for n, line in enumerate(lines, start=1)]


# --- the endpoints ------------------------------------------------------------------------


def store_of(request: Request | WebSocket) -> Store:
    store: Store = request.app.state.store
    return store


def session_of(request: Request) -> Session:
    return store_of(request).get(request.path_params["sid"])


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def get_catalog(request: Request) -> Any:
    return catalog(request.app.state.plugin_failures)


async def create(request: Request) -> Any:
    """A new game: {"game", "options", "sides", "delay"} or {"record", "sides"}."""
    data, store = await body(request), store_of(request)
    if data.get("record") is not None:
        record = data["record"]
        if isinstance(record, str):
            record = parse_json(record, "the record")
        loaded = GameRecord.from_dict(record, "the record")
        game = loaded.get_game()
        sides = sides_from(game, data.get("sides"))
        session = store.add(lambda sid: Session(sid, game, sides, record=loaded))
    else:
        name = data.get("game")
        if not isinstance(name, str):
            raise UnknownNameError('name the game: {"game": "squatter", ...}')
        game = get_game(name, **params_from(data.get("options")))
        sides = sides_from(game, data.get("sides"))
        delay = delay_from(data)
        session = store.add(lambda sid: Session(sid, game, sides, delay=delay))
    session.kick()
    return session.snapshot()


async def get_state(request: Request) -> Any:
    return session_of(request).snapshot()


async def get_board(request: Request) -> Any:
    return board_for(session_of(request).game).to_json()


async def get_position(request: Request) -> Any:
    ply = check_whole("ply", _int(request.query_params.get("ply", "")), 0)
    return session_of(request).position(ply)


async def get_record(request: Request) -> Response:
    session = session_of(request)
    name = f"{session.game.name}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    return Response(
        session.record().to_json(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


async def get_analysis(request: Request) -> Response:
    return PlainTextResponse(session_of(request).analyse())


async def move(request: Request) -> Any:
    data, session = await body(request), session_of(request)
    if "move" not in data:
        raise OptionError('send {"move": "A1"} (a name or an index)')
    ply = data.get("ply")
    session.move(data["move"], None if ply is None else check_whole("ply", ply, 0))
    return session.snapshot()


async def action(request: Request) -> Any:
    """undo, truncate, swap, sides, pause, stop, hint."""
    data, session = await body(request), session_of(request)
    what = request.path_params["action"]
    if what == "undo":
        session.undo()
    elif what == "truncate":
        session.truncate(check_whole("ply", data.get("ply"), 0))
    elif what == "swap":
        session.swap()
    elif what == "sides":
        session.set_sides(sides_from(session.game, data.get("sides")))
    elif what == "pause":
        session.set_paused(bool(data.get("paused", True)))
    elif what == "stop":
        return {"stopped": session.stop()}
    elif what == "hint":
        spec = data.get("ai") or session.hint_spec()
        seconds = check_seconds("time", data.get("time", session.hint_time()))
        return await session.hint_move(str(spec), seconds)
    else:
        raise UnknownNameError(f"unknown action {what!r}")
    return session.snapshot()


async def parse_records(request: Request) -> Any:
    records = records_from((await body(request)).get("text"))
    return {"records": [{"summary": r.summary(), "record": r.to_dict()} for r in records]}


async def live(websocket: WebSocket) -> None:
    try:
        session = store_of(websocket).get(websocket.path_params["sid"])
    except UnknownSession:
        await websocket.close(code=4404)
        return
    await websocket.accept()
    await stream(websocket, session)


ROUTES = [
    Route("/", index),
    Route("/api/catalog", api(get_catalog)),
    Route("/api/records", api(parse_records), methods=["POST"]),
    Route("/api/sessions", api(create), methods=["POST"]),
    Route("/api/sessions/{sid}", api(get_state)),
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
) -> ASGIApp:
    """The ASGI app.  `allowed_hosts`: the names the Host header may give
    (None: any, for tests); `plugins` are imported besides BOARDGAMES_PLUGINS."""
    store = Store()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        yield
        store.close()

    app = Starlette(routes=ROUTES, lifespan=lifespan)
    app.state.store = store
    app.state.plugin_failures = load_plugins(plugins)
    if allowed_hosts is None:
        return app
    return HostCheck(app, allowed_hosts)


def _int(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        return text


async def stream(websocket: WebSocket, session: Session) -> None:
    """Send the game's state, then every change, until the page goes away."""
    queue = session.subscribe()

    async def until_closed() -> None:
        try:
            while True:
                await websocket.receive_text()  # the page sends nothing that matters
        except WebSocketDisconnect:
            pass

    closed = asyncio.ensure_future(until_closed())
    try:
        await websocket.send_json(session.snapshot())
        while True:
            message = asyncio.ensure_future(queue.get())
            done, _ = await asyncio.wait({message, closed}, return_when=asyncio.FIRST_COMPLETED)
            if closed in done:
                message.cancel()
                break
            await websocket.send_json(message.result())
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        session.unsubscribe(queue)
        closed.cancel()


class HostCheck:
    """Refuse requests whose Host header names another address (DNS rebinding)."""

    def __init__(self, app: ASGIApp, hosts: list[str]) -> None:
        self.app = app
        self.hosts = {h.lower().strip("[]") for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name.strip("[]") not in self.hosts:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 4403})
                    return
                response = PlainTextResponse("unknown host", status_code=400)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
