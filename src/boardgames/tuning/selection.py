"""Natural selection of evaluator parameters (the Aenigma authors' tuner, seed 002).

Each generation: a population of players with parameters, a round robin
among them, the best `keep` by win/loss ratio survive with their parameters
and everyone else is replaced by a fresh random player.  After the last
generation the best survivor is the answer.

The loop is generic: a `ParamSpace` says how to draw parameters and a
`spec` function turns parameters into an AI spec string, so any game and
evaluator with numeric options can be tuned.  Games run through
`boardgames.tournament.run.round_robin`, hence on any executor (worker
processes, a Dask cluster) and reproducibly for a seed when the players are
depth- or node-limited (time-limited players depend on the machine).

A game offers a ready-made tuner (what `boardgames tune GAME` runs) by
declaring a `Tuner` (`register_game(..., tuner=...)`): the AI and the
ranges of its options, e.g. `tuning/hadron.py` for Hadron's Aenigma.

Ranking: the win/loss ratio W/L orders players exactly like the win share
W / (W + L), which stays finite for an unbeaten player; ties go to more
wins, then to the older player.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import BoardgamesError, OptionError
from ..game import Game
from ..io import atomic_write_text
from ..options import check_whole
from ..registry import game_entry, game_part
from ..tournament.run import round_robin
from ..tournament.schedule import TournamentSettings
from ..tournament.standings import TournamentResult
from ..tournament.tasks import GameResult, derive_seed

Params = dict[str, float]
FORMAT = "boardgames-tune"


@dataclass(frozen=True)
class ParamRange:
    """The range a parameter is drawn from: uniform in [low, high], whole
    numbers only with `integer`."""
    low: float
    high: float
    integer: bool = False

    def sample(self, rng: random.Random) -> float:
        """A value drawn from the range (rounded to 4 decimals, or whole)."""
        if self.integer:
            return rng.randint(int(self.low), int(self.high))
        return round(rng.uniform(self.low, self.high), 4)


@dataclass(frozen=True)
class ParamSpace:
    """Independent uniform ranges, one per parameter name."""

    ranges: Mapping[str, ParamRange]

    def sample(self, rng: random.Random) -> Params:
        """A value for every parameter, each drawn from its range."""
        return {name: r.sample(rng) for name, r in self.ranges.items()}


@dataclass
class Contestant:
    """One player of a generation and how it did."""

    ident: int  # unique over the whole run
    born: int  # the generation it was drawn in
    params: Params
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def ratio(self) -> float | None:
        """Wins / losses (None for an unbeaten player with wins: infinite)."""
        if self.losses:
            return self.wins / self.losses
        return None if self.wins else 0.0

    @property
    def share(self) -> float:
        """Wins as a share of the decided games (0 with none)."""
        decided = self.wins + self.losses
        return self.wins / decided if decided else 0.0

    def label(self) -> str:
        """The contestant's label, `p` and its number."""
        return f"p{self.ident}"

    def to_dict(self) -> dict[str, Any]:
        """The contestant as JSON data."""
        return {
            "id": self.ident, "born": self.born, "params": self.params, "wins": self.wins,
            "draws": self.draws, "losses": self.losses,
            "ratio": None if self.ratio is None else round(self.ratio, 4),
        }


@dataclass
class Generation:
    """One generation of the tuner: its players, ranked best first, and the
    number of games they played."""
    index: int
    players: list[Contestant]  # ranked, best first
    games: int

    def to_dict(self) -> dict[str, Any]:
        """The generation as JSON data."""
        return {"generation": self.index, "games": self.games,
                "players": [p.to_dict() for p in self.players]}


