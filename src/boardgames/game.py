"""The protocol every game implements: `Game`, `State` and `Outcome`.

A `Game` is immutable: the rules and precomputed tables for one board size.
A `State` is one mutable position with make/undo.  Moves are small ints (a
cell or an edge index); notation is converted at the edges of the library by
`Game.parse_move` / `Game.format_move`, which check their input before the
game's own hooks see it (`Game` lists what a game implements).

The side to move does not always alternate (HexiFence gives extra turns), so
code must read `state.to_move` after every move instead of assuming it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from .errors import (
    IllegalMoveError,
    NotationError,
    OptionError,
    UnknownNameError,
    quote,
)
from .evaluation import with_noise
from .options import (
    check_like_defaults,
    check_number,
    check_seed,
    check_whole,
    keyword_options,
    named_parameters,
)
from .weights import Weights
from .zobrist import identity, invert

S = TypeVar("S", bound="State[Any]")
#: Longest position text in `repr(state)` (a longer one keeps its two ends).
REPR_TEXT = 140
G = TypeVar("G", bound="Game[Any]")


class End(StrEnum):
    """How a game ended: by its rules, or by the referee (the value is what a
    game record stores as its `end`).

    Only `RULES` comes from the game; the referee decides every other kind,
    and `INTERRUPTED` alone leaves the game without a result.
    """

    #: The rules ended it; the outcome's `reason` says how, in the game's words.
    RULES = "rules"
    #: A player resigned.
    RESIGNATION = "resignation"
    #: A player's game clock ran out.
    TIME = "time"
    #: A move took longer than the per-move limit (and its slack).
    TIMEOUT = "timeout"
    #: A player did not answer and was stopped by a hard limit.
    HANG = "hang"
    #: A player chose a move the rules forbid here.
    ILLEGAL = "illegal"
    #: A player answered with something that is not a move of the game.
    MALFORMED = "malformed"
    #: A player raised, exited, lost its connection or could not be built.
    CRASH = "crash"
    #: Stopped before the end, and the referee gave the result (a tournament's
    #: game that reaches its move cap is a draw).
    ADJUDICATION = "adjudication"
    #: Stopped before the end with no result (Ctrl-C, quit, a move cap, a save).
    INTERRUPTED = "interrupted"

    @property
    def forfeit(self) -> bool:
        """A player lost through its own fault (time, a bad move, a crash, a hang)."""
        return self in _FORFEITS


_FORFEITS = frozenset((End.TIME, End.TIMEOUT, End.HANG, End.ILLEGAL, End.MALFORMED, End.CRASH))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: `state.outcome()` (None while it goes on).

    `winner` is 0 or 1, or None for a draw; `scores` are both players'
    scores in scored games (first player first), else None; `reason` says
    why the game ended: in the game's words ("five in a row", "no legal
    move") when the rules ended it (`end` is `End.RULES`), else in the
    referee's ("slow took 2.1 s (limit 1 s)").
    """

    winner: int | None
    reason: str
    scores: tuple[int, int] | None = None
    end: End = End.RULES

    @property
    def draw(self) -> bool:
        """Whether the game ended without a winner."""
        return self.winner is None

    def result(self, player_names: tuple[str, str]) -> str:
        """'draw' or the winner's colour."""
        return "draw" if self.winner is None else player_names[self.winner]


