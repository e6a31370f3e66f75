"""The engine protocol: a GTP-style line protocol over text streams.

`EngineSession(input, output).run()` reads one command per line and answers
each with `= result` or `? reason` followed by an empty line, flushing after
every response (docs/engine-protocol.md is the contract).  A `#` that starts
a word starts a comment, as in a shell; a line that is blank or only a
comment gets no response.  A failed command changes nothing: every command
builds its new game or position aside and only then swaps it in.

Version 2 (`PROTOCOL`) adds what a runner needs that drives the engine:
the handshake (`protocol`, `name`, `version`), `moves` (the position as
the moves from the start) and `genmove`'s clock (`left=`, `inc=`); once a
runner has said `protocol`, `genmove` also sends `info` lines from the
search's iterations before its answer.  Every version 1 command works as it
did.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import metadata
from typing import Any, TextIO

from ..ai import PROGRAM, ai_names, make_player
from ..budget import Limits
from ..clock import TimeManager
from ..errors import BadFileError, BoardgamesError, GameOverError, OptionError, ProtocolError, quote
from ..game import Game, State, perft
from ..io import read_text
from ..options import MAX_SECONDS, check_real, check_seconds, check_whole, parse_pairs, parse_value
from ..players import Player
from ..registry import game_names, get_game

#: The protocol version this engine speaks (docs/engine-protocol.md).
PROTOCOL = 2
#: What `name` answers.
ENGINE_NAME = "boardgames"
#: genmove's options that are the move's limits, not the AI's.
CLOCK_OPTIONS = ("time", "left", "inc")


def parse_options(words: list[str], what: str) -> dict[str, Any]:
    """['size=7', 'ai=mcts'] -> {'size': 7, 'ai': 'mcts'}; each key at most once."""
    return parse_pairs(words, what)


#: A comment: a `#` at the start of the line or after white space, to the end.
COMMENT = re.compile(r"(?:^|\s)#.*", flags=re.S)


def command_text(line: str) -> str:
    """The command on a line, without its comment and surrounding white space:
    'load a#1.txt   # the file' -> 'load a#1.txt' (the protocol has no quoting,
    so a `#` inside a word is part of it)."""
    return COMMENT.sub("", line).strip()


def format_number(value: float) -> str:
    """Whole numbers without a decimal point; others with full precision."""
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return str(int(value))
    return repr(float(value))


class EngineSession:
    """One protocol session: a current game and position, driven by commands."""

    def __init__(
        self,
        input: TextIO,
        output: TextIO,
        game: Game[Any] | None = None,
    ) -> None:
        self.input = input
        self.output = output
        self.game: Game[Any] | None = game
        self.state: State[Any] | None = game.new_state() if game is not None else None
        #: genmove's players by spec, kept so their transposition tables carry
        #: over from move to move; emptied when the game changes.
        self.players: dict[tuple[str, tuple[tuple[str, Any], ...]], Player[Any]] = {}
        #: The protocol version the driver asked for (1 until it says `protocol`).
        self.version = 1
        #: Shares a clock among the game's moves when genmove gives `left=` alone.
        self.time_manager = TimeManager()
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "protocol": self.cmd_protocol,
            "name": self.cmd_name,
            "version": self.cmd_version,
            "moves": self.cmd_moves,
            "game": self.cmd_game,
            "reset": self.cmd_reset,
            "play": self.cmd_play,
            "undo": self.cmd_undo,
            "legal": self.cmd_legal,
            "tomove": self.cmd_tomove,
            "result": self.cmd_result,
            "score": self.cmd_score,
            "position": self.cmd_position,
            "load": self.cmd_load,
            "board": self.cmd_board,
            "genmove": self.cmd_genmove,
            "eval": self.cmd_eval,
            "perft": self.cmd_perft,
            "list": self.cmd_list,
        }

    # --- the loop ----------------------------------------------------------------
    def run(self) -> int:
        """Serve commands until `quit` or end of input; returns the exit code (0)."""
        try:
            # readline, not iteration: answer each line as soon as it arrives on a pipe.
            for line in iter(self.input.readline, ""):
                text = command_text(line)
                if not text:
                    continue
                if text.split()[0] == "quit":
                    self._respond(True, "")
                    break
                self.output.write(self.handle(text))
                self.output.flush()
        finally:
            self._forget_players()
        return 0

    def _forget_players(self) -> None:
        """Close genmove's players (a parallel search's helpers end) and drop them."""
        players, self.players = list(self.players.values()), {}
        for player in players:
            player.close()

    def handle(self, line: str) -> str:
        """The full response (with its trailing empty line) to one command line."""
        name, *args = line.split()
        command = self.commands.get(name)
        if command is None:
            return self._format(False, f"unknown command: {_one_line(name)}")
        try:
            return self._format(True, command(args))
        except (BoardgamesError, ValueError, OSError) as exc:
            return self._format(False, _one_line(exc))
        except Exception as exc:  # a bug must not kill a referee's session
            return self._format(False, f"internal error: {type(exc).__name__}: {_one_line(exc)}")

    def _respond(self, ok: bool, result: str) -> None:
        self.output.write(self._format(ok, result))
        self.output.flush()

    @staticmethod
    def _format(ok: bool, result: str) -> str:
        if not ok:
            return f"? {result}\n\n"
        # An empty line ends a response, so a truly empty line inside one (a
        # position format may have some) is sent as a single space.
        lines = result.strip("\n").split("\n")
        body = "\n".join(line or " " for line in lines) if result.strip() else ""
        return f"= {body}\n\n"

    # --- helpers -------------------------------------------------------------------
    def _current(self) -> tuple[Game[Any], State[Any]]:
        if self.game is None or self.state is None:
            raise ProtocolError("no game: start one with 'game NAME'")
        return self.game, self.state

    @staticmethod
    def _arity(args: list[str], usage: str, low: int, high: int) -> None:
        if not low <= len(args) <= high:
            raise ProtocolError(f"usage: {usage}")

    # --- commands ------------------------------------------------------------------
    def cmd_protocol(self, args: list[str]) -> str:
        """`protocol [VERSION]`: the protocol version this engine speaks."""
        self._arity(args, "protocol [VERSION]", 0, 1)
        self.version = PROTOCOL
        return str(PROTOCOL)

    def cmd_name(self, args: list[str]) -> str:
        """`name`: the engine's name."""
        self._arity(args, "name", 0, 0)
        return ENGINE_NAME

    def cmd_version(self, args: list[str]) -> str:
        """`version`: the engine's version."""
        self._arity(args, "version", 0, 0)
        return engine_version()

    def cmd_moves(self, args: list[str]) -> str:
        """`moves MOVE ...`: the position after these moves from the start."""
        game, _ = self._current()
        state = game.new_state()
        for number, text in enumerate(args, start=1):
            try:
                state.play(text)
            except BoardgamesError as exc:
                raise ProtocolError(f"move {number} ({_one_line(quote(text))}): {exc}") from None
        self.state = state
        return ""

    def cmd_game(self, args: list[str]) -> str:
        """`game NAME [key=value ...]`: start a new game of NAME with its options."""
        if not args:
            raise ProtocolError("usage: game NAME [key=value ...]")
        game = get_game(args[0], **parse_options(args[1:], "game option"))
        state = game.new_state()
        self.game, self.state = game, state
        self._forget_players()
        self.time_manager = self.time_manager.fresh()
        return ""

    def cmd_reset(self, args: list[str]) -> str:
        """`reset`: back to the start position of the current game."""
        self._arity(args, "reset", 0, 0)
        game, _ = self._current()
        self.state = game.new_state()
        return ""

    def cmd_play(self, args: list[str]) -> str:
        """`play MOVE`: play a move in the game's notation."""
        self._arity(args, "play MOVE", 1, 1)
        _, state = self._current()
        state.play(args[0])
        return ""

    def cmd_undo(self, args: list[str]) -> str:
        """`undo`: take back the last move."""
        self._arity(args, "undo", 0, 0)
        _, state = self._current()
        state.undo()
        return ""

    def cmd_legal(self, args: list[str]) -> str:
        """`legal`: the legal moves, in notation."""
        self._arity(args, "legal", 0, 0)
        game, state = self._current()
        return " ".join(game.format_move(m) for m in sorted(state.legal_moves()))

    def cmd_tomove(self, args: list[str]) -> str:
        """`tomove`: the side to move's name, `none` once the game is over."""
        self._arity(args, "tomove", 0, 0)
        game, state = self._current()
        return "none" if state.is_over() else game.player_names[state.to_move]

    def cmd_result(self, args: list[str]) -> str:
        """`result`: the game's result (`none` while it goes on)."""
        self._arity(args, "result", 0, 0)
        return self._current()[1].result()

    def cmd_score(self, args: list[str]) -> str:
        """`score`: the two players' scores, for games that keep a score."""
        self._arity(args, "score", 0, 0)
        game, state = self._current()
        if not game.scored:
            raise ProtocolError(f"{game.name} keeps no score")
        first, second = state.scores()
        return f"{first} {second}"

    def cmd_position(self, args: list[str]) -> str:
        """`position`: the position as text, as `load` reads it."""
        self._arity(args, "position", 0, 0)
        return self._current()[1].to_text()

    def cmd_load(self, args: list[str]) -> str:
        """`load PATH`: the position of a position file (or a game record)."""
        if not args:
            raise ProtocolError("usage: load PATH")
        game, _ = self._current()
        path = " ".join(args)
        try:
            text = read_text(path)
        except OSError as exc:
            raise ProtocolError(f"cannot read {path}: {exc.strerror or exc}") from None
        except BadFileError as exc:
            raise ProtocolError(f"cannot read {path}: {exc.reason}") from None
        state = game.parse_position(text)
        if state.game != game:
            self._forget_players()
        self.game, self.state = state.game, state
        return ""

    def cmd_board(self, args: list[str]) -> str:
        """`board`: the board as text."""
        self._arity(args, "board", 0, 0)
        game, state = self._current()
        return game.render_text(state)

    def cmd_genmove(self, args: list[str]) -> str:
        """`genmove [ai=NAME] [time=S | left=S inc=S] [key=value ...]`: the AI's
        move (in `time` seconds, or its share of the clock `left`), played and returned."""
        game, state = self._current()
        options = parse_options(args, "genmove option")
        ai = options.pop("ai", "default")
        if not isinstance(ai, str) or ai.split(":")[0].strip().lower() == PROGRAM:
            raise OptionError(f"ai must be the name of one of the library's AIs, not {quote(ai)}")
        seconds, left, increment = (options.pop(name, None) for name in CLOCK_OPTIONS)
        if seconds is not None:
            seconds = check_seconds("time", seconds)
        if left is not None:
            left = check_real("left", left, 0, MAX_SECONDS)
        increment = 0.0 if increment is None else check_real("inc", increment, 0, MAX_SECONDS)
        if state.is_over():
            raise GameOverError("genmove")
        key = (ai, tuple(sorted(options.items())))
        player = self.players.get(key)
        if player is None:
            player = make_player(game, ai, **options)
            self.players[key] = player
        if seconds is None and left is not None:
            seconds = self.time_manager.allot(state, max(left, 0.001), increment)
        started = time.perf_counter()
        with self._info_lines(player, state):
            move = player.choose(state, None if seconds is None else Limits(time=seconds))
        if seconds is not None and left is not None:
            self.time_manager.observe(seconds, time.perf_counter() - started)
        state.play(move)
        return game.format_move(move)

    @contextmanager
    def _info_lines(self, player: Player[Any], state: State[Any]) -> Iterator[None]:
        """While `player` thinks, an `info` line for every iteration of its search
        (version 2 only: a version 1 driver reads the answer's first line)."""
        engine: Any = getattr(player, "engine", None)
        if self.version < 2 or not hasattr(engine, "on_iteration"):
            yield
            return
        game = state.game

        def iteration(result: Any) -> None:
            self.output.write(info_line(game, result) + "\n")
            self.output.flush()

        saved, engine.on_iteration = engine.on_iteration, iteration
        try:
            yield
        finally:
            engine.on_iteration = saved

    def cmd_eval(self, args: list[str]) -> str:
        """`eval NAME [key=value ...]`: the evaluator's score of the position."""
        if not args:
            raise ProtocolError("usage: eval NAME [key=value ...]")
        game, state = self._current()
        evaluator = game.evaluator(args[0], **parse_options(args[1:], "evaluator option"))
        return format_number(evaluator(state.copy()))

    def cmd_perft(self, args: list[str]) -> str:
        """`perft DEPTH`: the number of move sequences of DEPTH moves."""
        self._arity(args, "perft DEPTH", 1, 1)
        _, state = self._current()
        depth = check_whole("perft depth", parse_value(args[0]), 0, 1000)
        return str(perft(state.copy(), depth))

    def cmd_list(self, args: list[str]) -> str:
        """`list games|ai|eval`: the games, or the current game's AIs or evaluators."""
        self._arity(args, "list games|ai|eval", 1, 1)
        what = args[0]
        if what == "games":
            return " ".join(game_names())
        if what not in ("ai", "eval"):
            raise ProtocolError(f"unknown list {quote(what)} (games, ai or eval)")
        game, _ = self._current()
        names = ai_names(game) if what == "ai" else game.evaluators()
        return " ".join(sorted(names))


