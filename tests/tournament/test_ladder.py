"""Standing ladders: players, growth, the games a ±50 Elo interval needs, the command."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import replace
from pathlib import Path

import connect_four  # noqa: F401  (registers connect4)
import pytest
from click.testing import CliRunner

from boardgames.cli import main
from boardgames.errors import OptionError
from boardgames.match.records import GameRecord
from boardgames.registry import get_game
from boardgames.tournament import ladder
from boardgames.tournament.elo import fit_elo, games_for_error
from boardgames.tournament.ladder import (
    FOCUS_AFTER,
    bounds,
    focus_of,
    joined,
    ladder_dir,
    ladder_players,
    new_ladder,
    next_round,
    planned,
)
from boardgames.tournament.standings import TournamentResult
from boardgames.tournament.tasks import GameResult

ROOT = Path(__file__).resolve().parents[2]
CONNECT4 = str(ROOT / "examples" / "connect_four")
#: Connect Four's AIs: the generic ones and its own default.
AIS = ["alphabeta", "default", "mcts", "minimax", "negascout", "random"]


@pytest.fixture
def game(monkeypatch):
    """Connect Four, whose AIs are its own and the generic ones (other tests
    may register more in this process: the ladder sees only these)."""
    names = {name: "" for name in sorted([*AIS, "human"])}
    monkeypatch.setattr(ladder, "ai_names", lambda g: names)
    return get_game("connect4")


def test_a_ladder_has_every_named_ai_and_alphabeta_at_zero(game):
    assert ladder_players(game) == AIS  # not the human
    settings = new_ladder(game)
    assert list(settings.players) == AIS
    assert settings.time_limit == 1.0 and settings.games_per_pair == 2
    assert settings.anchor == 0 and settings.anchor_label == "alphabeta"
    assert ladder_dir(game) == "ladder-connect4"
    assert ladder_dir(get_game("hadron", rows=5, cols=7)) == "ladder-hadron-cols7-rows5"


def test_new_ais_join_at_the_end_and_a_vanished_one_is_an_error(game, monkeypatch):
    settings = new_ladder(game)
    more = {name: "" for name in [*AIS, "zeta", "beta"]}
    monkeypatch.setattr(ladder, "ai_names", lambda g: dict(sorted(more.items())))
    grown = joined(settings, game)
    assert list(grown.players) == [*AIS, "beta", "zeta"]  # old indices kept
    assert joined(grown, game) == grown
    del more["mcts"]
    with pytest.raises(OptionError, match="mcts are no longer registered"):
        joined(settings, game)
    with pytest.raises(OptionError, match="not of hadron"):
        joined(settings, get_game("hadron"))


def test_a_run_plans_rounds_up_to_the_goal_and_never_forgets_games(game):
    settings = new_ladder(game)  # 6 players, 15 pairs, 2 games planned
    pairs = settings.pair_list
    done = {(i, j, k) for i, j in pairs for k in range(4)}
    assert planned(settings, done, 1, 100).games_per_pair == 6
    assert planned(settings, done, 3, 100).games_per_pair == 10
    assert planned(settings, done, 3, 8).games_per_pair == 8  # the goal
    assert planned(settings, done, None, 50).games_per_pair == 50
    assert planned(settings, done, 0, 50).games_per_pair == 4  # nothing new
    # One pair is behind (a new AI): it catches up first, to the highest game played.
    behind = {k for k in done if k[:2] != pairs[0]}
    assert planned(settings, behind, 1, 100).games_per_pair == 4
    assert planned(settings, set(), 1, 100).games_per_pair == 2


def test_games_for_error_worked_by_hand():
    z = 1.959963984540054
    # One pair of equal players: half-width z * 400 / ln 10 / sqrt(n / 4) = 50.
    one = (z * 400 / math.log(10) / 0.5 / 50) ** 2
    assert games_for_error([0, 0], [[0, 1], [1, 0]], 50, anchor=0) == pytest.approx([0, one])
    # Three equal players, every pair met: a difference has variance 2 / (3 w)
    # against 1 / w for a lone pair, so 2/3 of the games.
    three = games_for_error([0] * 3, [[0, 1, 1], [1, 0, 1], [1, 1, 0]], 50, anchor=0)
    assert three == pytest.approx([0, 2 / 3 * one, 2 / 3 * one])
    # A player who met nobody can never be rated.
    lonely = games_for_error([0] * 3, [[0, 1, 0], [1, 0, 0], [0, 0, 0]], 50, anchor=0)
    assert lonely[2] == math.inf
    # The estimate agrees with a fit of that many games.
    n = round(one)
    fit = fit_elo([[0, n / 2], [n / 2, 0]], prior_draws=0, anchor=0)
    assert fit.errors[1] == pytest.approx(50, abs=0.2)
    with pytest.raises(ValueError):
        games_for_error([0, 0], [[0, 1], [1, 0]], 0)


def _result(labels, outcomes, anchor=0):
    """A table from (first, second, winner index or None) triples."""
    results = []
    counts = {}
    for first, second, winner in outcomes:
        pair = (min(first, second), max(first, second))
        index = counts.get(pair, 0)
        counts[pair] = index + 1
        if (index % 2 == 0) != (first == pair[0]):
            raise ValueError("colours alternate: the lower index plays first in even games")
        side = None if winner is None else (0 if winner == first else 1)
        record = GameRecord(game="connect4", result="draw" if side is None else "x", winner=side)
        results.append(GameResult(pair, index, record))
    return TournamentResult(labels=labels, results=results, planned=len(results), anchor=anchor)


def test_players_who_won_or_lost_everything_are_bounds_and_not_rated():
    labels = ["a", "b", "c"]
    # a and b split their games; both always beat c, whose rating is only a bound.
    games = [(0, 1, 0), (1, 0, 1), (0, 2, 0), (2, 0, 0), (1, 2, 1), (2, 1, 1)]
    result = _result(labels, games)
    assert bounds(result) == ["c"]
    settings = new_ladder_of(labels)
    focus = focus_of(result, settings)
    assert focus.rated == [1]  # not the anchor a, not the bound c
    assert focus.widest() == pytest.approx(result.elo().errors[1])


def new_ladder_of(labels):
    from boardgames.tournament.schedule import TournamentSettings

    return TournamentSettings(game="connect4", params={}, players=labels, anchor_label=labels[0])


def _round_robin(labels, per_pair, winner):
    """`per_pair` games for every pair, colours alternating; `winner(i, j, k)`
    gives the winner's index (or None) of the k-th game of pair (i, j)."""
    out = []
    for i, j in itertools.combinations(range(len(labels)), 2):
        for k in range(per_pair):
            first, second = (i, j) if k % 2 == 0 else (j, i)
            out.append((first, second, winner(i, j, k)))
    return out