@dataclass
class SelectionResult:
    """The best parameters so far and every finished generation's table.

    While the selection runs (or after it was interrupted), `best` is the
    leader of the last finished generation and `complete` is False.
    """

    best: Params
    history: list[Generation] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    complete: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The run as JSON data: the best parameters, the settings, the history."""
        return {
            "format": FORMAT,
            "version": 1,
            "best": self.best,
            "complete": self.complete,
            "settings": self.settings,
            "history": [g.to_dict() for g in self.history],
        }

    def save(self, path: str | Path) -> None:
        """Write the run as JSON to `path` (atomically)."""
        atomic_write_text(path, json.dumps(self.to_dict(), indent=2) + "\n")

    def format(self) -> str:
        """The run as text: the top two players of each generation, then the best
        parameters."""
        lines = []
        for g in self.history:
            top = ", ".join(f"{p.label()} {p.wins}-{p.losses}" for p in g.players[:2])
            lines.append(f"generation {g.index}: {top}")
        best = " ".join(f"{k}={_fmt(v)}" for k, v in self.best.items())
        lines.append(f"best: {best}")
        return "\n".join(lines)


def _check_generation(index: int, table: TournamentResult) -> None:
    """BoardgamesError when a generation's games say nothing about the
    parameters: some could not be played, or every one was forfeited (a
    broken evaluator, an impossible time limit).  Selecting on that would
    return random parameters as if they had won."""
    if table.errors:
        raise BoardgamesError(
            f"generation {index}: {len(table.errors)} games could not be played"
            f" (first: {table.errors[0].error})"
        )
    forfeits = [r.record for r in table.results if r.record and r.record.forfeited]
    if table.results and len(forfeits) == len(table.results):
        raise BoardgamesError(
            f"generation {index}: every game was forfeited, first by"
            f" {forfeits[0].end.value}: {forfeits[0].reason}"
        )


def _fmt(value: float) -> str:
    return f"{value:g}"


def rank(players: list[Contestant]) -> list[Contestant]:
    """Best first: win share (the W/L order), then wins, then the older player."""
    return sorted(players, key=lambda p: (-p.share, -p.wins, p.born, p.ident))


def natural_selection(
    game: Game[Any],
    space: ParamSpace,
    spec: Callable[[Params], str],
    *,
    population: int = 8,
    generations: int = 5,
    keep: int = 2,
    games_per_pair: int = 2,
    time_limit: float | None = None,
    seed: int = 0,
    executor: Executor | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    on_generation: Callable[[Generation], None] | None = None,
    max_moves: int | None = None,
    on_progress: Callable[[SelectionResult], None] | None = None,
) -> SelectionResult:
    """Run the selection; returns the best parameters and every generation's table.

    `on_progress(result)` sees the result so far after every generation
    (e.g. to save it, so an interrupted run keeps what it learned).
    """
    check_whole("population", population, 2)
    check_whole("keep", keep, 1, population - 1)
    check_whole("generations", generations, 1)
    rng = random.Random(seed)
    counter = 0

    def newcomer(born: int) -> Contestant:
        nonlocal counter
        counter += 1
        return Contestant(counter, born, space.sample(rng))

    players = [newcomer(0) for _ in range(population)]
    result = SelectionResult(best={}, settings={
        "game": game.name, "params": dict(game.params), "population": population,
        "generations": generations, "keep": keep, "games_per_pair": games_per_pair,
        "time_limit": time_limit, "seed": seed, "player": spec({}),
    })
    for index in range(generations):
        for p in players:
            p.wins = p.draws = p.losses = 0
        settings = TournamentSettings(
            game.name,
            game.params,
            [spec(p.params) for p in players],
            labels=[p.label() for p in players],
            games_per_pair=games_per_pair,
            time_limit=time_limit,
            seed=derive_seed(seed, index),
            max_moves=max_moves,
        )
        table = round_robin(settings, executor, on_result=on_result)
        _check_generation(index, table)
        wins, draws = table.counts()
        for i, p in enumerate(players):
            p.wins = sum(wins[i])
            p.draws = sum(draws[i])
            p.losses = sum(wins[j][i] for j in range(len(players)))
        ranked = rank(players)
        generation = Generation(
            index, [Contestant(**vars(p)) for p in ranked], sum(r.finished for r in table.results)
        )
        result.history.append(generation)
        result.best = dict(ranked[0].params)
        result.complete = index + 1 == generations
        if on_generation is not None:
            on_generation(generation)
        if on_progress is not None:
            on_progress(result)
        if index + 1 < generations:
            players = ranked[:keep] + [newcomer(index + 1) for _ in range(population - keep)]
    return result


# --- the tuners games declare -------------------------------------------------------------


def ai_spec(
    ai: str, params: Mapping[str, float], *, depth: int | None = None, time: float | None = None
) -> str:
    """The spec of AI `ai` with these parameters and search limits."""
    options = [f"{k}={_fmt(v)}" for k, v in params.items()]
    if depth is not None:
        options.append(f"depth={depth}")
    if time is not None:
        options.append(f"time={_fmt(time)}")
    return f"{ai}:{','.join(options)}" if options else ai


@dataclass(frozen=True)
class Tuner:
    """A game's tuner: which AI's options to tune, and their ranges on a board.

    The AI must take the parameters as options and load a saved result with
    `params=FILE` (`--ai AI:params=FILE`).
    """

    game: str
    ai: str
    space: Callable[[Game[Any]], ParamSpace]
    #: What is tuned, for help texts ("Aenigma's w1, w2 and t").
    help: str = ""

    def run(
        self, game: Game[Any], *, depth: int | None = 2, time: float | None = None, **options: Any
    ) -> SelectionResult:
        """Natural selection of the AI's parameters on `game`.

        `depth`/`time` limit each player's search; the rest goes to `natural_selection`.
        """
        if game.name != self.game:
            raise OptionError(f"{self.ai} is tuned on {self.game}, not {game.name}")

        def spec(params: Mapping[str, float]) -> str:
            return ai_spec(self.ai, params, depth=depth, time=time)

        result = natural_selection(game, self.space(game), spec, **options)
        result.settings.update({"depth": depth, "time": time})
        return result


def weights_tuner(game: Game[Any]) -> Tuner | None:
    """A tuner of the default AI over the weights its evaluator declares, each
    drawn in its declared range (None when it declares none)."""
    weights = game.tunable_weights()
    if weights is None:
        return None
    space = ParamSpace({w.name: ParamRange(w.low, w.high) for w in weights.weights})
    return Tuner(game.name, "default", lambda _: space, f"{weights.describe()}'s weights")


def tuner_for(game: Game[Any]) -> Tuner:
    """The tuner the game declares, else one over its declared weights
    (`weights_tuner`); OptionError naming the games that have one."""
    if game_entry(game.name).part("tuner") is None:
        found = weights_tuner(game)
        if found is not None:
            return found
    tuner: Tuner = game_part(game.name, "tuner")
    return tuner
