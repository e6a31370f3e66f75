"""The library's games as OpenSpiel games (the `openspiel` extra).

`register()` registers every game declared so far (built-in games and the
plugins already imported) as a pyspiel Python game named
"boardgames_<name>" (`short_name`), whose parameters are the game's options:
`pyspiel.load_game("boardgames_squatter", {"size": 4})`.  Then OpenSpiel's
algorithms (MCTS, AlphaZero, evaluate_bots, ...) and its checks work on it.

A state holds one position of the library's game and plays on it with the
game's own make; OpenSpiel's actions are the game's move indices.  The
observation tensor is the game's planes (`boardgames.planes`, float32,
channels last) seen by the observing player; a perfect-information game's
position is all a player knows that matters for play, so the
information-state tensor is the same, while the information-state string is
the history of actions (perfect recall).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..game import Game, State
from ..planes import Planes
from ..registry import game_names, game_planes, get_game

PREFIX = "boardgames_"


def short_name(game: str) -> str:
    """OpenSpiel's name of the library's game `game` ("boardgames_squatter")."""
    return PREFIX + game.replace(":", "_").replace("-", "_")


def register(names: list[str] | None = None) -> list[str]:
    """Register the games `names` (default: every declared game that is not
    itself an OpenSpiel game) with pyspiel; their OpenSpiel names.  Registering
    a game again replaces it (a plugin imported later can be added so)."""
    registered = []
    for name in names if names is not None else game_names():
        if name.startswith("openspiel:"):
            continue
        game_type, factory = _declaration(name)
        pyspiel.register_game(game_type, factory)
        registered.append(game_type.short_name)
    return registered


def _declaration(name: str) -> tuple[pyspiel.GameType, Any]:
    """The pyspiel GameType of the library's game `name` and its game class."""
    default = get_game(name)
    parameters = {key: int(value) for key, value in default.params.items()}
    game_type = pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"boardgames {default.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )

    # A class, not a function: pyspiel keeps its factories until the process
    # ends, and a class outlives the interpreter's clean-up where a function
    # would be freed after it (a crash at exit).
    # Kept in this module under its name, so that pickle finds it.
    factory = type(_class_name(name), (SpielGame,), {"library_name": name, "kind": game_type})
    globals()[factory.__name__] = factory
    return game_type, factory


def _class_name(name: str) -> str:
    return "SpielGame_" + "".join(c if c.isalnum() else "_" for c in name)


class SpielGame(pyspiel.Game):
    """One of the library's games, at one size, as a pyspiel game."""

    #: The library's name of the game and its OpenSpiel type (set by `register`).
    library_name: str
    kind: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options = {**self.kind.parameter_specification, **(params or {})}
        game = get_game(self.library_name, **{k: int(v) for k, v in options.items()})
        self.game: Game[Any] = game
        self.planes: Planes[Any] = game_planes(self.game)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.game.num_moves,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.game.max_length,
        )
        super().__init__(self.kind, info, options)

    def new_initial_state(self) -> SpielState:
        """A new pyspiel state at the start of the library's game."""
        return SpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Observer:
        """The observer OpenSpiel asks for: the planes, or the history for perfect recall."""
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        history = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.planes, history)


class Position:
    """The library's position inside a pyspiel state: copied with the game's
    own `copy` (pyspiel clones a Python state with deepcopy), pickled as its
    game and moves."""

    def __init__(self, state: State[Any]) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return Position(self.state.copy())

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.state.game
        return (_restore, (game.name, dict(game.params), list(self.state.history)))


def _restore(name: str, params: dict[str, int], moves: list[int]) -> Position:
    state = get_game(name, **params).new_state()
    for move in moves:
        state.make(move)
    return Position(state)


class SpielState(pyspiel.State):
    """A position of the library's game as a pyspiel state."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self.position = Position(game.game.new_state())

    def current_player(self) -> int:
        """The side to move, or pyspiel's terminal id once the game is over."""
        state = self.position.state
        return int(pyspiel.PlayerId.TERMINAL) if state.is_over() else state.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.position.state.legal_moves())

    def _apply_action(self, action: int) -> None:
        self.position.state.make(action)

    def _action_to_string(self, player: int, action: int) -> str:
        text: str = self.position.state.game.format_move(action)
        return text

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.position.state.is_over()

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser, 0 each for a draw or while playing."""
        state = self.position.state
        winner = state.winner() if state.is_over() else None
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        state = self.position.state
        text: str = state.game.render_text(state)
        return text


class Observer:
    """OpenSpiel's observer of a game: the planes as a float32 tensor, and as
    text the position (or, for perfect recall, the actions so far)."""

    def __init__(self, planes: Planes[Any], history: bool) -> None:
        self.planes = planes
        self.history = history
        self.tensor = np.zeros(int(np.prod(planes.full_shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(planes.full_shape)}

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill the tensor with the planes of `state` as `player` sees them."""
        self.dict["observation"][...] = self.planes.encode(state.position.state, player)

    def string_from(self, state: SpielState, player: int) -> str:
        """The text of `state`: its actions (perfect recall) or its position."""
        position = state.position.state
        if self.history:
            return " ".join(str(a) for a in state.history())
        return f"{position.to_move}\n{position.to_text()}"





def __getattr__(name: str) -> Any:
    """A registered game's class by name, registering every game first (what
    unpickling a game in a new process needs)."""
    if name.startswith("SpielGame_"):
        register()
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