def test_next_round_plays_the_round_robin_first_then_focused_rounds():
    labels = ["a", "b", "c", "d"]
    settings = new_ladder_of(labels)  # 2 games a pair planned, anchor a
    empty = _result(labels, [])
    assert next_round(settings, empty).games_per_pair == 2
    # c always beats d; the rest alternate wins and draws: every pair has met.
    def winner(i, j, k):
        if (i, j) == (2, 3):
            return 2
        return None if k % 2 else i
    two = _result(labels, _round_robin(labels, 2, winner))
    step = next_round(settings, two)
    assert step.games_per_pair == FOCUS_AFTER and not step.pair_games
    four = _result(labels, _round_robin(labels, FOCUS_AFTER, winner))
    step = next_round(replace(settings, games_per_pair=FOCUS_AFTER), four)
    assert step.games_per_pair == FOCUS_AFTER
    extra = sum(n - FOCUS_AFTER for n in step.pair_games.values())
    assert extra == 2 * len(settings.pair_list)  # a round's worth of games
    assert all(n % 2 == 0 and n > FOCUS_AFTER for n in step.pair_games.values())
    # The anchor's pairs narrow every interval: they get most of the games.
    anchored = sum(n - FOCUS_AFTER for (i, _), n in step.pair_games.items() if i == 0)
    assert anchored > extra / 2
    # Within the target: done; a plain round robin with --games instead.
    assert next_round(replace(settings, games_per_pair=FOCUS_AFTER), four, target=900) is None
    plain = next_round(replace(settings, games_per_pair=FOCUS_AFTER), four, games=10)
    assert plain.games_per_pair == 6 and not plain.pair_games
    assert next_round(replace(settings, games_per_pair=FOCUS_AFTER), four, games=4) is None


