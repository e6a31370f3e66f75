"""Game clocks: the time control, the time manager's allotments, the referee's clock."""

from __future__ import annotations

import json
import math
import time

import connect_four  # noqa: F401  (registers connect4)
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgames.clock import GameClock, TimeControl, TimeManager, plies_left
from boardgames.errors import BadFileError, OptionError
from boardgames.game import End
from boardgames.match.play import play_game, play_match
from boardgames.match.records import GameRecord
from boardgames.match.timeuse import time_use
from boardgames.players import Player, RandomPlayer
from boardgames.registry import get_game


@pytest.fixture
def game():
    return get_game("connect4")


# --- the time control --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds", "increment", "shown"),
    [
        ("60", 60, 0, "60"),
        ("5+0.1", 5, 0.1, "5+0.1"),
        (" 2.5 + 1 ", 2.5, 1, "2.5+1"),
        ("3+0", 3, 0, "3"),
        (7, 7, 0, "7"),
        (0.5, 0.5, 0, "0.5"),
    ],
)
def test_time_control_parses_seconds_and_increment(text, seconds, increment, shown):
    control = TimeControl.parse(text)
    assert (control.seconds, control.increment) == (seconds, increment)
    assert str(control) == shown
    assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize(
    "text", ["", "abc", "0", "-1", "nan", "inf", "5+", "5+-1", "5+x", "+1", "1+2+3", True, None]
)
def test_a_bad_time_control_is_one_option_error_naming_the_flag(text):
    with pytest.raises(OptionError, match="--clock"):
        TimeControl.parse(text, "--clock")


# --- the phase of the game ---------------------------------------------------------------


class Hooked:
    """A stand-in state: 20 legal moves, and a hook answering `answer`."""

    to_move = 0

    def __init__(self, answer):
        self.answer = answer

    def legal_moves(self):
        return list(range(20))

    def plies_left_estimate(self):
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def test_the_games_hook_gives_the_plies_left_and_nonsense_is_ignored():
    assert plies_left(Hooked(7)) == (7.0, True)
    assert plies_left(Hooked(0)) == (0.0, True)
    for bad in (-1, math.nan, math.inf, True, "7", None, ZeroDivisionError("x")):
        assert plies_left(Hooked(bad)) == (20.0, False)


def test_without_a_hook_the_legal_moves_estimate_the_plies_left(game):
    state = game.new_state()
    assert plies_left(state) == (7.0, False)  # connect four: seven columns


def test_moves_left_are_own_moves_with_a_floor():
    manager = TimeManager(min_moves=8, min_moves_hook=2)
    assert manager.moves_left(Hooked(0)) == 2
    assert manager.moves_left(Hooked(9)) == 5  # ceil(9 / 2)
    assert manager.moves_left(Hooked(30)) == 15
    assert manager.moves_left(Hooked(math.nan)) == 10  # 20 legal moves, generic


# --- the allotments ----------------------------------------------------------------------


def test_allotments_worked_by_hand():
    m = TimeManager(reserve=0.1, overhead=0.03, min_time=0.005, max_share=0.25)
    # Kept back for 9 later moves: 9 * (0.03 + 0.005) = 0.315; fair share of the
    # rest: 0.9 * 9.685 / 10 - 0.03 = 0.84165.
    assert m.share(10, 10) == pytest.approx(0.84165)
    # An increment of 1 s pays the later moves' least cost and adds its surplus:
    # (0.9 * 10 + 9 * 0.965) / 10 - 0.03 = 1.7385.
    assert m.share(10, 10, increment=1) == pytest.approx(1.7385)
    # One move left: at most a quarter of the clock.
    assert m.share(10, 1) == pytest.approx(2.5)
    # A per-move cap applies too.
    assert m.share(10, 10, cap=0.5) == 0.5
    # Nothing left: the least allotment.
    assert m.share(0.01, 10) == 0.005


def test_the_manager_learns_overruns_and_the_share_it_uses():
    m = TimeManager(overhead=0.03, decay=0.5)
    base = m.share(10, 10)
    m.observe(allotted=1.0, used=1.2)  # 0.2 s over
    assert m.overrun == pytest.approx(0.2) and m.margin == pytest.approx(0.2)
    assert m.share(10, 10) < base
    m.observe(allotted=1.0, used=0.5)
    assert m.overrun == pytest.approx(0.1)  # the overrun decays
    assert m.ratio == pytest.approx(0.5 * (0.5 * 1 + 0.5 * 1) + 0.5 * 0.5)
    fresh = m.fresh()
    assert (fresh.overrun, fresh.ratio) == (0.0, 1.0)


