"""Standing ladders: every named AI of a game in one round robin that grows.

A ladder is a tournament directory (`arena.store.TournamentDir`) whose
players are all the AIs `boardgames list` names for the game (a human is
no AI), at `LADDER_TIME` seconds a move, rated with `alphabeta` at 0.  It is
played in rounds (two games per pair, colours swapped), so a ladder stopped
at any point has played every pair equally often, and re-running it goes
on where it stopped.  An AI registered since the ladder began joins it at
the end of the list (records are named by player index, so the games
already played keep their meaning); an AI that is no longer registered
stops the ladder with an error (start a new one).

How many games: a 95% interval of ±50 Elo between two equal players takes
185 games (1.96 * 400 / ln 10 / sqrt(n / 4) = 50).  In a round robin a
player learns from every opponent, less from the ones it always beats or
loses to; `TournamentResult.games_needed` works the number out from the
ratings so far (`elo.games_for_error`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from ..ai import ai_names
from ..errors import OptionError
from ..game import Game
from .schedule import TournamentSettings
from .standings import TournamentResult

#: Seconds per move of a ladder's games.
LADDER_TIME = 1.0
#: The AI rated 0 in a ladder's table: the generic alpha-beta, which every game
#: has, which wins some games and loses some (random and often default win or
#: lose them all, and a rating measured from such a player is only a bound).
LADDER_ANCHOR = "alphabeta"
#: The 95% interval half-width a ladder aims at, in Elo.
TARGET_ELO = 50.0
#: Games per pair that a ±50 interval takes between two equal players.
EQUAL_PAIR_GAMES = 186
#: Named players that are not AIs.
NOT_AIS = frozenset({"human"})


def ladder_players(game: Game) -> list[str]:
    """Every named AI of `game`, in name order."""
    return [name for name in ai_names(game) if name not in NOT_AIS]


def ladder_dir(game: Game) -> str:
    """The default directory of `game`'s ladder: 'ladder-hadron-cols9-rows9'."""
    return "-".join(["ladder", game.name, *(f"{k}{v}" for k, v in sorted(game.params.items()))])


def new_ladder(game: Game, time: float = LADDER_TIME, seed: int = 0) -> TournamentSettings:
    """The settings of a new ladder: one round (two games a pair) planned."""
    players = ladder_players(game)
    anchor = LADDER_ANCHOR if LADDER_ANCHOR in players else "mean"
    return TournamentSettings(
        game=game.name,
        params=dict(game.params),
        players=players,
        games_per_pair=2,
        time_limit=time,
        seed=seed,
        anchor_label=anchor,
    )


def joined(settings: TournamentSettings, game: Game) -> TournamentSettings:
    """`settings` with the AIs registered since the ladder began added at the end.

    OptionError if an AI of the ladder is no longer registered for `game`,
    or if the settings are not a ladder of `game`."""
    if settings.game != game.name or dict(settings.params) != dict(game.params):
        raise OptionError(
            f"this is a ladder of {settings.game} {dict(settings.params)},"
            f" not of {game.name} {dict(game.params)}"
        )
    known = ladder_players(game)
    gone = [spec for spec in settings.players if spec not in known]
    if gone:
        raise OptionError(
            f"the ladder's AI(s) {', '.join(map(str, gone))} are no longer registered;"
            " start a new ladder in another directory (--out)"
        )
    new = [name for name in known if name not in settings.players]
    if not new:
        return settings
    return replace(settings, players=[*settings.players, *new])


def planned(
    settings: TournamentSettings,
    done: Iterable[tuple[int, int, int]],
    rounds: int | None,
    goal: int,
) -> TournamentSettings:
    """The settings for this run, from the games `done` (their keys).

    `rounds` more rounds (two games a pair) for the pair that has played
    least, or up to `goal` games per pair when None; never past `goal`, and
    never fewer games per pair than the highest game already played (a new
    AI first catches up with the others)."""
    played = Counter((i, j) for i, j, _ in done)
    least = min((played[pair] for pair in settings.pair_list), default=0)
    highest = max((index + 1 for *_, index in done), default=0)
    target = goal if rounds is None else min(goal, least + 2 * rounds)
    games = max(target, highest, 1)
    return settings if games == settings.games_per_pair else replace(settings, games_per_pair=games)


def goal_games(result: TournamentResult, target: float = TARGET_ELO) -> tuple[int, list[str]]:
    """(games per pair for ±`target` Elo, the AIs whose rating is only a bound).

    The number is `games_needed`'s largest over the AIs that have both
    scored and dropped points; an AI that won or lost every game has no
    finite rating to pin down (its interval only says "at least" or "at
    most"), so it is named instead.  Before any game: a round robin of k
    equal players needs 2/k of a single pair's games."""
    standings = result.standings()
    bounds = [s.label for s in standings if s.games and s.points in (0, s.games)]
    needed = result.games_needed(target)
    rated = [needed[s.label] for s in standings if s.games and s.label not in bounds]
    if not any(s.games for s in standings):
        return math.ceil(EQUAL_PAIR_GAMES * 2 / max(2, len(standings))), []
    finite = [n for n in rated if math.isfinite(n)]
    return max(2, math.ceil(max(finite, default=2))), bounds
