"""Tournament line protocols over TCP: what a game declares so that `boardgames
serve GAME` and `boardgames connect GAME` can play it.

A game with a protocol declares a `NetworkProtocol` (`register_game(...,
protocol=...)`): a client class that plays one game on a server with any
Player, a server class that referees games between two clients, and the
protocol's default port and time limit.  Hadron's is in `protocols.hadron`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..match.records import GameRecord
from ..registry import game_part


class ClientOutcome(Protocol):
    """What a client saw: its colour (-1 before it got one), the outcome line, the moves."""

    colour: int
    outcome: str
    moves: list[str]
    think_times: list[float]


class NetworkClient(Protocol):
    """Plays one game on a server; raises ProtocolError unless the game finished."""

    def play(self, host: str, port: int) -> ClientOutcome:
        """Connect to `host`:`port` and play one game to its end."""


class ServedGame(Protocol):
    """How one served game went."""

    record: GameRecord


class NetworkServer(Protocol):
    """A listening server (a context manager that closes it)."""

    address: tuple[str, int]

    @property
    def port(self) -> int:
        """The port the server listens on."""

    def serve(self, games: int = 1) -> Sequence[ServedGame]:
        """Play `games` games, each between the next two clients to connect, and
        return how each went."""

    def __enter__(self) -> NetworkServer: ...

    def __exit__(self, *exc: object) -> None: ...


@dataclass(frozen=True)
class NetworkProtocol:
    """A game's tournament protocol.

    `client(game, player, *, time_limit, idle_timeout, log)` and
    `server(game, *, host, port, time_limit, log)` build the two ends; `log`
    takes one line of progress text.
    """

    game: str
    client: Callable[..., NetworkClient]
    server: Callable[..., NetworkServer]
    port: int
    time_limit: float
    host: str = "127.0.0.1"


def protocol_for(game_name: str) -> NetworkProtocol:
    """The protocol the game `game_name` declares; OptionError naming the games that have one."""
    protocol: NetworkProtocol = game_part(game_name, "protocol")
    return protocol
