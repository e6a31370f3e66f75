"""Generic checks of the game protocol, shared by every game's tests.

Call `check_protocol(game)` from a game's test module (it runs hypothesis
properties over random games), or use the single checks directly.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames.errors import IllegalMoveError, NotationError
from boardgames.game import REPR_TEXT, Game, State


def snapshot(state: State) -> tuple:
    return (
        state.to_move,
        tuple(state.hashes),
        tuple(state.history),
        state.is_over(),
        state.winner(),
        tuple(state.legal_moves()),
        state.to_text(),
        state.scores() if state.game.scored else None,
    )


def random_playout(state: State, rng: random.Random, max_moves: int) -> list[int]:
    played = []
    for _ in range(max_moves):
        moves = state.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        state.make(move)
        played.append(move)
    return played


def check_play_undo(game: Game, seed: int, max_moves: int = 60) -> None:
    """Every move's make/undo restores the state and all its hashes, and undo
    returns the move it took back; the incremental hashes always equal a full
    recomputation.  Back at the start, undo raises and changes nothing."""
    rng = random.Random(seed)
    state = game.new_state()
    before = []
    made = []
    for _ in range(max_moves):
        moves = state.legal_moves()
        if not moves:
            assert state.is_over()
            break
        assert state.hashes == state.recompute_hashes()
        before.append(snapshot(state))
        made.append(rng.choice(moves))
        state.make(made[-1])
    assert state.hashes == state.recompute_hashes()
    while before:
        assert state.undo() == made.pop()
        assert snapshot(state) == before.pop()
    check_undo_at_start(state)


def check_undo_at_start(state: State) -> None:
    """`undo` on a state with no move made: the library's error, state unchanged."""
    snap = snapshot(state)
    with pytest.raises(IllegalMoveError, match="no move to take back"):
        state.undo()
    assert snapshot(state) == snap


def check_copy_independent(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    state = game.new_state()
    random_playout(state, rng, 10)
    clone = state.copy()
    snap = snapshot(state)
    random_playout(clone, rng, 10)
    assert snapshot(state) == snap


def check_symmetry(game: Game, seed: int, max_moves: int = 30) -> None:
    """Playing a sequence and its image under each symmetry gives positions
    with the same canonical key, and the canonical frame maps moves back."""
    rng = random.Random(seed)
    state = game.new_state()
    moves = random_playout(state, rng, rng.randrange(max_moves + 1))
    key, frame = state.canonical()
    for perm in game.symmetries:
        image = game.new_state()
        for m in moves:
            image.play(perm[m])
        assert image.canonical()[0] == key
    if not state.is_over():
        for m in state.legal_moves():
            assert game.unmap_move(game.map_move(m, frame), frame) == m


def check_bad_input(game: Game, seed: int) -> None:
    """Bad notation and illegal moves raise and leave the state unchanged."""
    rng = random.Random(seed)
    state = game.new_state()
    random_playout(state, rng, 8)
    snap = snapshot(state)
    for text in ["", "zz99", "??", "1,2,3,4", "-1"]:
        try:
            state.play(text)
        except (NotationError, IllegalMoveError) as exc:
            assert str(exc)
        assert snapshot(state) == snap
    legal = set(state.legal_moves())
    for move in range(game.num_moves):
        if move not in legal:
            try:
                state.play(move)
            except IllegalMoveError as exc:
                assert game.format_move(move) in str(exc)
            else:
                raise AssertionError(f"illegal move {move} was accepted")
            assert snapshot(state) == snap
            break


def check_notation_round_trip(game: Game) -> None:
    for move in range(game.num_moves):
        assert game.parse_move(game.format_move(move)) == move


def check_position_round_trip(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    state = game.new_state()
    random_playout(state, rng, rng.randrange(40))
    again = game.parse_position(state.to_text())
    assert again.to_text() == state.to_text()
    if not again.history:  # a board read from text: no move to take back
        check_undo_at_start(again)
    assert again.to_move == state.to_move
    assert again.canonical()[0] == state.canonical()[0]
    assert sorted(again.legal_moves()) == sorted(state.legal_moves())


def check_equality(game: Game, seed: int) -> None:
    """Two states are equal when they hold the same position (same game, side
    to move and text): a copy, a replay of the same moves and the text read
    back; one more move makes a different position.  States are not hashable."""
    rng = random.Random(seed)
    state = game.new_state()
    moves = random_playout(state, rng, rng.randrange(40))
    assert state.copy() == state
    assert game.replay(moves) == state
    assert game.parse_position(state.to_text()) == state
    assert (state == game.new_state()) == (not moves)
    if not state.is_over():
        other = state.copy()
        other.make(rng.choice(other.legal_moves()))
        assert other != state and state != other
        other.undo()
        assert other == state
    assert state != state.to_text()
    with pytest.raises(TypeError, match="unhashable"):
        hash(state)


def check_repr(game: Game, seed: int) -> None:
    """`repr(state)`: one line naming the state's type, the game and its
    options, who is to move or how the game ended, and the position's text
    (whole when short, else its two ends)."""
    rng = random.Random(seed)
    state = game.new_state()
    random_playout(state, rng, rng.randrange(60))
    text = repr(state)
    assert "\n" not in text
    head = f"<{type(state).__name__} {game.describe()}, "
    assert text.startswith(head) and text.endswith(">")
    outcome = state.outcome()
    if outcome is None:
        assert f"{game.player_names[state.to_move]} to move" in text
    else:
        assert outcome.reason in text
        assert ("draw" if outcome.winner is None else game.player_names[outcome.winner]) in text
    position = " / ".join(
        line.strip() for line in state.to_text().splitlines() if line.strip()
    )
    if len(position) <= REPR_TEXT:
        assert text.endswith(f": {position or '(start)'}>")
    else:
        shown = text[len(head) : -1].partition(": ")[2]
        start, _, end = shown.partition(" ... ")
        assert position.startswith(start) and position.endswith(end)
        assert len(shown) <= REPR_TEXT


def check_protocol(game: Game, examples: int = 25) -> None:
    """Run every generic check over `examples` random games."""
    check_notation_round_trip(game)
    relaxed = settings(
        max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck)
    )

    @relaxed
    @given(st.integers(0, 2**32 - 1))
    def run(seed: int) -> None:
        check_play_undo(game, seed)
        check_copy_independent(game, seed)
        check_symmetry(game, seed)
        check_bad_input(game, seed)
        check_position_round_trip(game, seed)
        check_equality(game, seed)
        check_repr(game, seed)

    run()