def test_the_markdown_table_has_a_row_per_player():
    games = [(0, 1, 0), (1, 0, None)]
    text = _result(["a", "b"], games).to_markdown()
    lines = text.splitlines()
    assert lines[0].startswith("| # | AI | games") and len(lines) == 4
    assert "| a | 2 | 1 / 1 / 0 | 75.0% |" in text and "anchor" in text


def invoke(*args):
    return CliRunner().invoke(main, ["ladder", "--plugin", CONNECT4, "connect4", *args])


def test_the_ladder_command_plays_rounds_and_goes_on_when_run_again(tmp_path, game):
    out = str(tmp_path / "lad")
    first = invoke("--time", "0.05", "--rounds", "1", "-w", "0", "--out", out)
    assert first.exit_code == 0, first.output
    assert "alphabeta = 0" in first.stdout and "(played: 30)" in first.stdout
    assert "in focused rounds" in first.stdout
    assert "round 1: widest 95% interval" in first.stderr  # progress after each round
    assert len(list((tmp_path / "lad" / "games").glob("*.json"))) == 30
    again = invoke("--rounds", "1", "-w", "0", "--out", out, "--markdown")
    assert again.exit_code == 0, again.output
    assert "| # | AI |" in again.stdout and "(played: 60)" in again.stdout
    manifest = json.loads((tmp_path / "lad" / "tournament.json").read_text())
    assert manifest["games_per_pair"] == 4 and manifest["time_limit"] == 0.05
    assert "pair_games" not in manifest
    # The round robin has reached 4 games a pair: the next round is focused.
    focused = invoke("--rounds", "1", "-w", "0", "--out", out)
    assert focused.exit_code == 0, focused.output
    assert "(played: 90)" in focused.stdout
    assert "round 1: widest 95% interval" in focused.stderr and "(played: 90)" in focused.stderr
    manifest = json.loads((tmp_path / "lad" / "tournament.json").read_text())
    extra = {(i, j): n for i, j, n in manifest["pair_games"]}
    assert sum(n - 4 for n in extra.values()) == 30
    assert len(list((tmp_path / "lad" / "games").glob("*.json"))) == 90
    only = invoke("--rounds", "0", "--out", out)
    assert only.exit_code == 0 and "(played: 90)" in only.stdout
    clash = invoke("--time", "1", "--rounds", "0", "--out", out)
    assert clash.exit_code == 2 and "plays at 0.05 s a move" in clash.stderr


def test_an_interrupted_ladder_says_to_run_the_same_command(tmp_path, game, monkeypatch):
    from boardgames.cli import tournament

    def interrupt(settings, executor=None, on_result=None, done=(), logs=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(tournament, "round_robin", interrupt)
    stopped = invoke("--time", "0.05", "--rounds", "1", "-w", "0", "--out", str(tmp_path / "l"))
    assert stopped.exit_code == 130
    assert "continue with: the same boardgames ladder command" in stopped.stderr
    assert "tournament --resume" not in stopped.stderr


def test_programs_join_a_ladder_and_stay_in_it(tmp_path, monkeypatch):
    """-p adds a program beside the named AIs; run again without -p, it stays."""
    from support.program_checks import example_spec

    names = {"alphabeta": "", "random": ""}
    monkeypatch.setattr(ladder, "ai_names", lambda g: names)
    out = str(tmp_path / "lad")
    args = ["ladder", "dots", "--rows", "2", "--cols", "2", "--rounds", "1", "-w", "2",
            "--out", out]
    first = CliRunner().invoke(main, [*args, "--time", "0.2", "-p", example_spec()])
    assert first.exit_code == 0, first.output
    manifest = json.loads((tmp_path / "lad" / "tournament.json").read_text())
    assert manifest["players"] == ["alphabeta", "random", example_spec()]
    assert "(played: 6)" in first.stdout
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0, again.output
    assert "(played: 12)" in again.stdout and example_spec() in again.stdout
    records = [GameRecord.load(p) for p in (tmp_path / "lad" / "games").glob("*.json")]
    assert not any(r.forfeited for r in records), [r.reason for r in records if r.forfeited]
    assert len(list((tmp_path / "lad" / "logs").glob("*.log"))) == 8  # 2 pairs x 4 games
    dots = get_game("dots")
    settings = new_ladder(dots, extra=["program:x", "alphabeta"])
    assert joined(settings, dots) == settings  # a program is no registered name: it stays
    del names["random"]
    with pytest.raises(OptionError, match=r"AI\(s\) random are no longer registered"):
        joined(settings, dots)
