"""Playing games and matches between players.

`play_game` is the referee: it asks the player whose turn it is (read from
`state.to_move`, never assumed to alternate), times it, and makes a player
that crashes, returns an illegal move or overruns the per-move limit lose
the game on the spot.  It also serves the human's `undo`/`save`/`quit`.

Ctrl-C (KeyboardInterrupt) during a game is not swallowed: it comes out of
`play_game` as `GameInterrupted`, a KeyboardInterrupt that carries the
record of the moves so far, marked unfinished, so a caller can keep it.

`play_match` plays N games between two AI specs with colours alternating
and sums them up.  Players are run in-process, one move at a time: a player
that sleeps past the limit is only caught when it returns (a parallel,
process-isolated tournament is `tournament.worker`).
"""

from __future__ import annotations

import math
import operator
import random
import time as _time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from ..ai import make_player
from ..clock import TimeControl, TimeManager
from ..errors import (
    GameInterrupted,
    MatchInterrupted,
    OptionError,
    PlayerFault,
    PlayerHung,
    QuitRequest,
    SaveRequest,
    UndoRequest,
)
from ..game import End, Game, State
from ..options import check_real, check_seconds, check_whole
from ..players import Player
from .openings import opening_for, opening_position
from .records import GameRecord
from .timing import Timing, rounded, start_clock

MoveCallback = Callable[[State[Any], "int | None", "Player[Any] | None"], None]

#: The detail of a record of a game stopped by Ctrl-C.
CTRL_C = "Ctrl-C"


def default_tolerance(time_limit: float) -> float:
    """Slack allowed past the per-move limit before a player forfeits."""
    return 0.1 * time_limit + 0.05


def play_game(
    game: Game[Any],
    players: Sequence[Player[Any]],
    *,
    time_limit: float | None = None,
    start: State[Any] | GameRecord | None = None,
    on_move: MoveCallback | None = None,
    tolerance: float | None = None,
    max_moves: int | None = None,
    clock: TimeControl | str | None = None,
    time_manager: TimeManager | None = None,
) -> GameRecord:
    """Play one game; `players[0]` plays the first colour.

    `start` is a position to start from, or a record to continue (its moves
    and times are kept).  `on_move(state, move, player)` is called after every
    move (for display); `move` is None after an undo.  `time_limit` (seconds
    per move) applies to timed players; going over it by more than
    `tolerance` (default 10% + 50 ms) loses the game.  `max_moves` stops a
    game that would run too long, unfinished (`End.INTERRUPTED`).

    With a `clock` ("SECONDS[+INCREMENT]" or a TimeControl) each timed
    player has that budget for the whole game instead: `time_manager` (a
    default `TimeManager`) allots each move its share, which the player gets
    as its `time_limit` (capped by `time_limit` when both are given), and a
    player whose clock runs out loses on time (`End.TIME`).  Only the
    clock decides then; the record keeps each move's allotment and the time
    left on both clocks.
    """
    if len(players) != 2:
        raise ValueError(f"a game needs two players, got {len(players)}")
    if time_limit is not None:
        check_seconds("time limit", time_limit)
    if tolerance is not None:
        check_real("tolerance", tolerance, 0)
    if max_moves is not None:
        check_whole("max moves", max_moves, 1)
    control = None if clock is None else TimeControl.parse(clock)
    names = [p.name for p in players]
    if isinstance(start, GameRecord):
        state = start.replay(game)
        record = GameRecord.from_state(state, players=names, moves=(), start=start.start)
        record.moves, record.times = list(start.moves), list(start.times)
        movers = _movers(start, game)
    elif start is not None:
        state = start.copy()
        record = GameRecord.from_state(state, players=names, moves=(), start=start.to_text())
        movers = []
    else:
        state = game.new_state()
        record = GameRecord.from_state(state, players=names)
        movers = []
    # Moves before the record's own moves cannot be taken back.
    base = len(state.history) - len(record.moves)
    slack = (
        None
        if time_limit is None
        else (default_tolerance(time_limit) if tolerance is None else tolerance)
    )
    timing = Timing(time_limit, slack, None)
    if control is not None:
        timing.clock = start_clock(control, time_manager, record, start)
    for player in players:
        player.reset()
    try:
        return _referee(game, players, state, record, movers, base, timing, on_move, max_moves)
    except KeyboardInterrupt:
        # Ctrl-C may land anywhere, even between a move and its time: the record's
        # moves decide, and the position is rebuilt from them.
        del record.times[len(record.moves) :]
        record.times += [0.0] * (len(record.moves) - len(record.times))
        if record.clock is not None:
            del record.allotted[len(record.moves) :]
            record.allotted += [None] * (len(record.moves) - len(record.allotted))
        state = record.replay(game)
        raise GameInterrupted(record.finish(state, CTRL_C)) from None


