"""OpenSpiel's games as games of the library: `get_game("openspiel:tic_tac_toe")`.

Any two-player, deterministic, perfect-information, sequential OpenSpiel game
can be loaded: then the library's search, solvers, AIs, CLI and web app play
it (`boardgames play openspiel:tic_tac_toe --ai alphabeta`).  A move is an
OpenSpiel action; its notation is the action's number, and a move can also
be given as OpenSpiel's text for it ("x(1,1)").  The game's options are its
OpenSpiel parameters (whole numbers: `openspiel:breakthrough rows=6 columns=6`).
"""

from __future__ import annotations

import hashlib
from typing import ClassVar

import pyspiel

from ..errors import NotationError, OptionError, quote
from ..game import Game, State, nothing_to_undo

#: What the library can play: OpenSpiel's game type must say so.
NEEDED = {
    "dynamics": pyspiel.GameType.Dynamics.SEQUENTIAL,
    "chance_mode": pyspiel.GameType.ChanceMode.DETERMINISTIC,
    "information": pyspiel.GameType.Information.PERFECT_INFORMATION,
}


def load_game(name: str, **options: int) -> OpenSpielGame:
    """The OpenSpiel game `name` with its parameters `options`; OptionError
    naming the reason when OpenSpiel has no such game or the library cannot
    play it."""
    if name not in pyspiel.registered_names():
        raise OptionError(f"OpenSpiel has no game {quote(name)}")
    try:
        spiel = pyspiel.load_game(name, dict(options))
    except pyspiel.SpielError as exc:
        raise OptionError(f"openspiel:{name}: {exc}") from None
    kind = spiel.get_type()
    for field, value in NEEDED.items():
        if getattr(kind, field) != value:
            raise OptionError(f"openspiel:{name} is not {field} {value.name.lower()}")
    if spiel.num_players() != 2:
        raise OptionError(f"openspiel:{name} is for {spiel.num_players()} players, not 2")
    cls = type(
        f"OpenSpiel_{name}",
        (OpenSpielGame,),
        {"name": f"openspiel:{name}", "title": kind.long_name},
    )
    game: OpenSpielGame = cls(spiel, options)
    return game


class OpenSpielGame(Game["OpenSpielState"]):
    """An OpenSpiel game played by the library (built by `load_game`)."""

    player_names: ClassVar[tuple[str, str]] = ("first", "second")

    def __init__(self, spiel: pyspiel.Game, options: dict[str, int]) -> None:
        super().__init__(**options)
        self.spiel = spiel
        self.num_moves = spiel.num_distinct_actions()
        self._set_symmetries([])
        start = spiel.new_initial_state()
        #: OpenSpiel's text of each action, for either player -> the action.
        self.action_names: dict[str, int] = {}
        for player in (1, 0):
            for action in range(self.num_moves):
                self.action_names[start.action_to_string(player, action).lower()] = action

    @property
    def max_length(self) -> int:
        """OpenSpiel's bound on the number of moves in a game."""
        return int(self.spiel.max_game_length())

    def new_state(self) -> OpenSpielState:
        """The OpenSpiel game's initial state."""
        return OpenSpielState(self)

    def _parse_move(self, text: str) -> int:
        key = text.strip().lower()
        if key.isdigit() and int(key) < self.num_moves:
            return int(key)
        if key in self.action_names:
            return self.action_names[key]
        raise NotationError(text, f"an action number 0..{self.num_moves - 1} or its text")

    def _format_move(self, move: int) -> str:
        return str(move)

    def render_text(self, state: OpenSpielState, color: bool = False) -> str:
        """OpenSpiel's text of the state."""
        outcome = state.outcome()
        status = (
            f"{self.player_names[state.to_move]} to move"
            if outcome is None
            else f"result: {outcome.result(self.player_names)}"
        )
        return f"{state.spiel}\n{status}"


class OpenSpielState(State[OpenSpielGame]):
    """A position of an OpenSpiel game; undo keeps the states before each move."""

    def __init__(self, game: OpenSpielGame) -> None:
        self.game = game
        self.spiel: pyspiel.State = game.spiel.new_initial_state()
        self.history: list[int] = []
        #: The state before each move (undo goes back to it).
        self._before: list[pyspiel.State] = []
        self._sync()

    def _sync(self) -> None:
        spiel = self.spiel
        self.to_move = max(spiel.current_player(), 0) if not spiel.is_terminal() else (
            len(self.history) % 2
        )
        self.hashes = self.recompute_hashes()

    def legal_moves(self) -> list[int]:
        """OpenSpiel's legal actions."""
        return [] if self.spiel.is_terminal() else list(self.spiel.legal_actions())

    def make(self, move: int) -> None:
        """Apply an action (no check: the search's fast path)."""
        self._before.append(self.spiel.clone())
        self.spiel.apply_action(move)
        self.history.append(move)
        self._sync()

    def undo(self) -> int:
        """Take back the last action (from a kept clone) and return it."""
        try:
            move = self.history.pop()
        except IndexError:
            raise nothing_to_undo() from None
        self.spiel = self._before.pop()
        self._sync()
        return move

    def is_over(self) -> bool:
        """Whether OpenSpiel says the game is over."""
        return bool(self.spiel.is_terminal())

    def winner(self) -> int | None:
        """The player with the higher return at the end; None for a draw or while playing."""
        if not self.spiel.is_terminal():
            return None
        first, second = self.spiel.returns()
        return None if first == second else (0 if first > second else 1)

    def end_reason(self) -> str:
        """Why the game ended, in words."""
        return "draw" if self.winner() is None else "won"

    def copy(self) -> OpenSpielState:
        """An independent copy of the state (the OpenSpiel state cloned)."""
        other = OpenSpielState.__new__(OpenSpielState)
        other.game = self.game
        other.spiel = self.spiel.clone()
        other.history = list(self.history)
        other._before = [before.clone() for before in self._before]
        other.to_move = self.to_move
        other.hashes = list(self.hashes)
        return other

    def recompute_hashes(self) -> list[int]:
        """The state's hash computed from scratch (from OpenSpiel's text of it)."""
        text = f"{self.spiel.current_player()}\n{self.spiel}".encode()
        return [int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")]

