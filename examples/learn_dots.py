"""A tabular Q-learning agent learns dots-and-boxes 2x2 against the random AI.

    python examples/learn_dots.py --episodes 4000 --plot docs/learning-dots.svg

The agent plays first through `boardgames.envs.against`, the Gymnasium
environment with a library AI as its opponent.  It keeps one row of action
values per position it has met (the observation's bytes are the key), picks
an action epsilon-greedily among the legal ones (`action_mask`), and moves
the value of what it played towards the reward plus the best value of the
position it reached (one-step Q-learning; the reward is +1/-1/0 at the end).
Every `--every` episodes it plays `--games` greedy games and reports its win
rate; `--plot` draws the curve as an SVG picture.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from boardgames.envs import against
from boardgames.io import atomic_write_text


@dataclass
class QAgent:
    """Action values per observed position, learnt by one-step Q-learning."""

    actions: int
    alpha: float = 0.3
    gamma: float = 1.0
    epsilon: float = 0.2
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))
    table: dict[bytes, np.ndarray] = field(default_factory=dict)

    def values(self, observation: np.ndarray) -> np.ndarray:
        key = observation.tobytes()
        if key not in self.table:
            self.table[key] = np.zeros(self.actions)
        return self.table[key]

    def act(self, obs: dict[str, np.ndarray], explore: bool) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        if explore and self.rng.random() < self.epsilon:
            return int(self.rng.choice(legal))
        values = self.values(obs["observation"])[legal]
        return int(legal[self.rng.choice(np.flatnonzero(values == values.max()))])

    def learn(self, obs, action, reward, after, done) -> None:
        target = reward
        if not done:
            legal = np.flatnonzero(after["action_mask"])
            target += self.gamma * self.values(after["observation"])[legal].max()
        row = self.values(obs["observation"])
        row[action] += self.alpha * (target - row[action])


def play(env, agent: QAgent, explore: bool, seed: int | None = None) -> float:
    """One episode (learning when `explore`); the final reward."""
    obs, _ = env.reset(seed=seed)
    while True:
        action = agent.act(obs, explore)
        after, reward, done, truncated, _ = env.step(action)
        if explore:
            agent.learn(obs, action, reward, after, done)
        if done or truncated:
            return reward
        obs = after


def win_rate(env, agent: QAgent, games: int) -> float:
    return sum(play(env, agent, explore=False) > 0 for _ in range(games)) / games


def train(episodes: int, every: int, games: int, seed: int = 0) -> list[tuple[int, float]]:
    """(episodes played, greedy win rate) after every `every` episodes, from 0."""
    env = against("dots", ai=f"random:seed={seed}", rows=2, cols=2)
    env.reset(seed=seed)
    agent = QAgent(env.action_space.n, rng=np.random.default_rng(seed))
    curve = [(0, win_rate(env, agent, games))]
    for episode in range(1, episodes + 1):
        play(env, agent, explore=True)
        if episode % every == 0:
            curve.append((episode, win_rate(env, agent, games)))
    return curve


def svg(curve: list[tuple[int, float]]) -> str:
    """The win-rate curve as a small SVG line chart."""
    width, height, pad = 480, 240, 40
    last = max(n for n, _ in curve) or 1
    points = " ".join(
        f"{pad + (width - 2 * pad) * n / last:.1f},{height - pad - (height - 2 * pad) * r:.1f}"
        for n, r in curve
    )
    grid = "".join(
        f'<line x1="{pad}" x2="{width - pad}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
        f'<text x="{pad - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end">{p}%</text>'
        for p in (0, 25, 50, 75, 100)
        for y in [height - pad - (height - 2 * pad) * p / 100]
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif">{grid}'
        f'<polyline points="{points}" fill="none" stroke="#c82828" stroke-width="2"/>'
        f'<text x="{width / 2}" y="{height - 8}" font-size="12" text-anchor="middle">'
        f"episodes against random (0 to {last})</text>"
        f'<text x="{width / 2}" y="18" font-size="13" text-anchor="middle">'
        "Q-learning on dots 2x2: greedy win rate against random</text></svg>\n"
    )


def main(argv: list[str] | None = None) -> list[tuple[int, float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=4000)
    parser.add_argument("--every", type=int, default=500)
    parser.add_argument("--games", type=int, default=200, help="greedy games per measure")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, help="write the curve to this SVG file")
    args = parser.parse_args(argv)
    curve = train(args.episodes, args.every, args.games, args.seed)
    for episodes, rate in curve:
        print(f"after {episodes:>6} episodes: wins {rate:.0%} of {args.games} greedy games")
    if args.plot:
        atomic_write_text(args.plot, svg(curve))
        print(f"curve saved to {args.plot}")
    return curve


if __name__ == "__main__":
    main()