def _referee(
    game: Game[Any],
    players: Sequence[Player[Any]],
    state: State[Any],
    record: GameRecord,
    movers: list[int],
    base: int,
    timing: Timing,
    on_move: MoveCallback | None,
    max_moves: int | None,
) -> GameRecord:
    while not state.is_over():
        if max_moves is not None and len(record.moves) >= max_moves:
            return record.finish(state, f"stopped after {max_moves} moves")
        side = state.to_move
        player = players[side]
        limit = timing.limit(state, player)
        started = _time.perf_counter()
        try:
            move = timing.ask(player, state, limit)
        except QuitRequest as request:
            if request.args == ("interrupted",):  # Ctrl-C at a human's prompt
                raise KeyboardInterrupt from None
            if request.args == ("resign",):
                return record.forfeit(state, side, End.RESIGNATION, f"{player.name} resigned")
            return record.finish(state, f"{player.name} quit")
        except UndoRequest:
            _undo(state, record, movers, side, base, player)
            if on_move is not None:
                on_move(state, None, player)
            continue
        except SaveRequest as request:
            _save(record, state, request.path, player)
            continue
        except PlayerHung as exc:  # stopped by the watchdog's hard limit
            return record.forfeit(state, side, End.HANG, str(exc))
        except PlayerFault as exc:  # a fault the player reported (a program's)
            return record.forfeit(state, side, End(exc.end), f"{player.name}: {exc}")
        except Exception as exc:  # a broken player loses; the referee carries on
            return record.forfeit(state, side, End.CRASH, f"{player.name}: {describe(exc)}")
        elapsed = _time.perf_counter() - started
        lost = timing.verdict(side, player, elapsed, limit)
        if timing.clock is not None:
            record.clock_left = rounded(timing.clock.left)
        if lost is not None:
            return record.forfeit(state, side, *lost)
        fault = _fault(state, move)
        if fault is not None:
            return record.forfeit(state, side, fault[0], f"{player.name}: {fault[1]}")
        move = operator.index(move)
        state.make(move)
        record.moves.append(game.format_move(move))
        record.times.append(round(elapsed, 4))
        if timing.clock is not None:
            record.allotted.append(None if limit is None else round(limit, 4))
        movers.append(side)
        if on_move is not None:
            on_move(state, move, player)
    return record.finish(state)


def _movers(record: GameRecord, game: Game[Any]) -> list[int]:
    return record.sides(game)


def _fault(state: State[Any], move: object) -> tuple[End, str] | None:
    """What is wrong with a player's answer `move`, or None for a legal move."""
    if isinstance(move, bool) or not hasattr(move, "__index__"):
        return End.MALFORMED, f"returned {move!r}, not a move index"
    move = operator.index(move)  # numpy integers are fine
    if not 0 <= move < state.game.num_moves:
        return End.MALFORMED, f"returned {move}, not a move index of {state.game.name}"
    reason = state.illegal_reason(move)
    if reason is None:
        return None
    return End.ILLEGAL, f"illegal move {state.game.format_move(move)} ({reason})"


def describe(exc: BaseException) -> str:
    """'ValueError: bad thing' (the class alone when the message is empty)."""
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _undo(
    state: State[Any],
    record: GameRecord,
    movers: list[int],
    side: int,
    base: int,
    player: Player[Any],
) -> None:
    """Take back `side`'s last move and everything played after it."""
    if side not in movers:
        player.tell("nothing to undo")
        return
    taken = 0
    while True:
        state.undo()
        record.moves.pop()
        record.times.pop()
        if record.allotted:
            record.allotted.pop()
        taken += 1
        if movers.pop() == side:
            break
    player.tell(f"took back {taken} move{'s' if taken > 1 else ''}")
    assert len(state.history) - base == len(record.moves)


def _save(record: GameRecord, state: State[Any], path: str, player: Player[Any]) -> None:
    snapshot = _copy(record).finish(state, "saved during play")
    try:
        snapshot.save(path)
    except OSError as exc:
        player.tell(f"cannot save to {path}: {exc.strerror or exc}")
    else:
        player.tell(f"saved to {path}")


def _copy(record: GameRecord) -> GameRecord:
    return GameRecord.from_dict(record.to_dict())


# --- matches -------------------------------------------------------------------------


