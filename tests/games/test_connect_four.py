import connect_four  # noqa: F401  (registers the game)

from boardgames.game import perft
from boardgames.registry import get_game
from support.protocol_checks import check_protocol


def test_protocol():
    check_protocol(get_game("connect4"))


def test_perft_matches_known_counts():
    state = get_game("connect4").new_state()
    assert [perft(state, d) for d in range(1, 6)] == [7, 49, 343, 2401, 16807]


def test_vertical_win():
    state = get_game("connect4").replay(["a", "b", "a", "b", "a", "b", "a"])
    assert state.is_over() and state.winner() == 0 and state.result() == "red"
