"""The web server's parts on their own: the mailbox that keeps only the
newest message, the fair search pool, the words for a search's score."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

pytest.importorskip("starlette")

from boardgames import get_game  # noqa: E402
from boardgames.search.result import WIN  # noqa: E402
from boardgames.web.live import Mailbox  # noqa: E402
from boardgames.web.pool import SearchPool  # noqa: E402
from boardgames.web.thinking import verdict  # noqa: E402


def test_a_mailbox_keeps_only_the_newest_state_and_progress():
    async def run() -> list[str | None]:
        box = Mailbox()
        for n in range(1000):
            box.put_progress(f"progress {n}")
            box.put_state(f"state {n}")  # a state drops the progress sent before it
        box.put_progress("progress after")
        got = [await box.get(), await box.get()]
        box.end()
        got.append(await box.get())
        return got

    assert asyncio.run(run()) == ["state 999", "progress after", None]


def test_the_pool_runs_at_most_its_size_first_come_first_served():
    async def run() -> tuple[list[int], int]:
        pool = SearchPool(1)
        order: list[int] = []
        busy, most = [0], [0]
        lock = threading.Lock()

        def work(n: int) -> int:
            with lock:
                busy[0] += 1
                most[0] = max(most[0], busy[0])
            time.sleep(0.02)
            with lock:
                busy[0] -= 1
            return n

        async def ask(n: int) -> None:
            await asyncio.sleep(n * 0.001)  # they ask in the order 0, 1, 2, ...
            order.append(await pool.run(work, n))

        await asyncio.gather(*(ask(n) for n in range(6)))
        pool.close()
        return order, most[0]

    order, most = asyncio.run(run())
    assert order == list(range(6)) and most == 1


def test_a_cancelled_wait_gives_its_turn_to_the_next():
    async def run() -> list[str]:
        pool = SearchPool(1)
        done: list[str] = []
        first = asyncio.ensure_future(pool.run(time.sleep, 0.1))
        await asyncio.sleep(0.01)
        second = asyncio.ensure_future(pool.run(lambda: done.append("second")))
        third = asyncio.ensure_future(pool.run(lambda: done.append("third")))
        await asyncio.sleep(0.01)
        second.cancel()
        await asyncio.gather(first, third, return_exceptions=True)
        pool.close()
        return done

    assert asyncio.run(run()) == ["third"]


def test_a_search_score_in_words():
    andantino, dots = get_game("andantino"), get_game("dots")
    assert verdict(andantino, WIN - 3, 1, "negascout")["short"] == "Black wins in 3"
    assert verdict(andantino, -(WIN - 5), 1, "negascout")["short"] == "White wins in 5"
    plain = verdict(andantino, -534.0, 1, "negascout")
    assert plain["short"] == "White +534" and "evaluator" in plain["long"]
    assert verdict(andantino, 0.26, 0, "mcts")["short"] == "White 63%"
    assert verdict(andantino, 0.0, 0, "alphabeta")["short"] == "even"
    assert verdict(andantino, 0.0, 0, "book")["short"] == "–"
    assert verdict(dots, WIN - 9, 0, "negascout")["short"] == "First wins"  # scored: no distance
    assert verdict(dots, -3, 1, "solve")["short"] == "First wins"