class Game(ABC, Generic[S]):
    """Rules and tables for one game at one size. Build with `get_game`.

    What a game implements: `new_state` and the hooks `_parse_move(text)` and
    `_format_move(move)`, which `parse_move` and `format_move` call once the
    text is known to be a str and the move an index of the game; for a board
    format, `_parse_position` and `_format_position` (behind `parse_position`
    and `state.to_text()`; the default is the move list); where it has more
    to offer, `evaluators`, `analyse`, `part_a`, `render_text`, `render_svg`
    and `benchmark_positions`.  Everything else it inherits.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    #: Lowercase colour names, first player first ("white", "black").
    player_names: ClassVar[tuple[str, str]]
    #: True when the game keeps a score (`State.scores()`).
    scored: ClassVar[bool] = False

    def __init__(self, **params: int) -> None:
        self.params: dict[str, int] = dict(params)
        self.num_moves: int = 0
        #: Permutations of move indices; `symmetries[0]` is the identity.
        self.symmetries: tuple[tuple[int, ...], ...] = ()

    @property
    def max_length(self) -> int:
        """The most moves one game can last: `num_moves` unless a game, where a
        move index can be played more than once, says otherwise."""
        return self.num_moves

    def _set_symmetries(self, symmetries: Iterable[Iterable[int]]) -> None:
        self.symmetries = tuple(tuple(p) for p in symmetries) or (identity(self.num_moves),)
        self.inverse_symmetries = tuple(invert(p) for p in self.symmetries)

    # --- positions ---------------------------------------------------------
    @abstractmethod
    def new_state(self) -> S:
        """The start position."""

    def parse_position(self, text: str) -> S:
        """A position from its text (what `state.to_text()` writes); NotationError
        for text that is not one, or for a value that is not text."""
        return self._parse_position(_text(text))

    def _parse_position(self, text: str) -> S:
        """Hook: the position that `text` (a str) describes; by default the moves
        from the start, separated by spaces."""
        return self.replay(text.split())

    def _format_position(self, state: S) -> str:
        """Hook: `state.to_text()`, which `_parse_position` reads back; by default
        the moves from the start."""
        return state.moves_text()

    def replay(self, moves: Iterable[int | str] | str) -> S:
        """The position after playing `moves` (ints or notation, or one text of
        moves separated by spaces) from the start."""
        if isinstance(moves, str):
            moves = moves.split()
        state = self.new_state()
        for move in moves:
            state.play(move)
        return state

    # --- moves ---------------------------------------------------------------
    def check_index(self, move: object) -> int:
        """`move` if it is a move index of this game (0 <= move < num_moves), else
        NotationError; True/False and floats are not indexes."""
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < self.num_moves:
            raise NotationError(
                str(move), f"not a move index of {self.name} (0..{self.num_moves - 1})"
            )
        return move

    def parse_move(self, text: str) -> int:
        """The move index `text` names; NotationError when it names none."""
        return self._parse_move(_text(text))

    def format_move(self, move: int) -> str:
        """The notation of a move; NotationError for what is not a move index."""
        return self._format_move(self.check_index(move))

    @abstractmethod
    def _parse_move(self, text: str) -> int:
        """Hook: the move index that `text` (a str) names; NotationError quoting
        the text otherwise."""

    @abstractmethod
    def _format_move(self, move: int) -> str:
        """Hook: the notation of `move`, an index already checked to be in range."""

    def map_move(self, move: int, symmetry: int) -> int:
        """The move in the frame of `symmetry` (as the canonical key sees it)."""
        return self.symmetries[symmetry][move]

    def unmap_move(self, move: int, symmetry: int) -> int:
        """Inverse of `map_move`."""
        return self.inverse_symmetries[symmetry][move]

    # --- knowledge -------------------------------------------------------------
    def evaluators(self) -> dict[str, Callable[..., Callable[[S], float]]]:
        """Named evaluator factories (keyword options -> evaluator).

        The key "default" names the game's best evaluator.
        """
        return {"default": lambda: _zero}

    def tunable_weights(self) -> Weights | None:
        """The tunable weights of the evaluator the default AI plays with
        (`boardgames.weights`), or None when it declares none."""
        return None

    def default_evaluator(self) -> Callable[[S], float]:
        """A new instance of the game's evaluator named "default"."""
        return self.evaluators()["default"]()

    def evaluator(
        self, name: str = "default", *, noise: Any = None, seed: Any = None, **options: Any
    ) -> Callable[[S], float]:
        """The evaluator `name` built with `options`, every option checked.

        `noise` adds seeded random tie-breaks of that scale; a factory that
        takes `noise` (or `seed`) itself gets them instead.  Unknown names
        and options, and bad values, raise UnknownNameError / OptionError.
        """
        factories = self.evaluators()
        if not isinstance(name, str) or name not in factories:
            raise UnknownNameError(
                f"unknown evaluator {quote(name)} for {self.name}; "
                f"known: {', '.join(sorted(factories))}"
            )
        factory = factories[name]
        accepted = keyword_options(factory)
        if accepted is not None and set(options) - accepted:
            unknown = ", ".join(sorted(set(options) - accepted))
            takes = ", ".join(sorted(accepted - {"noise", "seed"})) or "none"
            raise OptionError(
                f"unknown option(s) {unknown} for evaluator {name!r} of {self.name} "
                f"(evaluator options: {takes}; and noise, seed)"
            )
        check_like_defaults(factory, options)
        seed = check_seed(seed)
        noise = None if noise is None else check_number("noise", noise)
        own = named_parameters(factory)
        for key, value in (("noise", noise), ("seed", seed)):
            if key in own and value is not None:
                options[key] = value
        try:
            evaluator = factory(**options)
        except ValueError as exc:  # the factory's own checks; a TypeError is a bug
            raise OptionError(f"bad options for evaluator {name!r}: {exc}") from None
        return evaluator if "noise" in own else with_noise(evaluator, noise or 0, seed)

    def analyse(self, state: S) -> str:
        """A short static report of a position (the CLI's `analyse`)."""
        outcome = state.outcome()
        lines = [
            f"to move: {'none' if outcome else self.player_names[state.to_move]}",
            f"legal moves: {0 if outcome else len(state.legal_moves())}",
            f"result: {state.result()}" + (f" ({outcome.reason})" if outcome else ""),
        ]
        if self.scored:
            a, b = state.scores()
            lines.append(f"score: {a} {b}")
        return "\n".join(lines)

    def part_a(self, state: S) -> str:
        """The course's "Part A" answer for a position (`analyse --part-a`), for
        the games whose course set one; OptionError for the others."""
        raise OptionError(f"{self.name} has no Part A answer (only a report: drop --part-a)")

    # --- drawing (a game's render.py does the work; these are its entry points)
    def render_text(self, state: S, color: bool = False) -> str:
        """A text board for the terminal (ANSI colours when `color`).

        The default, for games that draw nothing, names the moves and the side to move.
        """
        outcome = state.outcome()
        if outcome is None:
            return f"{state.moves_text() or '(start)'}\n{self.player_names[state.to_move]} to move"
        return f"{state.moves_text()}\nresult: {outcome.result(self.player_names)}"

    def render_svg(self, state: S) -> str:
        """An SVG picture of the board (the default: the text board as SVG text)."""
        from html import escape

        lines = self.render_text(state).splitlines()
        height = 16 * len(lines) + 8
        body = "".join(
            f'<text x="4" y="{16 * (i + 1)}" font-family="monospace" font-size="13">'
            f"{escape(line)}</text>"
            for i, line in enumerate(lines)
        )
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="640" height="{height}">{body}</svg>'

    def benchmark_positions(self) -> dict[str, S]:
        """Fixed positions for `boardgames bench` and the benchmarks."""
        return {"start": self.new_state()}

    def describe(self) -> str:
        """The game's name and options, e.g. `squatter size=7`."""
        opts = " ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.name} {opts}".strip()

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.name == self.name and other.params == self.params

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.params.items()))))


