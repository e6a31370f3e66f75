"""The games of one server, by id, within the server's quotas.

At most `max_games` games are kept, and at most `games_per_client` for one
client address.  A client over its quota makes room among its own games
(the longest unused first, unwatched before watched); a full server makes
room only among games nobody has watched or touched for `idle_after`
seconds, so with `--allow-remote` one client cannot push out the games
others are playing: it is told the server is full instead.
"""

from __future__ import annotations

import time

from ..errors import BoardgamesError
from .session import Session
from .settings import WebSettings


class UnknownSession(BoardgamesError):
    """No game with this id (the server restarted, or the game was closed)."""


class ServerFull(BoardgamesError):
    """Every game the server may keep is in use by other clients (status 503)."""


class Store:
    """The games of this server, by id."""

    def __init__(self, settings: WebSettings) -> None:
        self.sessions: dict[str, Session] = {}
        self.settings = settings

    def get(self, sid: str) -> Session:
        """The game `sid` (someone is looking at it); UnknownSession if there is none."""
        session = self.sessions.get(sid)
        if session is None:
            raise UnknownSession(f"no game {sid!r} on this server (it may have restarted)")
        session.touch()
        return session

    def add(self, session: Session) -> None:
        """Keep a new game, dropping one of its client's games, or an idle one,
        when a quota is reached; ServerFull when there is none to drop."""
        now = time.monotonic()

        def own() -> list[Session]:
            return [s for s in self.sessions.values() if s.owner == session.owner]

        def least_used(games: list[Session]) -> Session:
            return min(games, key=lambda s: (s.is_watched(now), s.touched))

        if len(own()) >= self.settings.games_per_client:
            self._drop(least_used(own()))
        if len(self.sessions) >= self.settings.max_games:
            idle = [
                s for s in self.sessions.values()
                if not s.is_watched(now) and now - s.touched >= self.settings.idle_after
            ]
            choices = own() or idle
            if not choices:
                raise ServerFull(
                    f"the server is full ({len(self.sessions)} games in use); try again later"
                    " or ask its owner to raise --max-games"
                )
            self._drop(least_used(choices))
        self.sessions[session.id] = session

    def remove(self, sid: str) -> bool:
        """Close game `sid`; False if there was none."""
        if sid not in self.sessions:
            return False
        self._drop(self.sessions[sid])
        return True

    def _drop(self, session: Session) -> None:
        session.close()
        del self.sessions[session.id]

    def sweep(self) -> None:
        """Hold the AIs of the games nobody watches (called every so often)."""
        now = time.monotonic()
        for session in self.sessions.values():
            session.check_watched(now)

    def close(self) -> None:
        """Close every session."""
        for session in self.sessions.values():
            session.close()
