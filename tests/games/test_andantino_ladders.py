"""The threat-space search (`games.andantino.ladders`) and the default AI's
use of it at the root, checked against the rules: every line it reports is
replayed, and at each defender turn every other reply is shown to lose at
once, by playing every legal cell."""

from __future__ import annotations

import random
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames.ai import make_player
from boardgames.budget import Budget, Limits
from boardgames.games.andantino.geometry import CELL_OF_POSITION
from boardgames.games.andantino.ladders import Ladders, threats
from boardgames.games.andantino.openings import openings
from boardgames.registry import get_game
from support.andantino_positions import surround_game

GAME = get_game("andantino")
RELAXED = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))

#: A game the default AI lost as White from opening e02 (match of 2026-11-26):
#: after the first four moves White played I11 (ply 4), and Black's ladder
#: of 9 plies (five threats) enclosed White's group at L12.
E02_START = "K9 J9 I9 K10 J11 K8 I10 L8"
E02_GAME = "L9 K11 I8 M8 I11 M9 L10 M10 L11 M11 M7 K12 J8 L12"

#: A budget whose time is already spent.
SPENT = Budget(Limits(time=1.0), start=time.perf_counter() - 2)


def position(*texts: str):
    return GAME.parse_position(" ".join(texts))


def wins_at_once(state, player: int) -> bool:
    """`player` (to move) has a cell that ends the game in its favour, by the rules."""
    assert state.to_move == player
    for move in state.legal_moves():
        state.make(move)
        won = state.winner() == player
        state.undo()
        if won:
            return True
    return False


def loses_to_every_reply(state, attacker: int) -> bool:
    """The defender (to move) loses whatever it plays: each of its moves
    ends the game for the attacker or leaves the attacker a winning cell."""
    for move in state.legal_moves():
        state.make(move)
        lost = state.winner() == attacker if state.reason else wins_at_once(state, attacker)
        state.undo()
        if not lost:
            return False
    return True


def check_line(state, line: list[int]) -> None:
    """Replay a forcing line under the rules: each defender reply in it is the
    only one that does not lose at once, and the line ends in a won game or
    in a position where every defender reply loses."""
    state = state.copy()
    attacker = state.to_move
    for index, move in enumerate(line):
        if state.to_move != attacker:
            for other in state.legal_moves():
                if other != move:
                    state.make(other)
                    lost = state.winner() == attacker if state.reason else wins_at_once(
                        state, attacker
                    )
                    state.undo()
                    assert lost, f"ply {index}: {GAME.format_move(other)} also defends"
        state.make(move)
        if state.reason is not None:
            assert index == len(line) - 1 and state.winner() == attacker
            return
    assert state.to_move != attacker
    assert loses_to_every_reply(state, attacker)


def test_the_e02_ladder_is_found_and_forced():
    """Hand-checked from the lost game: after I11 Black's five threats win
    (the game went L10 M10 L11 M11 M7 K12 J8 L12 after it)."""
    moves = E02_GAME.split()
    state = position(E02_START, *moves[:5])
    assert GAME.player_names[state.to_move] == "black"
    line = Ladders().win(state)
    assert line is not None and len(line) == 9
    check_line(state, line)
    # One move before, White to move: I11 lets the ladder in, L10 does not.
    before = position(E02_START, *moves[:4])
    after_i11 = before.copy()
    after_i11.play("I11")
    assert Ladders().win(after_i11) is not None
    after_l10 = before.copy()
    after_l10.play("L10")
    assert Ladders().win(after_l10) is None


def test_too_shallow_or_too_poor_finds_nothing():
    moves = E02_GAME.split()
    state = position(E02_START, *moves[:5])
    assert Ladders(depth=3).win(state) is None  # four blocks needed
    assert Ladders(depth=4).win(state) is not None
    assert Ladders(budget=3).win(state) is None
    assert Ladders().win(GAME.new_state()) is None
    assert Ladders().win(position(E02_START)) is None  # White to move: no line


