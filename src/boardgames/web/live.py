"""A game's live updates: who watches it, and a mailbox per page that keeps the newest.

Each WebSocket subscriber gets a `Mailbox` with two slots, the newest state
snapshot and the newest search progress, each replaced by the next one.  A
page that reads slowly skips the states in between and still ends on the
last one; a client that never reads costs two references, however many
moves are played.  Messages are JSON text, made once for all subscribers.

`Viewers` counts a game as watched while a page is subscribed, or for
`pause_after` seconds after the last request about it.
"""

from __future__ import annotations

import asyncio
import time

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import BoardgamesError


class TooManyViewers(BoardgamesError):
    """More pages watch this game than the server allows."""


class Mailbox:
    """The newest state and the newest progress message, in the order they came."""

    def __init__(self) -> None:
        self.state: str | None = None
        self.progress: str | None = None
        #: The game is gone: nothing more will come.
        self.ended = False
        self._ready = asyncio.Event()

    def put_state(self, text: str) -> None:
        """A new state: it replaces the last one and the progress sent before it."""
        self.state, self.progress = text, None
        self._ready.set()

    def put_progress(self, text: str) -> None:
        """New progress: it replaces the last progress message."""
        self.progress = text
        self._ready.set()

    def end(self) -> None:
        """The game is gone: wake the reader, who gets None."""
        self.ended = True
        self._ready.set()

    async def get(self) -> str | None:
        """The next message: the newest state first, then the newest progress;
        None once the game is gone."""
        while True:
            await self._ready.wait()
            if self.state is not None:
                text, self.state = self.state, None
            elif self.progress is not None:
                text, self.progress = self.progress, None
            elif self.ended:
                return None
            else:
                self._ready.clear()
                continue
            if self.state is None and self.progress is None:
                self._ready.clear()
            return text


class Viewers:
    """The pages that watch one game; `watched` is set while anyone does."""

    def __init__(self, most: int, pause_after: float) -> None:
        self.most = most
        self.pause_after = pause_after
        self.mailboxes: set[Mailbox] = set()
        self.touched = time.monotonic()
        self.watched = asyncio.Event()
        self.watched.set()

    def __bool__(self) -> bool:
        return bool(self.mailboxes)

    def subscribe(self, first: str) -> Mailbox:
        """A new page's mailbox, holding `first`; TooManyViewers when full."""
        if len(self.mailboxes) >= self.most:
            raise TooManyViewers(
                f"{len(self.mailboxes)} pages watch this game already (at most {self.most})"
            )
        mailbox = Mailbox()
        mailbox.put_state(first)
        self.mailboxes.add(mailbox)
        return mailbox

    def unsubscribe(self, mailbox: Mailbox) -> None:
        """Stop sending to `mailbox`."""
        self.mailboxes.discard(mailbox)
        self.touched = time.monotonic()

    def send_state(self, text: str) -> None:
        """Send a new state to every watcher."""
        for mailbox in self.mailboxes:
            mailbox.put_state(text)

    def send_progress(self, text: str) -> None:
        """Send a progress message to every watcher."""
        for mailbox in self.mailboxes:
            mailbox.put_progress(text)

    def end(self) -> None:
        """The game is gone: every page is told so once it has the last state."""
        for mailbox in self.mailboxes:
            mailbox.end()

    def touch(self) -> bool:
        """Someone looked at the game; True if it was held until now."""
        self.touched = time.monotonic()
        if self.watched.is_set():
            return False
        self.watched.set()
        return True

    def is_watched(self, now: float) -> bool:
        """Whether a page watches the game, or did less than `pause_after`
        seconds before `now`."""
        return bool(self.mailboxes) or now - self.touched < self.pause_after

    def hold_if_unwatched(self, now: float) -> bool:
        """True when nobody watches any more (and did until now)."""
        if self.is_watched(now) or not self.watched.is_set():
            return False
        self.watched.clear()
        return True


async def stream(websocket: WebSocket, mailbox: Mailbox) -> None:
    """Send the mailbox's messages as they come until the page goes away or
    the mailbox ends."""

    async def until_closed() -> None:
        try:
            while True:
                await websocket.receive_text()  # the page sends nothing that matters
        except (WebSocketDisconnect, RuntimeError):
            pass

    closed = asyncio.ensure_future(until_closed())
    try:
        while True:
            message = asyncio.ensure_future(mailbox.get())
            done, _ = await asyncio.wait({message, closed}, return_when=asyncio.FIRST_COMPLETED)
            if closed in done:
                message.cancel()
                break
            text = message.result()
            if text is None:
                break
            await websocket.send_text(text)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        closed.cancel()
