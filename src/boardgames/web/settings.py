"""What any request may start: the web server's limits (`boardgames web` options).

A local server is reachable by every page the user's browser opens, and
with `--allow-remote` by other machines, so every request is treated as
hostile: the work, memory and files it can reach are bounded here, once,
and the app, the sessions and the search pool read them from one
`WebSettings`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..options import check_real, check_seconds, check_whole
from ..parallel import default_workers

#: Longest search a request may ask for, per move or hint (seconds).
MAX_TIME = 60.0
#: Largest board a request may start, counted in moves (cells or edges):
#: every size of the built-in games (Squatter and Hadron 26 x 26).
MAX_BOARD = 676
#: Games kept at once, in all, and per client address.
MAX_GAMES = 64
GAMES_PER_CLIENT = 16
#: Seconds a game may go unwatched (no open page, no request) before its AIs pause.
PAUSE_AFTER = 10.0
#: Seconds after which another client's unwatched game may be dropped for a new one.
IDLE_AFTER = 600.0
#: Largest request body (a record of a long game is a few kilobytes; a file of
#: `match --records` a few hundred).
MAX_BODY = 4 << 20
#: Pages watching one game at once.
MAX_VIEWERS = 8
#: Largest file an AI option may name inside `--data-dir`.
MAX_DATA_FILE = 1 << 20


def default_searches() -> int:
    """Searches at once by default: one per core."""
    return max(1, default_workers())


@dataclass(frozen=True)
class WebSettings:
    """The server's limits; every value is checked when it is made."""

    max_time: float = MAX_TIME
    max_board: int = MAX_BOARD
    searches: int = field(default_factory=default_searches)
    max_games: int = MAX_GAMES
    games_per_client: int = GAMES_PER_CLIENT
    pause_after: float = PAUSE_AFTER
    idle_after: float = IDLE_AFTER
    #: The folder whose files AI options may name (None: no file at all).
    data_dir: Path | None = None
    max_body: int = MAX_BODY
    max_viewers: int = MAX_VIEWERS
    #: Whether a side may be an external program ("program:CMD ARGS"): off
    #: unless the user says so at start-up, since any page could otherwise
    #: run commands on the machine (`boardgames web --allow-programs`).
    allow_programs: bool = False

    def __post_init__(self) -> None:
        check_seconds("max_time", self.max_time)
        check_whole("max_board", self.max_board, 1)
        check_whole("searches", self.searches, 1, 256)
        check_whole("max_games", self.max_games, 1, 100_000)
        check_whole("games_per_client", self.games_per_client, 1, self.max_games)
        check_seconds("pause_after", self.pause_after)
        check_real("idle_after", self.idle_after, 0, 1e6)
        check_whole("max_body", self.max_body, 1)
        check_whole("max_viewers", self.max_viewers, 1, 1000)
        if not isinstance(self.allow_programs, bool):
            raise TypeError("allow_programs must be True or False")
        if self.data_dir is not None:
            object.__setattr__(self, "data_dir", Path(self.data_dir).resolve())