def test_bad_arguments():
    import pytest

    with pytest.raises(ValueError):
        Ladders(depth=0)
    with pytest.raises(ValueError):
        Ladders(budget=0)


def test_a_winning_cell_is_a_line_of_one():
    moves = E02_GAME.split()
    state = position(E02_START, *moves[:-1])  # Black to play L12, which encloses
    line = Ladders().win(state)
    assert line is not None and len(line) == 1
    state.make(line[0])
    assert state.winner() == 1




@RELAXED
@given(st.integers(0, 10**9), st.integers(8, 40))
def test_every_line_found_is_a_forced_win(seed, plies):
    state = surround_game(random.Random(seed), plies)
    before = state.moves_text()
    line = Ladders(depth=5, budget=300).win(state)
    assert state.moves_text() == before  # left as it was
    if line is not None:
        check_line(state, line)
    else:
        assert not threats(state, state.to_move)  # a winning cell is a line


def test_lines_in_crowded_games_are_forced_wins():
    """Deterministic companion of the property above: enough seeds that
    some lines longer than one move come up (7 of the first 200)."""
    found = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = surround_game(rng, rng.randint(8, 40))
        line = Ladders(depth=5, budget=300).win(state)
        if line is not None and len(line) > 1:
            check_line(state, line)
            found += 1
    assert found >= 1


def test_default_plays_its_ladder_and_avoids_the_opponents():
    moves = E02_GAME.split()
    black = position(E02_START, *moves[:5])
    player = make_player(GAME, "default")
    first = player.choose(black, Limits(time=1.0))
    assert first == Ladders().win(black)[0]  # type: ignore[index]
    white = position(E02_START, *moves[:4])
    move = player.choose(white, Limits(time=1.0))
    white.make(move)
    assert Ladders().win(white) is None
    off = make_player(GAME, "default:ladders=0")
    assert type(off).__name__ == "SearchPlayer"


#: A game the default AI lost as Black from g12 (with root ladders only):
#: at ply 15 it played J9, a move after which White has no forcing line,
#: but White's I8 threatened one again, and so on until White's line won.
G12_START = "J11 K10 I10 I11"
G12_GAME = "K11 J12 L10 L11 K12 M10 I9 H9 H10 G9 H11 I12 L9 K9 L8 J9 I8 J8 I7 M9 J7 I6 K7"


def test_defences_are_the_moves_without_a_line():
    state = position(G12_START, *G12_GAME.split()[:15])
    ladders = Ladders()
    safe = ladders.defences(state)
    assert 0 < len(safe) < len(state.legal_moves())
    for move in state.legal_moves():
        after = state.copy()
        after.make(move)
        assert (Ladders().win(after) is None) == (move in safe)


def test_threats_of_lines_refute_the_played_move():
    """After J9 White wins by threats of forcing lines (it did in the game);
    the default AI now plays another move."""
    state = position(G12_START, *G12_GAME.split()[:15])
    after = state.copy()
    after.play("J9")
    budget = Budget(Limits(time=60))
    assert Ladders().threat_win(after, 2, budget)
    assert not Ladders().threat_win(after, 2, SPENT)  # a budget already spent
    player = make_player(GAME, "default")
    move = player.choose(state, Limits(time=1.0))
    assert GAME.format_move(move) != "J9"


def test_pressure_depth_narrows_the_moves_that_stop_a_ladder():
    """From a game lost as White from e10 (match of 2026-11-26, ply 6):
    Black threatens a ladder; M8, N5 and N7 stop it and survive threats of
    ladders 2 deep, but 3 deep (the default) only N5 does (White played M8
    and lost)."""
    opening = next(o for o in openings() if o.name == "e10")
    state = position(opening.moves, "J8 L7 M7 M6 H9 N6")
    names = {
        spec: sorted(
            GAME.format_move(m) for m in make_player(GAME, spec)._safe_moves(state, Budget())
        )
        for spec in ("default:pressure=2", "default")
    }
    assert names == {"default:pressure=2": ["M8", "N5", "N7"], "default": ["N5"]}
    after = state.copy()
    after.play("M8")
    assert Ladders().win(after) is None
    assert Ladders().threat_win(after, 3, Budget(Limits(time=60)))