@dataclass
class MatchSummary:
    """Results of a match, from the first named player's (A's) point of view."""

    game: str
    names: tuple[str, str]
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    #: Games a player lost by its own fault, by kind of end (`End.forfeit`).
    forfeits: Counter[End] = field(default_factory=Counter)
    records: list[GameRecord] = field(default_factory=list)

    @property
    def games(self) -> int:
        """The number of games played."""
        return len(self.records)

    @property
    def score(self) -> float:
        """A's points: 1 per win, 1/2 per draw."""
        return self.wins + 0.5 * self.draws

    @property
    def score_percent(self) -> float:
        """A's score as a percentage of the decided games (0 with none)."""
        decided = self.wins + self.draws + self.losses
        return 100.0 * self.score / decided if decided else 0.0

    @property
    def elo(self) -> float | None:
        """Elo difference A - B implied by the score (None at 0% or 100%)."""
        p = self.score_percent / 100.0
        if not 0.0 < p < 1.0:
            return None
        return -400.0 * math.log10(1.0 / p - 1.0)

    def add(self, record: GameRecord, a_side: int) -> None:
        """Count a finished game; `a_side` is the colour A played in it."""
        self.records.append(record)
        if record.forfeited:
            self.forfeits[record.end] += 1
        if record.result == "none":
            self.unfinished += 1
        elif record.winner is None:
            self.draws += 1
        elif record.winner == a_side:
            self.wins += 1
        else:
            self.losses += 1

    def format(self) -> str:
        """The match as text: the games, A's wins, draws and losses, the score
        and the Elo difference it implies."""
        a, b = self.names
        lines = [
            f"match: {a} vs {b} at {self.game}, {self.games} games",
            f"{a}: {self.wins} wins, {self.draws} draws, {self.losses} losses"
            f" -> {self.score:g}/{self.wins + self.draws + self.losses}"
            f" ({self.score_percent:.1f}%)",
        ]
        if self.elo is not None:
            lines.append(f"elo difference: {round(self.elo) or 0:+d}")
        if self.unfinished:
            lines.append(f"unfinished: {self.unfinished}")
        if self.forfeits:
            lines.append(
                "forfeits: "
                + ", ".join(f"{n} {end.value}" for end, n in sorted(self.forfeits.items()))
            )
        clocks = {r.clock for r in self.records if r.clock is not None}
        if clocks:
            from .timeuse import time_use

            lines.append(f"time used at clock {', '.join(sorted(clocks))}:")
            uses = time_use(r for r in self.records if r.clock is not None)
            lines += [f"  {uses[name].line()}" for name in self.names if name in uses]
        return "\n".join(lines)


def random_opening(game: Game[Any], plies: int, rng: random.Random) -> State[Any]:
    """A start position `plies` random moves deep, or fewer: an opening never
    ends the game (it would decide it, and the players would have nothing to do)."""
    state: State[Any] = game.new_state()
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state.make(rng.choice(moves))
        if state.is_over():
            state.undo()
            break
    return state


def play_match(
    game: Game[Any],
    spec_a: str | Player[Any],
    spec_b: str | Player[Any],
    *,
    games: int,
    time_limit: float | None = None,
    seed: int | None = None,
    opening_plies: int = 0,
    openings: Sequence[str] = (),
    on_game: Callable[[int, GameRecord, MatchSummary], None] | None = None,
    max_moves: int | None = None,
    clock: TimeControl | str | None = None,
    time_manager: TimeManager | None = None,
) -> MatchSummary:
    """Play `games` games between A and B, A taking the first colour in even games.

    With `opening_plies`, each pair of games starts from the same seeded
    random opening with colours swapped, so deterministic AIs play different
    games and neither gets the better side of an opening.  `openings` (moves
    in notation, as `match.openings.read_openings` gives them) are used in
    turn the same way, a pair of games each.  With a `clock` every game is
    played at that time control (see `play_game`).  Players made here from
    specs are closed at the end (an external program's process ends).
    """
    check_whole("games", games, 1)
    check_whole("opening plies", opening_plies, 0)
    if opening_plies and openings:
        raise OptionError("give random opening plies or openings, not both")
    control = None if clock is None else TimeControl.parse(clock)
    b_seed = None if seed is None else seed + 1
    with ExitStack() as built:  # players made here from specs are closed here
        a = spec_a if isinstance(spec_a, Player) else make_player(game, spec_a, seed=seed)
        if not isinstance(spec_a, Player):
            built.callback(a.close)
        b = spec_b if isinstance(spec_b, Player) else make_player(game, spec_b, seed=b_seed)
        if not isinstance(spec_b, Player):
            built.callback(b.close)
        if a.name == b.name:
            a.name, b.name = f"{a.name}#1", f"{b.name}#2"
        return _play_games(
            game, (a, b), games, seed, opening_plies, openings, on_game,
            dict(time_limit=time_limit, max_moves=max_moves, clock=control,
                 time_manager=time_manager),
        )


def _play_games(
    game: Game[Any],
    ab: tuple[Player[Any], Player[Any]],
    games: int,
    seed: int | None,
    opening_plies: int,
    openings: Sequence[str],
    on_game: Callable[[int, GameRecord, MatchSummary], None] | None,
    options: dict[str, Any],
) -> MatchSummary:
    """The games of `play_match` (`options` go to `play_game`)."""
    a, b = ab
    summary = MatchSummary(game=game.name, names=(a.name, b.name))
    rng = random.Random(seed)
    start: State[Any] | None = None
    for index in range(games):
        if opening_plies and index % 2 == 0:
            start = random_opening(game, opening_plies, rng)
        elif openings and index % 2 == 0:
            start = opening_position(game, opening_for(openings, index))
        a_side = index % 2
        players = (a, b) if a_side == 0 else (b, a)
        try:
            record = play_game(game, players, start=start, **options)
        except GameInterrupted as stop:
            summary.add(stop.record, a_side)
            raise MatchInterrupted(summary) from None
        summary.add(record, a_side)
        if on_game is not None:
            on_game(index, record, summary)
    return summary
