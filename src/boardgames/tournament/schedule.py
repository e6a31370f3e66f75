"""What a tournament plays: its settings, its seeds and its list of games.

`TournamentSettings` is the one description of a round robin (checked once,
when it is made); `round_robin_tasks` turns it into `GameTask`s, plain
picklable data that any worker can play.  Every game's seed is derived from
(tournament seed, pair, game index) only, so the games do not depend on the
number of workers or on the order in which games finish.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..ai import parse_spec
from ..clock import TimeControl
from ..errors import BadFileError, OptionError
from ..match.openings import opening_for
from ..match.watchdog import default_move_timeout
from ..options import MAX_GAMES_PER_PAIR, check_seconds, check_whole
from .tasks import GameTask, PlayerSpec, derive_seed

#: The `format` field of a tournament's manifest.
MANIFEST_FORMAT = "boardgames-tournament"
#: The manifest's fields that are written only when they are set.
OPTIONAL_FIELDS = (
    "labels", "pairs", "move_timeout", "clock", "anchor", "openings", "pair_games"
)



@dataclass(frozen=True)
class TournamentSettings:
    """Everything that decides a round robin's games, checked when it is made.

    Every pair of `players` (or each of `pairs`) plays `games_per_pair` games,
    colours alternating, or more where `pair_games` ((i, j) -> games) says
    so (a ladder's focused rounds).  `players` are AI specs ("alphabeta:depth=4") or
    picklable player factories; `labels` names them in the table (default:
    the specs, "#2" on repeats).  `move_timeout` and `game_timeout` are the
    watchdog's hard limits (the first defaults to twice the time limit plus
    5 s); a game still going after `max_moves` moves is a draw.  With
    `opening_plies`, games 2k and 2k+1 of every pair start from the same
    random opening (colours swapped); with `openings` (moves in notation, see
    `match.openings`), they start from opening k, the openings taken in turn.
    `plugins` are imported by every worker.
    With a `clock` ("SECONDS[+INCREMENT]") each side has that budget for the
    whole game (`time_limit`, if given too, caps each move's allotment; the
    watchdog's default per-move limit is then twice the budget plus 5 s).
    `anchor` names the player rated 0 in the table (default: the first
    plain random player, if any; "mean": the players' mean).

    Saved as a tournament directory's manifest (`to_dict`) and read back to
    resume (`from_dict`); a saved tournament needs specs as text.
    """

    game: str
    params: Mapping[str, int]
    players: Sequence[PlayerSpec]
    games_per_pair: int = 2
    time_limit: float | None = None
    seed: int = 0
    game_timeout: float | None = None
    max_moves: int | None = None
    opening_plies: int = 0
    plugins: Sequence[str] = ()
    labels: Sequence[str] | None = None
    pairs: Sequence[tuple[int, int]] | None = None
    move_timeout: float | None = None
    clock: str | None = None
    anchor_label: str | None = None
    openings: Sequence[str] = ()
    pair_games: Mapping[tuple[int, int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        fix = object.__setattr__  # normalise once: the checks below see the final values
        fix(self, "params", dict(self.params))
        fix(self, "players", tuple(self.players))
        fix(self, "plugins", tuple(self.plugins))
        fix(self, "openings", tuple(self.openings))
        if self.labels is not None:
            fix(self, "labels", tuple(self.labels))
        if self.pairs is not None:
            fix(self, "pairs", _check_pairs(self.pairs, len(self.players)))
        if self.clock is not None:
            fix(self, "clock", str(TimeControl.parse(self.clock)))
        fix(self, "pair_games", self._checked_pair_games())
        self._check()

    def _check(self) -> None:
        if len(self.players) < 2:
            raise OptionError("a tournament needs at least two players")
        check_whole("games_per_pair", self.games_per_pair, 1, MAX_GAMES_PER_PAIR)
        check_whole("opening_plies", self.opening_plies, 0)
        if self.opening_plies and self.openings:
            raise OptionError("give random opening plies or openings, not both")
        check_whole("seed", self.seed, None)
        for name in ("time_limit", "move_timeout", "game_timeout"):
            if getattr(self, name) is not None:
                check_seconds(name, getattr(self, name))
        if self.max_moves is not None:
            check_whole("max_moves", self.max_moves, 1)
        if self.labels is not None and len(self.labels) != len(self.players):
            raise OptionError("give one label per player")
        if self.labels is not None and len(set(self.labels)) != len(self.labels):
            raise OptionError("give every player a different label")
        if self.anchor_label is not None and self.anchor_label not in (*self.names, "mean"):
            raise OptionError(
                f"the anchor {self.anchor_label!r} is not a player (players:"
                f" {', '.join(self.names)}; or mean)"
            )

    @property
    def names(self) -> list[str]:
        """The players' names in tables: `labels`, or the specs made unique."""
        return list(self.labels) if self.labels is not None else unique_labels(self.players)

    @property
    def pair_list(self) -> list[tuple[int, int]]:
        """The pairs that play, i < j, sorted."""
        if self.pairs is not None:
            return list(self.pairs)
        return list(itertools.combinations(range(len(self.players)), 2))

    def _checked_pair_games(self) -> dict[tuple[int, int], int]:
        """`pair_games` keyed by the pairs as (i, j), i < j, sorted; OptionError
        for a pair that does not play or a count that is not a whole number >= 1."""
        known = set(self.pair_list)
        out: dict[tuple[int, int], int] = {}
        for (a, b), games in sorted(dict(self.pair_games).items()):
            pair = (min(a, b), max(a, b))
            if pair not in known:
                raise OptionError(f"pair_games: ({a}, {b}) is not a pair of this tournament")
            check_whole("pair_games", games, 1, MAX_GAMES_PER_PAIR)
            out[pair] = games
        return out

    def games_for(self, pair: tuple[int, int]) -> int:
        """The games `pair` (i < j) plays: `games_per_pair`, or more by `pair_games`."""
        return max(self.games_per_pair, self.pair_games.get(pair, 0))

    @property
    def planned(self) -> int:
        """The number of games the settings schedule."""
        return sum(self.games_for(pair) for pair in self.pair_list)

    @property
    def anchor(self) -> int | None:
        """The player rated 0 in the table: `anchor_label`'s, else the first
        plain random player, if any (None: the mean is 0)."""
        if self.anchor_label == "mean":
            return None
        if self.anchor_label is not None:
            return self.names.index(self.anchor_label)
        return random_anchor(self.players)

    def to_dict(self) -> dict[str, Any]:
        """The manifest: JSON-ready, what `from_dict` reads back."""
        if not all(isinstance(p, str) for p in self.players):
            raise OptionError("only players given as AI specs (text) can be saved")
        data: dict[str, Any] = {
            "format": MANIFEST_FORMAT,
            "version": 1,
            "game": self.game,
            "params": self.params,
            "players": list(self.players),
            "games_per_pair": self.games_per_pair,
            "time_limit": self.time_limit,
            "seed": self.seed,
            "game_timeout": self.game_timeout,
            "max_moves": self.max_moves,
            "opening_plies": self.opening_plies,
            "plugins": list(self.plugins),
        }
        if self.labels is not None:
            data["labels"] = list(self.labels)
        if self.pairs is not None:
            data["pairs"] = [list(pair) for pair in self.pairs]
        if self.move_timeout is not None:
            data["move_timeout"] = self.move_timeout
        if self.clock is not None:
            data["clock"] = self.clock
        if self.anchor_label is not None:
            data["anchor"] = self.anchor_label
        if self.openings:
            data["openings"] = list(self.openings)
        if self.pair_games:
            data["pair_games"] = [[i, j, n] for (i, j), n in self.pair_games.items()]
        return data

    @classmethod
    def from_dict(cls, data: Any, source: str) -> TournamentSettings:
        """The settings a manifest holds; BadFileError naming `source` and the fault."""
        if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
            raise BadFileError(source, f"not a tournament manifest (no format {MANIFEST_FORMAT!r})")
        if data.get("version") != 1:
            raise BadFileError(source, f"unsupported manifest version {data.get('version')!r}")
        fields: dict[str, Any] = {
            k: data.get(k) for k in ("time_limit", "game_timeout", "max_moves")
        }
        fields.update({k: data[k] for k in OPTIONAL_FIELDS if data.get(k) is not None})
        try:
            fields.update(
                {k: data[k] for k in ("game", "params", "players", "games_per_pair", "seed")}
            )
        except KeyError as exc:
            raise BadFileError(source, f"missing field {exc.args[0]!r}") from None
        fields["opening_plies"] = data.get("opening_plies", 0)
        fields["plugins"] = data.get("plugins", [])
        if not _manifest_types_ok(fields):
            raise BadFileError(source, "a field has the wrong type")
        if "pairs" in fields:
            fields["pairs"] = [tuple(p) for p in fields["pairs"]]
        if "pair_games" in fields:
            fields["pair_games"] = {(i, j): n for i, j, n in fields["pair_games"]}
        if "anchor" in fields:
            fields["anchor_label"] = fields.pop("anchor")
        try:  # the checks of the command-line flags: a hand-edited NaN cannot slip in
            return cls(**fields)
        except OptionError as exc:
            raise BadFileError(source, str(exc)) from None


def _is_list_of(value: Any, kind: type | tuple[type, ...]) -> bool:
    return isinstance(value, list) and all(isinstance(v, kind) for v in value)


def _manifest_types_ok(fields: dict[str, Any]) -> bool:
    """The JSON types of a manifest's fields (their values are checked by the settings)."""
    params = fields["params"]
    pairs = fields.get("pairs", [])
    counts = fields.get("pair_games", [])
    return all([
        isinstance(fields["game"], str),
        isinstance(params, dict) and all(isinstance(v, int) for v in params.values()),
        _is_list_of(fields["players"], str),
        isinstance(fields["games_per_pair"], int),
        isinstance(fields["seed"], int),
        isinstance(fields["opening_plies"], int),
        _is_list_of(fields["plugins"], str),
        _is_list_of(fields.get("labels", []), str),
        _is_list_of(fields.get("openings", []), str),
        _is_list_of(pairs, list) and all(_is_list_of(p, int) and len(p) == 2 for p in pairs),
        _is_list_of(counts, list) and all(_is_list_of(c, int) and len(c) == 3 for c in counts),
        isinstance(fields.get("clock", ""), str),
        isinstance(fields.get("anchor", ""), str),
    ])  # fmt: skip


def _check_pairs(pairs: Sequence[tuple[int, int]], players: int) -> tuple[tuple[int, int], ...]:
    """The pairs as (i, j) with i < j, sorted, each once; OptionError for a bad one."""
    pair_list = sorted({(min(p), max(p)) for p in pairs})
    for i, j in pair_list:
        if i == j or not (0 <= i < players and 0 <= j < players):
            raise OptionError(f"bad pair ({i}, {j}) for {players} players")
    return tuple(pair_list)


# --- the games --------------------------------------------------------------------------------


def round_robin_tasks(settings: TournamentSettings) -> list[GameTask]:
    """Every game of the round robin (or of just its `pairs`), rounds interleaved.

    Games are ordered game index first, so a tournament stopped half-way has
    played every pair about equally often.  Games 2k and 2k+1 of every pair
    share one opening seed (and so one random opening), or one of `openings`.
    """
    specs, names = settings.players, settings.names
    move_timeout = settings.move_timeout
    if move_timeout is None and settings.clock is not None:
        move_timeout = clock_move_timeout(TimeControl.parse(settings.clock))
    elif move_timeout is None:
        move_timeout = default_move_timeout(settings.time_limit)
    tasks = []
    pairs = settings.pair_list
    for index in range(max(map(settings.games_for, pairs))):
        for i, j in pairs:
            if index >= settings.games_for((i, j)):
                continue
            first, second = (i, j) if index % 2 == 0 else (j, i)
            tasks.append(
                GameTask(
                    game=settings.game,
                    params=dict(settings.params),
                    pair=(i, j),
                    index=index,
                    specs=(specs[first], specs[second]),
                    labels=(names[first], names[second]),
                    seed=derive_seed(settings.seed, i, j, index),
                    time_limit=settings.time_limit,
                    move_timeout=move_timeout,
                    game_timeout=settings.game_timeout,
                    max_moves=settings.max_moves,
                    opening_plies=settings.opening_plies,
                    opening_seed=derive_seed(settings.seed, index // 2),
                    opening=opening_for(settings.openings, index) if settings.openings else "",
                    plugins=tuple(settings.plugins),
                    clock=settings.clock,
                )
            )
    return tasks


def clock_move_timeout(control: TimeControl) -> float:
    """The watchdog's per-move limit at a clock: far past any clock's running out
    (twice the budget and 100 increments, plus 5 s)."""
    return 2 * (control.seconds + 100 * control.increment) + 5.0


def unique_labels(specs: Sequence[PlayerSpec]) -> list[str]:
    """Player names for tables: the specs, with "#2", "#3"... on repeats."""
    names = [spec_label(s) for s in specs]
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def spec_label(spec: PlayerSpec) -> str:
    """A player's label: the spec itself, or the factory's name."""
    if isinstance(spec, str):
        return spec
    name = getattr(spec, "name", None) or getattr(spec, "__name__", None)
    return str(name) if name else repr(spec)


def random_anchor(specs: Sequence[PlayerSpec]) -> int | None:
    """Index of the first plain random player (rated 0), if any."""
    for index, spec in enumerate(specs):
        if isinstance(spec, str):
            try:
                if parse_spec(spec)[0] == "random":
                    return index
            except OptionError:
                continue
    return None