#: A position of a match game (default against seed, White to move): Black
#: would win by N10 M11 M6 if it moved now.  After White's L4 the line
#: still wins, but a search of 400 moves runs out before trying N10.
L4_GAME = (
    "J11 K10 K9 L9 L8 M8 I10 I9 L10 K11 M9 H9 H8 J9 K8 I8 J8 I7 H7 J7 I6 H6 K7 J6 K6 K5 H5 "
    "G6 G5 H10 I5 F5 J5 K4 G7 N8 G9 G8 F7 F8 I11 E7 F6 G10 F9 N9 N7 E5 E6 L11 M10 M7 L7 N6 "
    "O7 L5"
)


def test_a_known_line_is_tried_first():
    state = position(L4_GAME)
    passed = state.copy()
    passed.to_move = 1 - passed.to_move
    known = Ladders().win(passed)
    assert [GAME.format_move(m) for m in known or []] == ["N10", "M11", "M6"]
    after = state.copy()
    after.play("L4")
    assert Ladders().follows(after, known)  # type: ignore[arg-type]
    check_line(after, known)  # type: ignore[arg-type]
    assert Ladders().win(after) is None  # out of budget
    assert Ladders(budget=2000).win(after) == known
    plain = Ladders()
    plain.known = False
    l4 = GAME.parse_move("L4")
    with_line, without = Ladders().defences(state, known), plain.defences(state, known)
    assert l4 in without and l4 not in with_line
    assert set(with_line) == set(without) - {l4}


@RELAXED
@given(st.integers(0, 10**9), st.integers(8, 40))
def test_known_lines_change_no_defence_without_a_budget(seed, plies):
    """With a budget the search never runs out of, the short-cuts (a known
    line tried first, the threat of a line looked for before the opponent's
    own line, the filter) give the same defences and threats of lines, and
    a line `follows` accepts is a forced win."""
    compare_short_cuts(surround_game(random.Random(seed), plies))


def test_short_cuts_in_crowded_games():
    """Deterministic companion: enough seeds that the opponent has lines of
    more than one move (6 of the first 60 games)."""
    longer = 0
    for seed in range(60):
        rng = random.Random(seed)
        known = compare_short_cuts(surround_game(rng, rng.randint(8, 40)))
        longer += known is not None and len(known) > 1
    assert longer >= 3


def compare_short_cuts(state) -> list[int] | None:
    passed = state.copy()
    passed.to_move = 1 - passed.to_move
    known = Ladders(depth=3, budget=10**6).win(passed)
    if known is None:
        return None
    plain, short = Ladders(depth=3, budget=10**6), Ladders(depth=3, budget=10**6)
    plain.known = plain.threat_first = plain.filter = False
    assert plain.defences(state, known) == short.defences(state, known)
    budget = Budget(Limits(time=600))
    assert plain.threat_win(state, 1, budget) == short.threat_win(state, 1, budget)
    for move in state.legal_moves()[:8]:
        state.make(move)
        if state.reason is None and short.follows(state, known):
            assert Ladders(depth=3, budget=10**6).win(state) is not None
        state.undo()
    return known


#: A game lost as White from e22 (stop 20's `--seed 13` run): at ply 10
#: White played K8, and Black won by threats of forcing lines 3 deep (after
#: K8, Black's E6 threatens to enclose at F6; White must block there, and
#: Black then wins by threats 2 deep).  Checked 2 deep, K8 held.
E22_GAME = "H8 H7 G8 G9 K9 F8 F7 E7 H10 H11"
E22_HOLDING = ["E6", "E8", "G10", "I12", "L9"]


def e22_position():
    opening = next(o for o in openings() if o.name == "e22")
    return position(opening.moves, E22_GAME)


