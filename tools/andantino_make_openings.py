"""Which Andantino positions make fair match openings (the shipped table)?

    python tools/andantino_make_openings.py --seed 1 --general 24 --threat 8 --double 6

A quick look: `python tools/andantino_make_openings.py --general 2 --threat 1
--double 0`.  The seeds and options that made the shipped openings are in
the docstring of `boardgames.games.andantino.openings`.

Prints data lines (`name | kind | moves | check | comment`) to paste into
the OPENINGS table.  Openings are distinct up to the board's 12 symmetries.

- general: uniformly random legal moves (3 to 8 plies), kept only when a
  depth-3 search with the default evaluator scores the position within
  +-`--balance` for the side to move (no forced win seen either way).
- threat: the side to move has a stone with five enemy stones around it and
  must block the sixth cell (an enclosure, not a five); it has no winning
  cell of its own, a depth-3 search after the block does not see a loss,
  and after the block the attacker has no forcing line (ladder) that the
  threat-space search (games/andantino/ladders.py, 9 threats deep) finds.
  With `--search S`, the default AI's S-second search of the position must
  also score it above -`--margin` for the side to move.
- double: no winning cell on the board yet, but the opponent has a cell T
  after which it holds two enclosing cells (one stone cannot block both);
  the side to move must prevent that now.  `Y` is a move of the side to move
  that does not prevent it (the check plays Y, T and both finishes).
  A depth-4 search from the position does not see a loss.

Games come from a surround-seeking random policy (most moves next to enemy
stones that already have two or more of ours around them).
"""

from __future__ import annotations

import argparse
import random
import sys

from boardgames.errors import BoardgamesError
from boardgames.games.andantino.experts import LOST_NEXT, WIN_NEXT, ThreatEvaluator
from boardgames.games.andantino.geometry import BIT, NEIGHBOURS6
from boardgames.games.andantino.ladders import Ladders
from boardgames.games.andantino.threats import line_windows, surround, winning_cells
from boardgames.registry import get_game
from boardgames.search import Searcher

GAME = get_game("andantino")
#: --search and --margin (see main).
CHECK = {"search": 0.0, "margin": 450.0}


def canon(state) -> int:
    return min(state.hashes)


def text(moves: list[int]) -> str:
    return " ".join(GAME.format_move(m) for m in moves)


def enclosure_wins(state, player: int) -> list[int]:
    """`player`'s legal cells that win by enclosing a lone enemy stone and do
    not complete a five."""
    own, enemy = state.bits[player], state.bits[1 - player]
    fives = line_windows(own, enemy)[3]
    cells = surround(own, enemy)[2] & ~fives
    return [c for c in winning_cells(state, player) if BIT[c] & cells]


def score(state, depth: int) -> float:
    engine = Searcher(ThreatEvaluator(), algorithm="negascout")
    return engine.search(state.copy(), depth=depth).score


def surround_move(state, rng: random.Random, attacker: int | None = None) -> int:
    legal = state.legal_moves()
    if rng.random() < 0.25 or (attacker is not None and state.to_move != attacker):
        return rng.choice(legal)
    me = state.to_move
    board = state.board

    def value(cell: int) -> float:
        total = 0.0
        for n in NEIGHBOURS6[cell]:
            if n is not None and n >= 0 and board[n] == 1 - me:
                own = sum(1 for m in NEIGHBOURS6[n] if m is not None and m >= 0 and board[m] == me)
                total += own * own
        return total + rng.random()

    return max(legal, key=value)


def general(rng: random.Random, count: int, balance: float, seen: set[int]) -> list[str]:
    out: list[str] = []
    while len(out) < count:
        state = GAME.new_state()
        plies = rng.randint(3, 8)
        moves = []
        for _ in range(plies):
            m = rng.choice(state.legal_moves())
            state.make(m)
            moves.append(m)
        if state.is_over() or canon(state) in seen:
            continue
        if winning_cells(state, 0) or winning_cells(state, 1):
            continue
        s = score(state, 3)
        if abs(s) > balance:
            continue
        seen.add(canon(state))
        side = GAME.player_names[state.to_move]
        out.append(
            f"g{len(out) + 1:02d} | general | {text(moves)} | - | "
            f"random {plies} plies, {side} to move, depth-3 score {s:+.0f}"
        )
    return out


