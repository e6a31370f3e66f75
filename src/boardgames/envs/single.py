"""One side of a game as a Gymnasium environment, a library AI playing the other.

`against("dots", ai="random", rows=2, cols=2)` is a `gymnasium.Env`: the
agent acts by move index and observes the game's planes and an
`action_mask` as in `env`; the AI answers (with every extra turn it earns)
inside `step`.  The reward is +1/-1/0 when the game ends (or the score
margin with `margin=True`); an illegal action ends the episode with -1, as
in the PettingZoo environments.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..ai import make_player
from ..budget import Limits
from ..errors import OptionError, quote
from ..game import Game, State
from ..planes import Planes
from ..players import Player
from ..registry import game_planes, get_game
from .images import Image, rgb_image

#: The opponent's budget unless one is given: two plies (fast, and the same move every time).
DEFAULT_LIMITS = Limits(depth=2)


def against(
    game: str,
    ai: str = "default",
    *,
    side: int | None = 0,
    limits: Limits | None = None,
    margin: bool = False,
    render_mode: str | None = None,
    **options: int,
) -> AgainstAI:
    """The game `game` (with its `options`) for one agent against the AI spec
    `ai` (`"alphabeta:depth=3"`, `"random"`, ...).

    `side` is the agent's side (0 moves first; None: drawn at each reset);
    `limits` the AI's budget for each move (default: `DEFAULT_LIMITS`).
    """
    return AgainstAI(
        game, ai, side=side, limits=limits, margin=margin, render_mode=render_mode, **options
    )


class AgainstAI(gymnasium.Env[dict[str, Any], np.int64]):
    """A game against a library AI, for one agent (see `against`)."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 2}

    def __init__(
        self,
        game: str,
        ai: str = "default",
        *,
        side: int | None = 0,
        limits: Limits | None = None,
        margin: bool = False,
        render_mode: str | None = None,
        **options: int,
    ) -> None:
        if side not in (0, 1, None):
            raise OptionError(f"side is 0, 1 or None, not {quote(side)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"unknown render mode {quote(render_mode)}")
        self.game: Game[Any] = get_game(game, **options)
        self.planes: Planes[Any] = game_planes(self.game)
        self.opponent: Player[Any] = make_player(self.game, ai)
        self.limits = limits if limits is not None else DEFAULT_LIMITS
        self.side_choice = side
        self.side = 0 if side is None else side
        self.margin = bool(margin) and self.game.scored
        self.render_mode = render_mode
        moves = self.game.num_moves
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, self.planes.full_shape, dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (moves,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(moves)
        self.position: State[Any] = self.game.new_state()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a game; the library's AI moves first when it has the first turn."""
        super().reset(seed=seed)
        if self.side_choice is None:
            self.side = int(self.np_random.integers(2))
        self.opponent.reset()
        self.position = self.game.new_state()
        self._answer()
        return self._observe(), {"side": self.side}

    def step(
        self, action: Any
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play `action`, then the AI's replies until it is the agent's turn or the end."""
        state = self.position
        if state.is_over():
            raise OptionError("the game is over: call reset()")
        move = int(action)
        if move not in state.legal_moves():
            return self._observe(), -1.0, True, False, {"illegal": move}
        state.make(move)
        self._answer()
        over = state.is_over()
        info: dict[str, Any] = {"outcome": state.outcome()} if over else {}
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._reward() if over else 0.0, over, False, info

    def _answer(self) -> None:
        """The AI's moves until the agent is to move or the game is over."""
        state = self.position
        while not state.is_over() and state.to_move != self.side:
            state.make(self.opponent.choose(state, self.limits))

    def _reward(self) -> float:
        state = self.position
        if self.margin:
            scores = state.scores()
            return float(scores[self.side] - scores[1 - self.side])
        winner = state.winner()
        return 0.0 if winner is None else (1.0 if winner == self.side else -1.0)

    def _observe(self) -> dict[str, Any]:
        mask = np.zeros(self.game.num_moves, dtype=np.int8)
        if not self.position.is_over():
            mask[self.position.legal_moves()] = 1
        return {"observation": self.planes.encode(self.position, self.side), "action_mask": mask}

    def render(self) -> str | Image | None:
        """The board in the render mode chosen: text, an RGB image, or printed."""
        if self.render_mode == "rgb_array":
            return rgb_image(self.planes, self.position)
        text = self.game.render_text(self.position)
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
        return None