def test_the_searched_move_is_checked_three_deep():
    state = e22_position()
    player = make_player(GAME, "default")
    k8 = GAME.parse_move("K8")
    assert not player._refuted(state, k8, Budget(), (2,))
    assert player._refuted_at(state, k8, Budget()) == 1  # THREAT_DEPTHS (2, 3): 3 deep
    after = state.copy()
    after.play("K8")
    after.play("E6")
    assert [GAME.format_move(m) for m in Ladders().defences(after)] == ["F6"]
    after.play("F6")
    assert Ladders().threat_win(after, 2, Budget(Limits(time=60)))
    moves, held, cut = player._holding(state, state.legal_moves(), (2, 3), Budget())
    assert (sorted(GAME.format_move(m) for m in moves), held, cut) == (E22_HOLDING, 2, False)


def test_a_refuted_searched_move_gives_way_to_one_that_holds():
    """The search's pick is K8 (stubbed); the check refutes it 3 deep, and
    the player searches the moves that hold instead (stubbed too: the first
    of them; a long budget, so that every check ends before its deadline)."""
    state = e22_position()
    player = make_player(GAME, "default:time=60")
    calls = []

    def search(state, limits, allowed):
        calls.append(allowed)
        return GAME.parse_move("K8") if len(calls) == 1 else min(allowed)

    player._search = search
    move = player.choose(state)
    assert len(calls) == 2 and calls[0] is None
    assert sorted(GAME.format_move(m) for m in calls[1]) == E22_HOLDING
    assert move == min(calls[1])


def test_holding_moves_depth_by_depth():
    """g03 (lost as White in all of stop 20's runs): after the opening and
    I10 J8 L8 J11 M8 H9, every White move loses to threats of forcing lines
    2 deep, so none holds; a deadline already past leaves them unchecked."""
    opening = next(o for o in openings() if o.name == "g03")
    state = position(opening.moves, "I10 J8 L8 J11 M8 H9")
    player = make_player(GAME, "default")
    moves = state.legal_moves()
    assert player._holding(state, moves, (2, 3), Budget()) == (moves, 0, False)
    for move in moves:
        assert player._refuted(state, move, Budget(), (2,))
    assert player._holding(state, moves, (2, 3), SPENT) == (moves, 0, True)


#: A game lost as White from g25 (stop 21, the default seed): after White's
#: M8 (ply 24) Black played N8, away from its own stones; Black's ladder
#: J8 (threat J7) J7 (threat I6) was then unstoppable, while before N8 the
#: ladder's first move would have left White a winning cell at N8.
G25_GAME = "L10 I10 K12 K8 L8 L7 L9 I9 H9 M7 M6 H10 L11 L12 M9 G9 G10 G8 H8 I8 I11 I12 H7 I7 M8"


def cells(bits: int) -> list[int]:
    return [CELL_OF_POSITION[i] for i in range(bits.bit_length()) if bits >> i & 1]


def test_a_threat_of_a_line_away_from_the_attackers_stones():
    opening = next(o for o in openings() if o.name == "g25")
    state = position(opening.moves, G25_GAME)  # Black to move
    ladder = state.copy()
    ladder.play("J8")
    assert [GAME.format_move(m) for m in cells(threats(ladder, 0))] == ["N8"]
    after = state.copy()
    after.play("N8")
    assert not Ladders().win(after)  # White has no line of its own
    after.to_move = 1  # as if White passed
    line = Ladders().win(after)
    assert line is not None and [GAME.format_move(m) for m in line] == ["J8", "J7", "I6"]
    after.to_move = 0
    assert Ladders().defences(after) == []  # so every White move loses
    narrow = Ladders()
    narrow.wide = False
    assert not narrow.threat_win(state.copy(), 1, Budget(Limits(time=60)))  # N8 not tried
    assert Ladders().threat_win(state.copy(), 1, Budget(Limits(time=60)))


def names(moves) -> list[str]:
    return sorted(GAME.format_move(m) for m in moves)


