"""What a web game is made of: its sides, its searches in progress, its moves.

Plain data with their JSON form for the page; `session.Session` holds them.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import BoardgamesError, OptionError, quote
from ..game import Game, State
from ..players import Player
from .inputs import only
from .settings import WebSettings
from .specs import capped_seconds, web_player
from .thinking import Info, capabilities

#: Seconds per move when the page gives none.
DEFAULT_TIME = 1.0


class ConflictError(BoardgamesError):
    """A request that does not fit the game's state now (the AI's turn, a stale view)."""


@dataclass
class Side:
    """Who plays one colour: a human, or an AI spec with the seconds it thinks per move."""

    spec: str | None = None
    time: float = DEFAULT_TIME
    player: Player[Any] | None = None
    live: bool = False
    stoppable: bool = False

    @property
    def human(self) -> bool:
        """Whether a human plays this side."""
        return self.spec is None

    @property
    def name(self) -> str:
        """The side's name: the AI's spec, or `human`."""
        return "human" if self.spec is None else self.spec

    @classmethod
    def build(cls, game: Game[Any], data: Any, settings: WebSettings) -> Side:
        """From the page's {"ai": spec or null, "time": seconds}; OptionError if bad.

        Building an AI may read a file (an option naming one in the data
        folder) or import its module: call this in a worker thread.
        """
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise OptionError("each side is an object like {\"ai\": \"default\", \"time\": 1}")
        only(data, ("ai", "time"), "a side")
        spec = data.get("ai")
        if spec is not None and not isinstance(spec, str):
            raise OptionError(f"an AI spec is text like 'alphabeta:depth=4', not {quote(spec)}")
        seconds = capped_seconds("time", data.get("time", DEFAULT_TIME), settings)
        if spec is None or spec.strip() in ("", "human"):
            return cls(None, seconds)
        player, thinks = web_player(game, spec, seconds, settings)
        return cls(spec, thinks, player, **capabilities(player))

    def rebuild(self, game: Game[Any], settings: WebSettings) -> None:
        """Build the AI player again (after it was let go); in a worker thread."""
        if self.spec is not None:
            self.player, _ = web_player(game, self.spec, self.time, settings)

    def release(self) -> None:
        """Let the player go (nobody watches, or the side changed hands): a
        program's process ends, in a thread of its own (it is given a moment
        to quit), so the event loop never waits for it."""
        player, self.player = self.player, None
        if player is not None and type(player).close is not Player.close:
            threading.Thread(target=player.close, name="close-player", daemon=True).start()

    def to_json(self) -> dict[str, Any]:
        """The side as JSON data for the page."""
        return {
            "ai": self.spec,
            "time": self.time,
            "name": self.name,
            "live": self.live,
            "stoppable": self.stoppable,
        }


@dataclass
class Job:
    """A search in progress: an AI's move or a hint."""

    kind: str
    side: int
    spec: str
    budget: float
    live: bool
    stoppable: bool
    stop: threading.Event = field(default_factory=threading.Event)
    started: float = field(default_factory=time.monotonic)
    info: Info | None = None
    sent: float = 0.0
    pending: bool = False
    #: Waiting for a free search slot (the clock starts when it gets one).
    waiting: bool = False
    #: Stopped because nobody watches the game: its move is thrown away.
    held: bool = False

    def to_json(self) -> dict[str, Any]:
        """The job as JSON data for the page."""
        return {
            "kind": self.kind,
            "side": self.side,
            "spec": self.spec,
            "budget": self.budget,
            "live": self.live,
            "stoppable": self.stoppable,
            "stopping": self.stop.is_set(),
            "waiting": self.waiting,
            "elapsed": 0.0 if self.waiting else round(time.monotonic() - self.started, 3),
            "info": self.info,
        }


@dataclass
class Ply:
    """One move made: its index, the side that made it, by whom, what the AI said."""

    move: int
    side: int
    by: str
    time: float = 0.0
    info: Info | None = None


def outcome_json(state: State[Any]) -> dict[str, Any] | None:
    """How the game ended, as JSON data for the page; None while it goes on."""
    outcome = state.outcome()
    if outcome is None:
        return None
    names = state.game.player_names
    if outcome.winner is None:
        text = f"draw ({outcome.reason})"
    else:
        text = f"{names[outcome.winner]} wins ({outcome.reason})"
    if outcome.scores is not None:
        text += f", {outcome.scores[0]}-{outcome.scores[1]}"
    return {
        "winner": outcome.winner,
        "winner_name": None if outcome.winner is None else names[outcome.winner],
        "reason": outcome.reason,
        "scores": None if outcome.scores is None else list(outcome.scores),
        "text": text,
    }


def game_json(game: Game[Any]) -> dict[str, Any]:
    """The game's name, title, options and colours, for the page."""
    return {
        "name": game.name,
        "title": game.title,
        "params": dict(game.params),
        "players": list(game.player_names),
        "scored": game.scored,
    }