def _zero(state: State[Any]) -> float:
    return 0.0


def _text(text: object) -> str:
    """`text` if it is a str, else NotationError (the parsers take text only)."""
    if not isinstance(text, str):
        raise NotationError(repr(text), f"expected text, not {type(text).__name__}")
    return text


def nothing_to_undo() -> IllegalMoveError:
    """The error `State.undo` raises on a state with no move to take back."""
    return IllegalMoveError("undo", "no move to take back")


class State(ABC, Generic[G]):
    """One mutable position. `make`/`undo` are the fast path used by search;
    `play` checks legality first and leaves the state unchanged on error.

    States are equal when they hold the same position: the same game, side
    to move and `to_text()` (where that is the move list, the same moves in
    order).  Mutable, so not hashable: key by `state.key` or `canonical()`.
    """

    __hash__ = None  # type: ignore[assignment]

    game: G
    #: 0 or 1: index into `game.player_names`.
    to_move: int
    #: One Zobrist hash per symmetry of `game.symmetries`, kept incrementally.
    hashes: list[int]
    #: Moves made on this object, oldest first (what `undo` takes back).
    history: list[int]

    # --- the rules -------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list[int]:
        """Legal moves, in the game's preferred static search order; [] when over."""

    @abstractmethod
    def make(self, move: int) -> None:
        """Play a move known to be legal (no checks: the search's fast path)."""

    @abstractmethod
    def undo(self) -> int:
        """Take back the last move made on this object and return it; when there
        is none, `nothing_to_undo()` (a game pops its history inside `try`/`except
        IndexError`: free in Python 3.11 on the search's path until it raises)."""

    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended (the search's fast test)."""

    @abstractmethod
    def winner(self) -> int | None:
        """0 or 1 once the game is over; None for a draw or a game in progress
        (the search's fast test; everyone else reads `outcome()`)."""

    def scores(self) -> tuple[int, int]:
        """Both players' scores, first player first (scored games only)."""
        raise NotImplementedError(f"{self.game.name} keeps no score")

    def end_reason(self) -> str:
        """Why the finished game ended, in the game's words (games override)."""
        return "game over"

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        if not self.is_over():
            return None
        scores = self.scores() if self.game.scored else None
        return Outcome(self.winner(), self.end_reason(), scores)

    @abstractmethod
    def copy(self) -> State[G]:
        """An independent copy of the position (history and hashes included)."""

    @abstractmethod
    def recompute_hashes(self) -> list[int]:
        """Every frame hash computed from scratch (tests compare with `hashes`)."""

    # --- checked play ------------------------------------------------------------
    def illegal_reason(self, move: int) -> str | None:
        """Why `move` is illegal here, or None when it is legal."""
        if self.is_over():
            return "the game is over"
        if move in self.legal_moves():
            return None
        return "not a legal move here"

    def play(self, move: int | str) -> int:
        """Play a move given as an index or in notation, after checking it.

        Raises NotationError or IllegalMoveError and leaves the state unchanged.
        Returns the move index.
        """
        move = self.game.parse_move(move) if isinstance(move, str) else self.game.check_index(move)
        reason = self.illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(self.game.format_move(move), reason)
        self.make(move)
        return move

    # --- keys ------------------------------------------------------------------------
    @property
    def key(self) -> int:
        """The position's hash (identity frame), for transposition tables."""
        return self.hashes[0]

    def canonical(self) -> tuple[int, int]:
        """(smallest frame hash, index of that symmetry)."""
        hashes = self.hashes
        best = min(hashes)
        return best, hashes.index(best)

    # --- presentation ------------------------------------------------------------
    @property
    def last_move(self) -> int | None:
        """The last move played, None at the start."""
        return self.history[-1] if self.history else None

    def result(self) -> str:
        """'none' while the game goes on, 'draw', or the winner's colour."""
        outcome = self.outcome()
        return "none" if outcome is None else outcome.result(self.game.player_names)

    def moves_text(self) -> str:
        """The moves made on this object, in notation, oldest first."""
        return " ".join(self.game.format_move(m) for m in self.history)

    def to_text(self) -> str:
        """The position in the game's position format, which `game.parse_position`
        reads back (the moves from the start unless the game has a board format)."""
        return self.game._format_position(self)

    def _repr_svg_(self) -> str:
        return self.game.render_svg(self)

    def __str__(self) -> str:
        return self.game.render_text(self)

    def __repr__(self) -> str:
        """The game, who is to move (or the result) and the position's text on
        one line, shortened: `<HadronState hadron rows=9 cols=9, black to move: E5>`."""
        game = self.game
        outcome = self.outcome()
        if outcome is None:
            status = f"{game.player_names[self.to_move]} to move"
        elif outcome.winner is None:
            status = f"draw ({outcome.reason})"
        else:
            status = f"{game.player_names[outcome.winner]} won ({outcome.reason})"
        text = " / ".join(line.strip() for line in self.to_text().splitlines() if line.strip())
        if len(text) > REPR_TEXT:
            half = (REPR_TEXT - 5) // 2
            text = f"{text[:half]} ... {text[-half:]}"
        return f"<{type(self).__name__} {game.describe()}, {status}: {text or '(start)'}>"

    def __eq__(self, other: object) -> bool:
        """The same position: same game, same side to move, same `to_text()`."""
        if not isinstance(other, State):
            return NotImplemented
        same = other.game == self.game and other.to_move == self.to_move
        return same and other.to_text() == self.to_text()


def perft(state: State[Any], depth: int, *, leaves: bool = False) -> int:
    """The number of move sequences of length `depth` from `state`.

    A game that ends sooner counts 0, as in chess perft; with `leaves`, it
    counts 1: the number of leaves of the game tree cut at `depth` (at
    tic-tac-toe's depth 9, its 255,168 possible games).
    """
    depth = check_whole("perft depth", depth, 0)
    return _perft_leaves(state, depth) if leaves else _perft(state, depth)


def _perft(state: State[Any], depth: int) -> int:
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.make(move)
        total += _perft(state, depth - 1)
        state.undo()
    return total


def _perft_leaves(state: State[Any], depth: int) -> int:
    if depth == 0 or state.is_over():
        return 1
    total = 0
    for move in state.legal_moves():
        state.make(move)
        total += _perft_leaves(state, depth - 1)
        state.undo()
    return total