def test_a_player_that_uses_half_its_allotments_is_given_more():
    m = TimeManager(decay=0.0, min_ratio=0.5)
    base = m.share(10, 10)
    m.observe(allotted=1.0, used=0.25)
    assert m.share(10, 10) == pytest.approx(base / 0.5)  # no more than twice


@pytest.mark.parametrize("bad", [{"reserve": 0}, {"reserve": math.nan}, {"min_moves": 0},
                                 {"max_share": 0.95}, {"overhead": -1}, {"min_ratio": 0}])
def test_bad_manager_settings_are_option_errors(bad):
    with pytest.raises(OptionError):
        TimeManager(**bad)


#: A share of something: often all of it (the worst case), else any part.
MOSTLY_ALL = st.one_of(st.just(1.0), st.floats(0, 1))


@settings(max_examples=300, deadline=None)
@given(
    budget=st.one_of(st.floats(0.5, 100), st.floats(0.5, 3)),
    increment=st.sampled_from([0.0, 0.0, 0.01, 0.1, 1.0]),
    moves=st.integers(1, 60),
    extra=st.integers(0, 40),
    drops=st.lists(st.integers(1, 3), min_size=100, max_size=100),
    uses=st.lists(
        st.tuples(MOSTLY_ALL, MOSTLY_ALL),
        min_size=100,
        max_size=100,
    ),
)
def test_a_player_within_its_allotment_and_margin_never_runs_out(
    budget, increment, moves, extra, drops, uses
):
    """A game of `moves` own moves, estimates honest (never below the moves left,
    falling by at least one a move), a budget that pays every move's least cost;
    the player uses any part of its allotment plus up to the margin: its clock
    never runs out, whatever the manager learns on the way."""
    manager = TimeManager(overhead=0.03, min_time=0.005)
    least = manager.overhead + manager.min_time
    if budget < moves * least + 0.01:
        return
    left, estimate = budget, moves + extra
    for k in range(moves):
        estimate = max(moves - k, estimate)
        allotted = manager.share(left, estimate, increment)
        share, overhead = uses[k]
        used = share * allotted + overhead * manager.overhead
        left -= used
        assert left >= 0, (k, allotted, used)
        left += increment
        manager.observe(allotted, used)
        estimate -= drops[k]


@pytest.mark.parametrize("increment", [0.0, 0.02])
def test_the_worst_player_on_the_smallest_budget_still_finishes(increment):
    """Every move uses its whole allotment and the whole margin, the estimates
    are exact, and the budget barely pays each move's least cost."""
    manager = TimeManager(overhead=0.03, min_time=0.005)
    moves = 40
    left = moves * 0.035 + 0.001
    for k in range(moves):
        allotted = manager.share(left, moves - k, increment)
        left -= allotted + manager.overhead
        assert left >= 0, k
        left += increment
        manager.observe(allotted, allotted + manager.overhead)


def test_the_game_clock_charges_moves_and_adds_the_increment():
    clock = GameClock(TimeControl(10, 1))
    assert clock.charge(0, 3.0, 2.0)
    assert clock.left == [8.0, 10.0]
    assert not clock.charge(1, 10.5, 2.0)  # over: no increment
    assert clock.left == [8.0, -0.5]
    with pytest.raises(OptionError):
        GameClock(TimeControl(1), left=[1, 2, 3])


# --- the referee's clock -------------------------------------------------------------------


class Dawdler(Player):
    """Takes `seconds` a move whatever it is told."""

    def __init__(self, seconds, name="dawdler"):
        super().__init__(name)
        self.seconds = seconds

    def choose(self, state, limits=None):
        time.sleep(self.seconds)
        return state.legal_moves()[0]


class Obedient(Player):
    """Spends all of every move's time limit (sleeping), and records them."""

    def __init__(self, name="obedient"):
        super().__init__(name)
        self.limits = []

    def choose(self, state, limits=None):
        self.limits.append(limits.time)
        time.sleep(limits.time)
        return state.legal_moves()[-1]


def test_a_player_whose_clock_runs_out_loses_on_time(game):
    record = play_game(game, [Dawdler(0.15), RandomPlayer(seed=1)], clock="0.5")
    assert record.end is End.TIME and record.winner == 1
    assert "dawdler ran out of time" in record.reason and "clock 0.5" in record.reason
    assert record.forfeited
    assert len(record.moves) <= 6  # at most three moves of 0.15 s fit in 0.5 s (fewer if slow)
    assert record.clock == "0.5" and record.clock_left[0] < 0 < record.clock_left[1]


