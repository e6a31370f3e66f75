"""The library's default Searcher against easyAI's Negamax on Connect Four.

Both search 8 moves deep from the empty board, each on its own game code:
easyAI's `Negamax(8)` on easyAI's `ConnectFour` (numpy board, a game copy
per move, win/loss scoring) and `Searcher()` (NegaScout, transposition
table with symmetry, killers, history, iterative deepening to depth 8) on
`examples/connect_four`.  What is compared is what a user gets from
each library out of the box: the time to a depth-8 answer, in CPU time
(`time.process_time`, so a busy machine slows neither side's figure), the
median of a few rounds that alternate the two.

easyAI is an optional benchmark dependency (`pip install boardgames-ai[bench]`,
which pins easyAI==2.0.12).  Run as a script:

    python benchmarks/easyai_compare.py [depth]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from statistics import median
from time import process_time


def easyai_available() -> bool:
    try:
        import easyAI  # noqa: F401
    except ImportError:
        return False
    return True


def easyai_search(depth: int = 8) -> tuple[int, float]:
    """(chosen column, CPU seconds) of easyAI's Negamax from the start."""
    from easyAI import AI_Player, Negamax
    from easyAI.games.ConnectFour import ConnectFour

    ai = Negamax(depth)
    game = ConnectFour([AI_Player(ai), AI_Player(ai)])
    start = process_time()
    move = ai(game)
    return int(move), process_time() - start


def engine_search(depth: int = 8) -> tuple[int, float, int]:
    """(chosen column, CPU seconds, nodes) of the default Searcher from the start."""
    import connect_four  # noqa: F401  (registers the game)

    from boardgames.registry import get_game
    from boardgames.search import Searcher

    state = get_game("connect4").new_state()
    start = process_time()
    result = Searcher().search(state, depth=depth)  # the table's allocation included
    elapsed = process_time() - start
    assert result.depth == depth and result.completed
    return result.move, elapsed, result.nodes


def compare(depth: int = 8, rounds: int = 3, engine_runs: int = 5) -> dict[str, float]:
    """Medians over `rounds` rounds; each round times easyAI once and the
    engine `engine_runs` times (its runs are short), alternating."""
    engine_search(depth)  # imports and the game's tables, out of the figure
    easy_times, engine_times, speedups = [], [], []
    for _ in range(rounds):
        engine_move, engine_time, engine_nodes = engine_search(depth)
        runs = [engine_time]
        easy_move, easy_time = easyai_search(depth)
        runs += [engine_search(depth)[1] for _ in range(engine_runs - 1)]
        easy_times.append(easy_time)
        engine_times.append(median(runs))
        speedups.append(easy_time / median(runs))
    return {
        "depth": depth,
        "easyai_seconds": median(easy_times),
        "engine_seconds": median(engine_times),
        "engine_nodes": engine_nodes,
        "speedup": median(speedups),
        "easyai_move": easy_move,
        "engine_move": engine_move,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("depth", type=int, nargs="?", default=8, help="search depth (default 8)")
    depth = parser.parse_args().depth
    if depth < 1:
        parser.error("depth must be at least 1")
    if not easyai_available():
        print("easyAI is not installed: pip install 'easyAI==2.0.12'")
        raise SystemExit(1)
    f = compare(depth)
    print(f"Connect Four, depth {depth} from the start (CPU time, medians of 3 rounds)")
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
