"""Every game as a PettingZoo AEC environment, made as PettingZoo's classic
environments are (`env()` wraps `raw_env` in the same three wrappers).

The agents are "player_0" (the game's first player) and "player_1".  An
action is a move index (`Discrete(game.num_moves)`, the same for every
position, so the table from action to move is the identity); the
observation is a dict of the game's planes seen by the observing agent
(`boardgames.planes`) and the `action_mask` of its legal moves.  The agent
to act is always the game's side to move, so a game's extra turns
(HexiFence, dots-and-boxes) give the same agent several steps in a row.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..errors import IllegalMoveError, OptionError, quote
from ..game import Game, State
from ..options import check_whole
from ..planes import Array, Planes
from ..registry import game_planes, get_game
from .images import Image, rgb_image

AGENTS = ("player_0", "player_1")
RENDER_MODES = ["ansi", "rgb_array", "human"]


def env(game: str, *, render_mode: str | None = None, **options: Any) -> AECEnv:
    """The game `game` as a PettingZoo AEC environment, with PettingZoo's
    wrappers for classic games: an illegal action ends the game and costs the
    agent that made it -1 (`TerminateIllegalWrapper`), an action outside the
    action space fails an assertion, and the API is used in order.

    `options`: the game's own (`size=4`, `rows=2, cols=2`), `margin=True`
    for the final score difference as the reward in scored games,
    `max_cycles=N` to truncate the game after N moves.
    """
    aec: AECEnv = raw_env(game, render_mode=render_mode, **options)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)


class raw_env(AECEnv, EzPickle):  # noqa: N801  (PettingZoo's name for the unwrapped class)
    """One game as an AEC environment, without the wrappers of `env`."""

    def __init__(
        self,
        game: str,
        *,
        render_mode: str | None = None,
        margin: bool = False,
        max_cycles: int | None = None,
        **options: int,
    ) -> None:
        EzPickle.__init__(
            self, game, render_mode=render_mode, margin=margin, max_cycles=max_cycles, **options
        )
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise OptionError(
                f"unknown render mode {quote(render_mode)}; known: {', '.join(RENDER_MODES)}"
            )
        if not isinstance(margin, bool):
            raise OptionError(f"margin is True or False, not {quote(margin)}")
        self.game: Game[Any] = get_game(game, **options)
        self.planes: Planes[Any] = game_planes(self.game)
        self.margin = margin and self.game.scored
        self.max_cycles = None if max_cycles is None else check_whole("max_cycles", max_cycles, 1)
        self.render_mode = render_mode
        name = self.game.name.replace(":", "_")
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": f"boardgames_{name}_v0",
            "is_parallelizable": False,
            "render_fps": 2,
        }
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        moves = self.game.num_moves
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, self.planes.full_shape, dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (moves,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(AGENTS, observation)
        self.action_spaces = dict.fromkeys(AGENTS, spaces.Discrete(moves))
        self.position: State[Any] = self.game.new_state()
        self._reset_books()

    # --- the API ----------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of `agent`: the planes and the action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of `agent`: one action per move index."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Array]:
        """What `agent` sees: its planes (`observation`) and the legal actions (`action_mask`)."""
        player = AGENTS.index(agent)
        mask = np.zeros(self.game.num_moves, dtype=np.int8)
        if player == self.position.to_move and not self.position.is_over():
            mask[self.position.legal_moves()] = 1
        return {"observation": self.planes.encode(self.position, player), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `options={"position": text}` starts from a position in
        the game's own format (what `state.to_text()` writes)."""
        if seed is not None:
            self.np_random_seed = seed
        position = (options or {}).get("position")
        self.position = self.game.new_state() if position is None else self.game.parse_position(
            position
        )
        self._reset_books()

    def _reset_books(self) -> None:
        self.agents = list(AGENTS)
        self.moves = 0
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, self.position.is_over())
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.position.to_move]

    def step(self, action: Any) -> None:
        """Play `action` for the selected agent; the side to move is selected next."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.position
        move = int(action)
        if move not in state.legal_moves():
            raise IllegalMoveError(str(action), f"not a legal action for {agent} here")
        self._cumulative_rewards[agent] = 0.0
        state.make(move)
        self.moves += 1
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        if state.is_over():
            self.rewards = dict(zip(AGENTS, self.final_rewards()))
            self.terminations = dict.fromkeys(AGENTS, True)
            for info in self.infos.values():
                info["outcome"] = state.outcome()
        elif self.max_cycles is not None and self.moves >= self.max_cycles:
            self.truncations = dict.fromkeys(AGENTS, True)
        self.agent_selection = AGENTS[state.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def final_rewards(self) -> tuple[float, float]:
        """Both players' rewards in the finished game: +1/-1 (0 each for a draw),
        or the score difference when `margin` is on."""
        if self.margin:
            a, b = self.position.scores()
            return float(a - b), float(b - a)
        winner = self.position.winner()
        if winner is None:
            return 0.0, 0.0
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def render(self) -> str | Image | None:
        """The board in the render mode chosen: text, an RGB image, or printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode (ansi, rgb_array or human)")
            return None
        if self.render_mode == "rgb_array":
            return rgb_image(self.planes, self.position)
        text = self.game.render_text(self.position)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release: the board is drawn without a window."""