def test_a_player_that_spends_every_allotment_never_runs_out(game):
    obedient = Obedient()
    record = play_game(game, [obedient, RandomPlayer(seed=3)], clock="1")
    assert record.end is End.RULES
    assert record.clock_left[0] > 0
    sides = record.sides()
    mine = [i for i, s in enumerate(sides) if s == 0]
    assert [record.allotted[i] for i in mine] == [round(x, 4) for x in obedient.limits]
    assert all(record.allotted[i] is not None for i in range(len(record.moves)))
    assert sum(record.times[i] for i in mine) <= 1.0


def test_the_per_move_limit_caps_the_allotment_and_forfeits_nothing_on_its_own(game):
    obedient = Obedient()
    record = play_game(game, [obedient, RandomPlayer(seed=3)], clock="100", time_limit=0.02)
    assert max(obedient.limits) == 0.02
    slow = play_game(game, [Dawdler(0.05), RandomPlayer(seed=3)], clock="100", time_limit=0.01)
    assert slow.end is End.RULES  # 0.05 s over a 0.01 s limit: only the clock decides
    assert record.end is End.RULES


def test_a_clocked_record_round_trips_and_records_without_a_clock_look_as_before(game):
    record = play_game(game, [RandomPlayer(seed=1), RandomPlayer(seed=2)], clock="5+0.5")
    data = json.loads(record.to_json())
    assert data["clock"] == "5+0.5" and len(data["allotted"]) == len(data["moves"])
    assert data["clock_left"][0] >= 5  # random moves take no time; the increments pile up
    again = GameRecord.from_json(record.to_json())
    assert (again.clock, again.clock_left, again.allotted) == (
        record.clock,
        record.clock_left,
        record.allotted,
    )
    plain = play_game(game, [RandomPlayer(seed=1), RandomPlayer(seed=2)])
    assert not {"clock", "clock_left", "allotted"} & set(json.loads(plain.to_json()))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("clock", "fast", "bad clock"),
        ("clock", 5, "wrong type"),
        ("clock_left", [1], "clock_left"),
        ("clock_left", [1, "x"], "clock_left"),
        ("allotted", ["x"], "allotted"),
        ("allotted", [0.1], "one entry per move"),
    ],
)
def test_bad_clock_fields_are_reported_by_name(game, field, value, message):
    record = play_game(game, [RandomPlayer(seed=1), RandomPlayer(seed=2)], clock="5")
    data = record.to_dict()
    data[field] = value
    with pytest.raises(BadFileError, match=message):
        GameRecord.from_dict(data, "game.json")


def test_a_continued_record_keeps_its_clocks(game):
    first = play_game(game, [RandomPlayer(seed=1), RandomPlayer(seed=2)], clock="5", max_moves=4)
    first.clock_left = [1.0, 2.0]
    obedient = Obedient()
    rest = play_game(game, [obedient, RandomPlayer(seed=2)], clock="5", start=first)
    assert rest.allotted[:4] == first.allotted
    assert obedient.limits[0] < 0.25 * 1.0 + 1e-9  # from the 1 s left, not from 5 s


class Stubborn(Player):
    """Thinks on its first move until told to stop (time limit or not); then moves at once."""

    def __init__(self):
        super().__init__("stubborn")
        self.stopped = []

    def choose(self, state, limits=None):
        stop = limits.stop
        if not self.stopped:
            while not stop.is_set():
                time.sleep(0.002)
        self.stopped.append(stop is not None and stop.is_set())
        return state.legal_moves()[0]


def test_a_player_on_a_clock_is_stopped_before_its_clock_runs_out(game):
    stubborn = Stubborn()
    # The increment pays for the later moves, made at once with next to nothing left.
    record = play_game(game, [stubborn, RandomPlayer(seed=1)], clock="1+0.1")
    assert stubborn.stopped[0]
    assert 0.85 <= record.times[0] < 1.0  # braked at 1 s less max(2 x 0.03, 10%, 0.05)
    assert record.end is End.RULES and record.clock_left[0] > 0


def test_a_watched_player_gets_the_stop_signal_too(game):
    from boardgames.match.watchdog import Deadline, Watched

    stubborn = Stubborn()
    watched = Watched(stubborn, Deadline(None, None))
    record = play_game(game, [watched, RandomPlayer(seed=1)], clock="1+0.1")
    assert stubborn.stopped[0] and record.end is End.RULES


def test_the_match_summary_shows_each_players_time(game):
    summary = play_match(game, RandomPlayer(seed=1), "random", games=2, clock="3+0.1", seed=1)
    text = summary.format()
    assert "time used at clock 3+0.1:" in text
    uses = time_use(summary.records)
    assert sum(u.moves for u in uses.values()) == sum(len(r.moves) for r in summary.records)
    assert all(u.least_left >= 3 for u in uses.values())