#: Longest `?` line (bad input is quoted short where it is reported, too).
MESSAGE_LIMIT = 500


def _one_line(exc: BaseException | str) -> str:
    """The message on one line, at most MESSAGE_LIMIT characters."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 3] + "..."


def info_line(game: Game[Any], result: Any) -> str:
    """A search iteration as an `info` line: 'info depth=4 score=12 nodes=3150
    time=0.042 pv=C3 D4 C4' (the fields the result has; pv last)."""
    words = ["info", f"depth={int(result.depth)}"]
    score = float(result.score)
    if math.isfinite(score):
        words.append(f"score={format_number(score)}")
    words += [f"nodes={int(result.nodes)}", f"time={float(result.time):.3f}"]
    pv = [game.format_move(m) for m in result.pv if isinstance(m, int) and 0 <= m < game.num_moves]
    if pv:
        words.append("pv=" + " ".join(pv))
    return " ".join(words)


def engine_version() -> str:
    """The library's version (what `version` answers)."""
    try:
        return metadata.version("boardgames-ai")
    except metadata.PackageNotFoundError:
        from .. import __version__

        return __version__


def serve(game: Game[Any] | None, input: TextIO, output: TextIO) -> int:
    """Run a session over the given streams (what `boardgames engine` does)."""
    return EngineSession(input, output, game).run()
