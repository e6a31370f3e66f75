"""Players: anything that picks a move in a position.

`choose(state, limits=None)` returns a legal move index and never changes
`state`.  Search players work on a copy, so a search that dies half-way
cannot leave the caller's position corrupted.  `limits` is the caller's
budget for the move (`budget.Limits`): `time` is the move's limit, which
the player keeps inside (`move_limits`), and `stop` (anything with
`is_set()`, e.g. a `threading.Event`, set from another thread) asks for
the move now: a thinking player plays the best move it has found.

`SearchPlayer(engine, limits=Limits(depth, time, nodes))` passes its limits,
capped by the caller's, to `engine.search(state, limits)`;
`boardgames.search.Searcher` and `MCTS` are such engines (the `Engine`
protocol).  Players are generic in the state
type they play (`Player[SquatterState]`), so a game's own players may take
its own State in `choose`.

A human at the terminal can also ask for things a move cannot express (take
back, save, quit); `HumanPlayer` raises the small `PlayerRequest` exceptions
below and the match loop (`boardgames.match.play.play_game`) acts on them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from .budget import Limits, given_limits
from .errors import BoardgamesError, GameOverError, QuitRequest, SaveRequest, UndoRequest
from .game import State

if TYPE_CHECKING:
    from .search.result import SearchResult

#: Search time used when neither the player nor the caller gives any limit.
DEFAULT_TIME = 1.0

#: The state type a player (or an engine) takes: a game's own State subclass.
#: Contravariant: a player for any State can play a game's own states too.
S = TypeVar("S", bound="State[Any]", contravariant=True)


class Engine(Protocol[S]):
    """What SearchPlayer needs: `boardgames.search.Searcher` and `MCTS` fit.

    `search(state, limits)` returns a SearchResult (its `move` is played,
    the whole result kept in the player's `last_result`) and leaves
    `state` as it was; `clear()` forgets what earlier games taught it.
    """

    def search(self, state: S, limits: Limits) -> SearchResult:
        """The result of searching `state` within `limits`, leaving `state` as it was."""

    def clear(self) -> None:
        """Forget what earlier searches learned (called between games)."""


class Player(Generic[S]):
    """Base class: a name, the last search result (if any) and `choose`."""

    #: False for players the match loop must not time (humans).
    timed: bool = True

    def __init__(self, name: str | None = None) -> None:
        self.name: str = name or type(self).__name__
        #: The SearchResult of the last move, for players that search.
        self.last_result: SearchResult | None = None

    def choose(self, state: S, limits: Limits | None = None) -> int:
        """A legal move for the side to move; `state` is left unchanged.

        `limits` is the caller's budget for this move: `time` is the move's
        limit (the player answers inside it, see `move_limits`), `depth` and
        `nodes` cap the player's own, and once `stop.is_set()` the player
        moves at once (players that do not think may ignore them).
        """
        raise NotImplementedError

    def reset(self) -> None:
        """Forget everything tied to the current game (called between games)."""
        self.last_result = None

    def tell(self, message: str) -> None:
        """A message from the match loop (only humans read them)."""

    def close(self) -> None:
        """Let go of what the player holds outside this process (an external
        program's process, see `boardgames.programs`); nothing for the
        library's own players.  Whoever builds a player closes it when done;
        a player used again after `close` starts over."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def _legal_moves(state: State[Any]) -> list[int]:
    moves = state.legal_moves()
    if not moves:
        raise no_legal_move(state)
    return moves


def game_result(state: State[Any]) -> str:
    """How a game without a legal move ended, for messages: 'white won', 'a draw'."""
    if not state.is_over():
        return "no legal move"
    result = state.result()
    return "a draw" if result == "draw" else f"{result} won"


def no_legal_move(state: State[Any]) -> GameOverError:
    """The error for asking a move where there is none: "the game is over (white won)"."""
    return GameOverError(result=game_result(state))


class RandomPlayer(Player[State[Any]]):
    """Uniformly random legal moves; reproducible for a seed.

    `reset` does not reseed, so the games of a match differ from each other
    while the whole match stays reproducible.
    """

    def __init__(self, seed: int | None = None, name: str | None = None) -> None:
        super().__init__(name)
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state: State[Any], limits: Limits | None = None) -> int:
        """A uniformly random legal move.

        Raises:
            GameOverError: the game is over."""
        return self.rng.choice(_legal_moves(state))


def time_budget(own: float | None, time_limit: float | None) -> float | None:
    """Search time that cannot miss a per-move `time_limit`.

    The search may overrun its budget by 10% + 50 ms, and the copy, the move
    check and the process around it cost a little more, so only ~80% of what
    remains after that worst case is used.
    """
    if time_limit is None:
        return own
    safe = max(0.01, 0.8 * (time_limit - 0.05) / 1.1)
    return safe if own is None else min(own, safe)


def _or_default_time(limits: Limits) -> Limits:
    """`limits`, or DEFAULT_TIME seconds when they limit nothing (a stop
    alone does not end a search)."""
    return replace(limits, time=DEFAULT_TIME) if limits.unlimited else limits


def _smaller(own: int | None, given: int | None) -> int | None:
    return given if own is None else own if given is None else min(own, given)


def move_limits(own: Limits, given: Limits | None) -> Limits:
    """The limits of one move: the player's `own`, capped by the caller's
    `given` (depth and nodes: the smaller; time: the smaller of its own and
    what cannot miss the caller's limit, `time_budget`), with the caller's
    stop signal."""
    if given is None:
        return own
    time = time_budget(own.time, given.time)
    depth, nodes = _smaller(own.depth, given.depth), _smaller(own.nodes, given.nodes)
    return Limits(depth, time, nodes, own.stop if given.stop is None else given.stop)


class SearchPlayer(Player[S]):
    """A player backed by a search engine (alpha-beta family or MCTS).

    Its limits are one `Limits(depth, time, nodes)` (`limits=`), or the
    keywords `depth=`, `time=`, `nodes=`; `depth`, `time` and `nodes` can
    also be read and set one by one (each checked).  The caller's limits
    cap them (`move_limits`); with no limit at all the player thinks for
    DEFAULT_TIME seconds.
    """

    def __init__(
        self,
        engine: Engine[S],
        *,
        limits: Limits | None = None,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        name: str | None = None,
    ) -> None:
        self.limits = given_limits(limits, depth, time, nodes)
        super().__init__(name)
        self.engine = engine

    # The limits one by one (subclasses change them between moves).
    @property
    def depth(self) -> int | None:
        """The search's depth limit (None: none); set it to change it, checked."""
        return self.limits.depth

    @depth.setter
    def depth(self, depth: int | None) -> None:
        self.limits = replace(self.limits, depth=depth)

    @property
    def time(self) -> float | None:
        """The search's time limit in seconds (None: none); set it to change it, checked."""
        return self.limits.time

    @time.setter
    def time(self, time: float | None) -> None:
        self.limits = replace(self.limits, time=time)

    @property
    def nodes(self) -> int | None:
        """The search's node limit (None: none); set it to change it, checked."""
        return self.limits.nodes

    @nodes.setter
    def nodes(self, nodes: int | None) -> None:
        self.limits = replace(self.limits, nodes=nodes)

    def limits_for(self, limits: Limits | None) -> Limits:
        """The limits of one move: the player's own capped by the caller's
        (`move_limits`), DEFAULT_TIME seconds when neither gives any."""
        return _or_default_time(move_limits(self.limits, limits))

    def choose(self, state: S, limits: Limits | None = None) -> int:
        """The engine's move for `state` within the player's limits capped by
        `limits`; `state` is left unchanged."""
        return self.search_move(state, self.limits_for(limits))

    def search_move(self, state: S, limits: Limits) -> int:
        """The engine's move under exactly `limits` (DEFAULT_TIME seconds when
        they limit nothing), searched on a copy; kept in `last_result`."""
        _legal_moves(state)
        # `State.copy` is typed as returning the base State; it is the same class.
        copy = cast(S, state.copy())
        result = self.engine.search(copy, _or_default_time(limits))
        self.last_result = result
        if result.move is None:
            raise BoardgamesError(f"{self.name}: the engine named no move in a game not over")
        return result.move

    def close(self) -> None:
        """End the engine's helper processes, when it has any (`close`)."""
        super().close()
        close = getattr(self.engine, "close", None)
        if close is not None:
            close()

    def reset(self) -> None:
        """Forget the last game: the engine's tables, when it has a `clear`."""
        super().reset()
        # Engines outside the library may have nothing to forget.
        clear = getattr(self.engine, "clear", None)
        if clear is not None:
            clear()


# --- the human at the terminal ---------------------------------------------------


HUMAN_HELP = """\
Enter a move in the game's notation, or one of:
  undo        take back your last move and the reply to it
  save FILE   save the game so far (JSON record) and continue
  hint        ask the computer for a suggestion
  moves       list the legal moves
  help        this text
  resign      lose the game
  quit        stop the game unfinished (end of input does the same)"""


class HumanPlayer(Player[State[Any]]):
    """Reads moves from `input` and talks through `output`.

    Bad notation or an illegal move prints one message and asks again;
    `undo`, `save`, `resign` and `quit` raise a PlayerRequest for the match loop.
    `hint` asks `hint_player` (when given) for a move on a copy.
    """

    timed = False

    def __init__(
        self,
        input: Callable[[str], str] = input,
        output: Callable[[str], Any] = print,
        *,
        name: str | None = None,
        hint_player: Player[Any] | None = None,
    ) -> None:
        super().__init__(name or "human")
        self.input = input
        self.output = output
        self.hint_player = hint_player

    def tell(self, message: str) -> None:
        """Show `message` to the human."""
        self.output(message)

    def choose(self, state: State[Any], limits: Limits | None = None) -> int:
        """The move the human types (after `help`, `hint`, `undo`, `save` as
        asked); asks again after a bad one.

        Raises:
            QuitRequest: the human quit, or the input ended."""
        _legal_moves(state)
        game = state.game
        prompt = f"{game.player_names[state.to_move]} to move> "
        while True:
            try:
                line = self.input(prompt)
            except EOFError:
                raise QuitRequest("end of input") from None
            except KeyboardInterrupt:  # Ctrl-C at the prompt: stop, but keep the record
                self.output("")
                raise QuitRequest("interrupted") from None
            text = line.strip()
            if not text:
                continue
            command, _, argument = text.partition(" ")
            command, argument = command.lower(), argument.strip()
            if command in ("quit", "exit", "resign"):
                raise QuitRequest(command)
            if command == "undo":
                raise UndoRequest("undo")
            if command == "save":
                if not argument:
                    self.output("usage: save FILE")
                    continue
                raise SaveRequest(argument)
            if command in ("help", "?"):
                self.output(HUMAN_HELP)
                continue
            if command in ("moves", "legal"):
                self.output(" ".join(game.format_move(m) for m in sorted(state.legal_moves())))
                continue
            if command == "hint":
                self._hint(state)
                continue
            move = self._parse(state, text)
            if move is not None:
                return move

    def _parse(self, state: State[Any], text: str) -> int | None:
        try:
            move: int = state.game.parse_move(text)
        except BoardgamesError as exc:
            self.output(f"{exc} (type 'help' for commands)")
            return None
        reason = state.illegal_reason(move)
        if reason is not None:
            self.output(f"illegal move: {state.game.format_move(move)} ({reason})")
            return None
        return move

    def _hint(self, state: State[Any]) -> None:
        if self.hint_player is None:
            self.output("no hint available")
            return
        move = self.hint_player.choose(state)
        self.output(f"hint: {state.game.format_move(move)}")