def find_threat(state) -> str | None:
    me, opp = state.to_move, 1 - state.to_move
    if winning_cells(state, me):
        return None
    wins = winning_cells(state, opp)
    encl = enclosure_wins(state, opp)
    if len(wins) != 1 or len(encl) != 1:
        return None
    x = encl[0]
    others = [m for m in state.legal_moves() if m != x]
    if not others:
        return None
    state.make(x)
    ok = (
        not state.is_over()
        and score(state, 3) < WIN_NEXT / 2
        and Ladders(9, 3000).win(state) is None
    )
    state.undo()
    if not ok or not searched_open(state):
        return None
    y = others[-1]
    return f"threat={GAME.format_move(x)}/{GAME.format_move(y)}"


def searched_open(state) -> bool:
    """With --search: the default AI's search scores the position above
    -margin for the side to move."""
    if not CHECK["search"]:
        return True
    from boardgames.ai import make_player

    player = make_player(GAME, "default")
    result = player.engine.search(state.copy(), time=CHECK["search"])
    return result.score > -CHECK["margin"]


def find_double(state, rng: random.Random) -> str | None:
    me, opp = state.to_move, 1 - state.to_move
    if winning_cells(state, me) or winning_cells(state, opp):
        return None
    for y in rng.sample(state.legal_moves(), min(4, len(state.legal_moves()))):
        state.make(y)
        found = None
        if not state.is_over() and not winning_cells(state, me):
            for t in state.legal_moves():
                state.make(t)
                if (
                    not state.is_over()
                    and not winning_cells(state, me)
                    and len(enclosure_wins(state, opp)) >= 2
                ):
                    found = t
                state.undo()
                if found is not None:
                    break
        state.undo()
        if found is not None:
            if score(state, 4) <= LOST_NEXT / 2:
                return None
            return f"double={GAME.format_move(found)}/{GAME.format_move(y)}"
    return None


def enclosure(
    rng: random.Random, kind: str, count: int, seen: set[int], start: int,
    attacker: int | None = None,
) -> list[str]:
    out: list[str] = []
    tries = 0
    while len(out) < count and tries < 5000:
        tries += 1
        state = GAME.new_state()
        moves: list[int] = []
        for _ in range(rng.randint(8, 22)):
            m = surround_move(state, rng, attacker)
            state.make(m)
            moves.append(m)
            if state.is_over():
                break
            if len(moves) < 6 or canon(state) in seen or state.to_move == attacker:
                continue
            check = find_threat(state) if kind == "threat" else find_double(state, rng)
            if check is None:
                continue
            seen.add(canon(state))
            side = GAME.player_names[state.to_move]
            other = GAME.player_names[1 - state.to_move]
            target, ignore = check.split("=")[1].split("/")
            if kind == "threat":
                comment = f"{side} to move must stop {other} enclosing at {target}"
            else:
                comment = f"{side} to move must stop {other} playing {target} (two enclosing cells)"
            out.append(
                f"e{start + len(out):02d} | enclosure | {text(moves)} | {check} | {comment}"
            )
            break
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--general", type=int, default=24,
                        help="general openings to make (default 24)")
    parser.add_argument("--threat", type=int, default=8,
                        help="enclosure-threat openings to make (default 8)")
    parser.add_argument("--double", type=int, default=6,
                        help="double-threat openings to make (default 6)")
    parser.add_argument("--balance", type=float, default=150.0,
                        help="largest depth-3 score of a general opening (default 150)")
    parser.add_argument("--attacker", choices=("white", "black"), default=None,
                        help="only this side seeks surrounds (threats against the other)")
    parser.add_argument("--first", type=int, default=1, help="number of the first e-opening")
    parser.add_argument("--search", type=float, default=0.0,
                        help="seconds of the default AI's search that must score a threat "
                        "opening above -margin for the side to move (0: no such check)")
    parser.add_argument("--margin", type=float, default=450.0,
                        help="with --search, the lowest score allowed is -margin (default 450)")
    args = parser.parse_args()
    CHECK.update(search=args.search, margin=args.margin)
    rng = random.Random(args.seed)
    seen: set[int] = set()
    for line in general(rng, args.general, args.balance, seen):
        print(line, flush=True)
    attacker = None if args.attacker is None else GAME.player_names.index(args.attacker)
    threats = enclosure(rng, "threat", args.threat, seen, args.first, attacker)
    for line in threats:
        print(line, flush=True)
    first = args.first + len(threats)
    for line in enclosure(rng, "double", args.double, seen, first, attacker):
        print(line, flush=True)


if __name__ == "__main__":
    try:
        main()
    except (BoardgamesError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
