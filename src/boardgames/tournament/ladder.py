"""Standing ladders: every named AI of a game in one round robin that grows.

A ladder is a tournament directory (`tournament.store.TournamentDir`) whose
players are all the AIs `boardgames list` names for the game (a human is
no AI), at `LADDER_TIME` seconds a move, rated with `alphabeta` at 0.  It is
played in rounds, and re-running it goes on where it stopped: first rounds
of the round robin (two games per pair, colours swapped) until every pair
has played `FOCUS_AFTER` games, then focused rounds (`tournament.focus`), as
many games each, given to the pairs that narrow the widest intervals most.
An AI registered since the ladder began joins it at the end of the list
(records are named by player index, so the games already played keep
their meaning); an AI that is no longer registered stops the ladder with
an error (start a new one).

How many games: a 95% interval of ±50 Elo between two equal players takes
185 games (1.96 * 400 / ln 10 / sqrt(n / 4) = 50).  In a round robin a
player learns from every opponent, less from the ones it always beats or
loses to; `TournamentResult.games_needed` works the number of games per
pair out from the ratings so far (`elo.games_for_error`), and
`Focus.games_to_target` the number of focused games, about half as many.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import numpy as np

from ..ai import ai_names
from ..errors import OptionError
from ..game import Game
from .elo import PRIOR_DRAWS
from .focus import PICK, Focus
from .schedule import TournamentSettings, round_robin_tasks
from .standings import TournamentResult

#: Seconds per move of a ladder's games.
LADDER_TIME = 1.0
#: The AI rated 0 in a ladder's table: the generic alpha-beta, which every game
#: has, which wins some games and loses some (random and often default win or
#: lose them all, and a rating measured from such a player is only a bound).
LADDER_ANCHOR = "alphabeta"
#: The 95% interval half-width a ladder aims at, in Elo.
TARGET_ELO = 50.0
#: Games per pair of the round robin before focused rounds begin.
FOCUS_AFTER = 4
#: Named players that are not AIs.
NOT_AIS = frozenset({"human"})


def ladder_players(game: Game[Any]) -> list[str]:
    """Every named AI of `game`, in name order."""
    return [name for name in ai_names(game) if name not in NOT_AIS]


def ladder_dir(game: Game[Any]) -> str:
    """The default directory of `game`'s ladder: 'ladder-hadron-cols9-rows9'."""
    return "-".join(["ladder", game.name, *(f"{k}{v}" for k, v in sorted(game.params.items()))])


def new_ladder(
    game: Game[Any], time: float = LADDER_TIME, seed: int = 0, extra: Iterable[str] = ()
) -> TournamentSettings:
    """The settings of a new ladder: one round (two games a pair) planned;
    `extra` players (programs, AIs with options) join the named AIs."""
    players = ladder_players(game)
    players += [spec for spec in dict.fromkeys(extra) if spec not in players]
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


def joined(
    settings: TournamentSettings, game: Game[Any], extra: Iterable[str] = ()
) -> TournamentSettings:
    """`settings` with the AIs registered since the ladder began, and the
    `extra` players not yet in it, added at the end (a player, once in a
    ladder, stays in it).

    OptionError if a named AI of the ladder is no longer registered for
    `game`, or if the settings are not a ladder of `game`."""
    if settings.game != game.name or dict(settings.params) != dict(game.params):
        raise OptionError(
            f"this is a ladder of {settings.game} {dict(settings.params)},"
            f" not of {game.name} {dict(game.params)}"
        )
    known = ladder_players(game)
    gone = [spec for spec in settings.players if _named(spec) and spec not in known]
    if gone:
        raise OptionError(
            f"the ladder's AI(s) {', '.join(map(str, gone))} are no longer registered;"
            " start a new ladder in another directory (--out)"
        )
    new = [name for name in known if name not in settings.players]
    new += [spec for spec in dict.fromkeys(extra) if spec not in [*settings.players, *new]]
    if not new:
        return settings
    return replace(settings, players=[*settings.players, *new])


def _named(spec: object) -> bool:
    """A plain AI name (what the ladder takes from the registry), not a spec
    with options or a program."""
    return isinstance(spec, str) and ":" not in spec


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
    extra = settings.pair_games  # focused rounds' pairs keep their own count
    highest = max((index + 1 for i, j, index in done if (i, j) not in extra), default=0)
    target = goal if rounds is None else min(goal, least + 2 * rounds)
    games = max(target, highest, 1)
    return settings if games == settings.games_per_pair else replace(settings, games_per_pair=games)


def bounds(result: TournamentResult) -> list[str]:
    """The AIs that won or lost every game: their rating is only a bound
    ("at least", "at most"), with no finite value to pin down."""
    return [s.label for s in result.standings() if s.games and s.points in (0, s.games)]


def focus_of(result: TournamentResult, settings: TournamentSettings) -> Focus:
    """The focused rounds' chooser at the ratings fitted so far: every AI
    rated but the anchor and the `bounds`."""
    wins, draws = result.counts()
    w, d = np.asarray(wins, dtype=float), np.asarray(draws, dtype=float)
    games = w + w.T + d
    games += PRIOR_DRAWS * (games > 0)  # as the fit counts them
    fit = result.elo()
    anchor, left_out = result.rated_anchor, set(bounds(result))
    rated = [
        i for i, label in enumerate(result.labels)
        if i != anchor and label not in left_out and games[i].any()
    ]
    return Focus(fit.ratings, games, anchor=anchor, rated=rated, pairs=settings.pair_list)


def next_round(
    settings: TournamentSettings,
    result: TournamentResult,
    games: int | None = None,
    target: float = TARGET_ELO,
) -> TournamentSettings | None:
    """The settings with one more round planned, or None when the ladder is done.

    With `games` (per pair): a round of the round robin, up to `games`.
    Otherwise a round of the round robin until every pair has played
    `FOCUS_AFTER` games, then a focused round (as many games, given to the
    pairs that narrow the widest intervals most: `tournament.focus`) until every
    rated AI's interval is within ±`target`."""
    done = {r.key for r in result.results if r.finished}
    step = planned(settings, done, 1, games if games is not None else FOCUS_AFTER)
    if not all(task.key in done for task in round_robin_tasks(step)):
        return step
    if games is not None:
        return None
    focus = focus_of(result, step)
    if focus.widest() <= target:
        return None
    extra = Counter(focus.round(len(step.pair_list)))
    if not extra:
        return None
    pair_games = dict(step.pair_games)
    for pair, picks in extra.items():
        pair_games[pair] = step.games_for(pair) + PICK * picks
    return replace(step, pair_games=pair_games)