def test_a_refutation_three_deep_that_the_check_ran_out_of_time_for():
    """e24 (stop 21, `--seed 11`, lost as White): after F7 I7 the searched
    move K11 is refuted 3 deep: Black's E7 threatens the ladder I11 H10 ...,
    and each of White's three moves that stop it (J8, J12, L7) loses to
    threats of lines 2 deep.  In the match the check took about 0.11 s of
    CPU, more than its window at a load of 3, and K11 was played; 8 of the
    11 moves hold 3 deep."""
    opening = next(o for o in openings() if o.name == "e24")
    state = position(opening.moves, "F7 I7")
    player = make_player(GAME, "default")
    k11 = GAME.parse_move("K11")
    assert player._refuted_at(state, k11, Budget(), (2, 3)) == 1
    after = state.copy()
    after.play("K11")
    after.play("E7")
    assert Ladders().win(after) is None
    after.to_move = 1  # as if White passed
    line = Ladders().win(after)
    assert line is not None and [GAME.format_move(m) for m in line[:2]] == ["I11", "H10"]
    after.to_move = 0
    replies = Ladders().defences(after, line)
    assert names(replies) == ["J12", "J8", "L7"]
    for reply in replies:
        after.make(reply)
        assert Ladders().threat_win(after, 2, Budget(Limits(time=60)))
        after.undo()
    moves, held, cut = player._holding(state, state.legal_moves(), (2, 3), Budget())
    assert (names(moves), held, cut) == (
        ["E7", "F6", "G6", "H10", "H6", "I11", "L7", "L9"], 2, False)


#: e13 (stop 21, `--seed 13`, lost as White): the position before White's
#: G7 at ply 16.
E13_GAME = "H9 K9 J12 I12 H8 I8 K8 L9 L10 M9 J8 H7 I7 H6 G8 J13"


def test_a_refutation_four_deep():
    """Every White move holds 3 deep; G7 (played) is refuted 4 deep: Black's
    M10 threatens the ladder L11 K12 ..., and each of White's five moves
    that stop it loses to threats of lines 3 deep.  Five moves hold 4 deep."""
    opening = next(o for o in openings() if o.name == "e13")
    state = position(opening.moves, E13_GAME)
    player = make_player(GAME, "default")
    g7 = GAME.parse_move("G7")
    assert player._refuted_at(state, g7, Budget(), (2, 3)) is None
    assert player._refuted_at(state, g7, Budget(), (2, 3, 4)) == 2
    after = state.copy()
    after.play("G7")
    after.play("M10")
    after.to_move = 1
    line = Ladders().win(after)
    assert line is not None and [GAME.format_move(m) for m in line[:2]] == ["L11", "K12"]
    after.to_move = 0
    replies = Ladders().defences(after, line)
    assert names(replies) == ["H11", "K12", "L11", "L8", "M8"]
    for reply in replies:
        after.make(reply)
        assert Ladders().threat_win(after, 3, Budget(Limits(time=60)))
        after.undo()
    moves, held, cut = player._holding(state, state.legal_moves(), (2, 3, 4), Budget())
    assert (names(moves), held, cut) == (["H11", "L11", "L8", "M10", "M8"], 3, False)


def test_the_check_option_sets_the_depth_of_the_searched_moves_check():
    """At e13's position the search's pick G7 (stubbed) holds 3 deep, so
    the default keeps it; with `check=4` it is refuted, and the player
    searches the five moves that hold 4 deep instead (a long budget, so
    that no check is cut by its deadline)."""
    opening = next(o for o in openings() if o.name == "e13")
    state = position(opening.moves, E13_GAME)
    g7 = GAME.parse_move("G7")
    for spec, searched in (("default:time=60", None), ("default:time=60,check=4",
                                                       ["H11", "L11", "L8", "M10", "M8"])):
        player = make_player(GAME, spec)
        calls = []

        def search(state, limits, allowed, calls=calls):
            calls.append(allowed)
            return g7 if len(calls) == 1 else min(allowed)

        player._search = search
        move = player.choose(state)
        if searched is None:
            assert calls == [None] and move == g7
        else:
            assert len(calls) == 2 and names(calls[1]) == searched and move == min(calls[1])
