"""Game-independent search over the `Game`/`State` protocol.

- `Searcher`: minimax, alpha-beta and NegaScout with iterative deepening
  (`search`, or `iterate` for one result per depth), a transposition
  table keyed by canonical symmetric hashes, killer and history move
  ordering, and time/node limits;
- `MCTS`: UCT Monte Carlo tree search with random or evaluator playouts;
- `solve`: the exact value of a position, by alpha-beta to the end.

Limits are one `budget.Limits(depth, time, nodes, stop)` value, or the
keywords `depth=`, `time=`, `nodes=`.  A search or solve that runs out of
its budget inside the tree raises `errors.SearchStopped`; `Searcher` and
`MCTS` catch it and return their best move so far.

Scores are from the side to move; a move that gives the same player
another turn is not negated.  See docs/search.md.
"""

from ..errors import SearchStopped
from .iterative import Searcher
from .mcts import MCTS
from .result import MATE_BOUND, WIN, SearchResult, describe_score, is_proven
from .solve import solve

__all__ = [
    "MATE_BOUND",
    "MCTS",
    "WIN",
    "SearchResult",
    "SearchStopped",
    "Searcher",
    "describe_score",
    "is_proven",
    "solve",
]
