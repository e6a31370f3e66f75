"""Requests from elsewhere, refused before they reach the app.

- A `Host` header that names another address than the loopback one the
  server listens on (DNS rebinding: a site whose name points at 127.0.0.1).
- A browser's request from another site's page: a WebSocket, or a request
  that changes something (any method but GET and HEAD), whose `Origin` is
  not this server's own.  Browsers always send `Origin` with those; clients
  that are not browsers send none and are not affected.
"""

from __future__ import annotations

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: Methods that change nothing (no Origin check).
SAFE_METHODS = ("GET", "HEAD")


class Guard:
    """ASGI middleware: the Host check (when `hosts` is given) and the Origin check."""

    def __init__(self, app: ASGIApp, hosts: list[str] | None) -> None:
        self.app = app
        self.hosts = None if hosts is None else {h.lower().strip("[]") for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a request for an unknown host, or one that changes something
        from another site's page; pass the others on."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {key.lower(): value for key, value in scope["headers"]}
        host = headers.get(b"host", b"").decode("latin-1").lower()
        if self.hosts is not None and host_name(host) not in self.hosts:
            await refuse(scope, receive, send, "unknown host", 400)
            return
        origin = headers.get(b"origin")
        changes = scope["type"] == "websocket" or scope.get("method") not in SAFE_METHODS
        if origin is not None and changes and origin.decode("latin-1").lower() != own_origin(
            scope, host
        ):
            await refuse(scope, receive, send, "requests from other sites are refused", 403)
            return
        await self.app(scope, receive, send)


def host_name(host: str) -> str:
    """'127.0.0.1:8000' -> '127.0.0.1'; '[::1]:8000' -> '::1'."""
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def own_origin(scope: Scope, host: str) -> str:
    """The origin of the pages this server serves, as browsers write it."""
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope["scheme"])
    return f"{scheme}://{host}"


async def refuse(scope: Scope, receive: Receive, send: Send, reason: str, status: int) -> None:
    """Refuse a request: a plain-text error response, or a WebSocket closed
    with code 4403."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 4403, "reason": reason})
        return
    response = PlainTextResponse(reason, status_code=status, headers={"Connection": "close"})
    await response(scope, receive, send)
