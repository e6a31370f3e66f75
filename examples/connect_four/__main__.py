"""`python examples/connect_four`: play one quick game between two AIs and show it."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import connect_four  # noqa: E402, F401  (registers connect4)
from boardgames.ai import make_player  # noqa: E402
from boardgames.registry import get_game

state = get_game("connect4").new_state()
players = [make_player(state.game, "alphabeta:depth=4"), make_player(state.game, "random:seed=1")]
while state.outcome() is None:
    state.make(players[state.to_move].choose(state))
print(state)
print("result:", state.result(), f"({state.outcome().reason})")
