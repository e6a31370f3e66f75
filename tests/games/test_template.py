"""The game template: each game package's `__init__.py` composes the public
game class from the rules class and the hooks of its notation, knowledge and
pictures; `rules.py` depends on none of them; the protocol's template
methods check the input before a game's hook sees it."""

from __future__ import annotations

import connect_four  # noqa: F401  (registers connect4)
import pytest

from boardgames.errors import NotationError
from boardgames.game import Game, State
from boardgames.registry import get_game
from support.builtin_games import BUILTIN_GAMES
from support.imports import PACKAGE, cycles, graph


def test_no_import_cycle_in_the_games_and_the_protocol():
    """Rules, notation, experts, render, solver: every import goes one way
    (TYPE_CHECKING and function-level imports count); so do game.py and
    evaluation.py."""
    inside = {
        module: imports
        for module, imports in graph().items()
        if module.startswith(f"{PACKAGE}.games") or module in {
            f"{PACKAGE}.game", f"{PACKAGE}.evaluation"
        }
    }
    assert cycles(inside) == []


@pytest.mark.parametrize("package", ["andantino", "hadron", "hexifence", "squatter"])
def test_rules_import_nothing_that_builds_on_them(package):
    """Notation, experts, render and reports depend on the rules, never the
    reverse: rules.py imports only siblings that do not import it."""
    edges = graph()
    prefix = f"{PACKAGE}.games.{package}."
    rules = f"{prefix}rules"
    siblings = {m for m in edges[rules] if m.startswith(prefix)}
    assert not {m for m in siblings if rules in edges[m]}
    assert not siblings & {f"{prefix}{name}" for name in ("notation", "experts", "render")}


@pytest.mark.parametrize("name", [*BUILTIN_GAMES, "connect4"])
def test_the_public_game_is_composed_in_the_package(name):
    """`get_game` gives the class the package's __init__ composes from its rules class."""
    game = get_game(name)
    cls = type(game)
    package = cls.__module__
    assert package.rpartition(".")[2] in {"andantino", "hadron", "hexifence", "squatter",
                                          "connect_four"}
    rules = [base for base in cls.__mro__ if base.__module__ == f"{package}.rules"]
    assert rules and rules[0].__name__.endswith("Rules")
    assert not getattr(cls, "__abstractmethods__", None)


class _Tally(Game["_TallyState"]):
    """A game whose hooks record what they were given."""

    name = "tally"
    title = "Tally"
    player_names = ("first", "second")

    def __init__(self) -> None:
        super().__init__()
        self.num_moves = 3
        self.seen: list[object] = []

    def new_state(self) -> _TallyState:
        return _TallyState(self)

    def _parse_move(self, text: str) -> int:
        self.seen.append(text)
        return int(text)

    def _format_move(self, move: int) -> str:
        self.seen.append(move)
        return str(move)


class _TallyState(State[_Tally]):
    def __init__(self, game: _Tally) -> None:
        self.game, self.to_move, self.history, self.hashes = game, 0, [], [0]

    def legal_moves(self) -> list[int]:
        return [] if self.is_over() else [0, 1, 2]

    def make(self, move: int) -> None:
        self.history.append(move)
        self.to_move = 1 - self.to_move

    def undo(self) -> int:
        self.to_move = 1 - self.to_move
        return self.history.pop()

    def is_over(self) -> bool:
        return len(self.history) >= 3

    def winner(self) -> int | None:
        return None

    def copy(self) -> _TallyState:
        new = _TallyState(self.game)
        new.history, new.to_move = self.history[:], self.to_move
        return new

    def recompute_hashes(self) -> list[int]:
        return [0]


def test_a_game_implements_two_hooks_and_gets_checked_input():
    game = _Tally()
    assert game.parse_move("2") == 2 and game.format_move(1) == "1"
    assert game.seen == ["2", 1]
    for bad in (3, -1, True, 1.0, "1"):
        with pytest.raises(NotationError, match="not a move index"):
            game.format_move(bad)  # type: ignore[arg-type]
    for bad in (None, 2, b"2"):
        with pytest.raises(NotationError, match="expected text"):
            game.parse_move(bad)  # type: ignore[arg-type]
        with pytest.raises(NotationError, match="expected text"):
            game.parse_position(bad)  # type: ignore[arg-type]
    assert game.seen == ["2", 1]  # the hooks never saw the bad values
    # The default position format: the moves from the start, both ways.
    state = game.replay("0 2")
    assert state.to_text() == "0 2" and game.parse_position("0 2").history == [0, 2]
