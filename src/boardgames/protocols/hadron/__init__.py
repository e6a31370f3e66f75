"""The Hadron tournament's TCP line protocol: a client for any AI and a server.

The protocol of the Calabria 2022/23 tournament (docs/hadron.md): one line
per message, UTF-8.

    server -> client: WELCOME White|Black, YOUR_TURN, OPPONENT_MOVE <cell>,
                      VALID_MOVE, VICTORY, DEFEAT, TIMEOUT, MESSAGE <text>
    client -> server: MOVE <cell>

The first client to connect plays White, who moves first.  A move must
arrive within the per-move limit (2 s by default).

Conventions of this server where the tournament's description is silent:
- a line that is not `MOVE <cell>` with a readable cell, or that comes when
  it is not the client's turn, gets `MESSAGE error: <line>: <reason>` at
  once and changes nothing; the clock keeps running (the server reads both
  clients all the time).  A line that arrived before the server sent the
  client YOUR_TURN is out of turn, for both colours alike (White's MOVE sent
  before Black connected is not White's first move);
- a well-formed illegal move loses: `MESSAGE illegal move: ...`, then
  `DEFEAT` to the mover and `VICTORY` to the opponent;
- a move later than the limit (plus a small network allowance) loses:
  `TIMEOUT` to the late client, `VICTORY` to the opponent;
- a client that disconnects loses at once, whoever's turn it is; the
  opponent gets `VICTORY`;
- so does a client that sends a line longer than MAX_LINE bytes or more
  than MAX_BAD_LINES bad lines in a game: it gets `MESSAGE error: ...` and
  `DEFEAT`;
- at the normal end the player to move, who has no legal cell, gets
  `DEFEAT` and the other `VICTORY`.
The server listens on the loopback interface unless told otherwise.

The client is strict: a server line that breaks the protocol (an unknown
line, a move out of turn, a bad WELCOME, ...) or a connection that ends
before VICTORY, DEFEAT or TIMEOUT raises ProtocolError, naming the line.
"""

from __future__ import annotations

from ..network import NetworkProtocol
from .client import ClientResult, HadronClient
from .server import HadronServer, ServerGame
from .wire import (
    COLOURS,
    DEFAULT_HOST,
    DEFAULT_PORT,
    DEFAULT_TIME_LIMIT,
    MAX_BAD_LINES,
    MAX_LINE,
    NETWORK_ALLOWANCE,
    LineChannel,
    parse_move_line,
    wait_readable,
)

__all__ = [
    "COLOURS", "DEFAULT_HOST", "DEFAULT_PORT", "DEFAULT_TIME_LIMIT", "MAX_BAD_LINES",
    "MAX_LINE", "NETWORK_ALLOWANCE", "ClientResult", "HadronClient", "HadronServer",
    "LineChannel", "ServerGame", "parse_move_line", "wait_readable",
]

#: What `serve hadron` and `connect hadron` speak (declared by the game's registration).
PROTOCOL = NetworkProtocol("hadron", HadronClient, HadronServer, DEFAULT_PORT, DEFAULT_TIME_LIMIT)
