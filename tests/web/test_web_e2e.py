"""The web app end to end: `boardgames web` on a free loopback port, driven by
Playwright in the system's headless Chromium (Debian's `chromium` package).

Skipped, with the reason, only when Chromium or playwright is missing (CI
installs both: see .ci/run).  Screenshots of every game's board and the
figures (start-up time, click-to-redraw, memory with 5 games) are written to
tests/web/artifacts/ (or $BOARDGAMES_WEB_ARTIFACTS).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

#: Set by .ci/run: there, a missing browser or playwright fails instead of skipping.
REQUIRED = bool(os.environ.get("BOARDGAMES_REQUIRE_E2E"))
CHROMIUM = os.environ.get("BOARDGAMES_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def _missing() -> str | None:
    for module, extra in (("starlette", "web"), ("uvicorn", "web"), ("playwright", "e2e")):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (pip install -e '.[{extra}]')"
    if not Path(CHROMIUM).is_file():
        return f"Chromium is not installed ({CHROMIUM}): apt-get install chromium"
    return None


if (_reason := _missing()) is not None:
    if REQUIRED:
        pytest.fail(f"BOARDGAMES_REQUIRE_E2E is set, but {_reason}", pytrace=False)
    pytest.skip(_reason, allow_module_level=True)

from playwright import sync_api  # noqa: E402

from support.live_server import start_server  # noqa: E402

pytestmark = pytest.mark.e2e

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(os.environ.get("BOARDGAMES_WEB_ARTIFACTS")
                 or Path(__file__).resolve().parent / "artifacts")
FIGURES: dict[str, object] = {}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def record_figure(name: str, value: object) -> None:
    FIGURES[name] = value
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "figures.json").write_text(json.dumps(FIGURES, indent=2) + "\n")


@pytest.fixture(scope="module")
def server():
    """`boardgames web --port 0` as a subprocess; yields (url, process, start time)."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", "from boardgames.cli import main; main()", "web", "--port", "0",
         "--plugin", str(EXAMPLES / "connect_four")],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )
    line = process.stderr.readline()
    listening = time.perf_counter() - started
    match = re.search(r"serving on (http://127\.0\.0\.1:\d+/)", line)
    if match is None:
        process.kill()
        pytest.fail(f"boardgames web did not start: {line}{process.stderr.read()}")
    record_figure("startup_to_listening_s", round(listening, 2))
    logged: list[str] = []  # read on, so that the server never waits on a full pipe
    reader = threading.Thread(target=lambda: logged.extend(process.stderr), daemon=True)
    reader.start()
    yield match.group(1), process, started
    (ARTIFACTS / "server.log").write_text("".join(logged))
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def open_game(page, url: str, query: str) -> None:
    """A game from a link: the link fills in the New game dialog; Start starts it."""
    page.goto(f"{url}?{query}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#new-dialog[open]")
    before = page.get_attribute("body", "data-sid")
    page.click("#ng-start")
    page.wait_for_function(
        f"document.body.dataset.sid !== {json.dumps(before)}"
        " && document.getElementById('board').dataset.sid === document.body.dataset.sid")
    page.wait_for_selector("#board svg")


def ply(page) -> int:
    return int(page.get_attribute("#board", "data-ply"))


def wait_human_turn(page, side: int = 0, timeout: float = 20_000) -> None:
    page.wait_for_selector(f"body[data-turn='{side}'], body[data-turn='over']", timeout=timeout)


def click_legal(page, pick: int = 0) -> None:
    """Click a legal move's region; wait until the board has redrawn."""
    before = ply(page)
    hits = page.locator("#board .bg-hit.legal")
    hits.nth(pick % hits.count()).click()
    page.wait_for_function(
        f"Number(document.getElementById('board').dataset.ply) > {before}", timeout=10_000)


def redraw_ms(page) -> float:
    return float(page.get_attribute("body", "data-click-to-redraw") or "nan")


def shoot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator("#board").screenshot(path=str(ARTIFACTS / f"{name}-board.png"))
    page.screenshot(path=str(ARTIFACTS / f"{name}-page.png"))


def test_startup_time(browser, server, page):
    """The first test: the browser is up before the server starts."""
    url, _, started = server
    open_game(page, url, "game=squatter&size=4&ai1=random")
    seconds = time.perf_counter() - started
    record_figure("startup_to_usable_page_s", round(seconds, 2))
    record_figure("page_load_to_usable_ms", int(page.get_attribute("body", "data-ready-ms")))
    assert seconds < 30


def test_a_whole_game_of_dots_by_clicking(server, page):
    url = server[0]
    open_game(page, url, "game=dots&rows=2&cols=2&ai1=random:seed=3")
    times = []
    for _ in range(20):
        wait_human_turn(page)
        if page.get_attribute("body", "data-turn") == "over":
            break
        click_legal(page)
        times.append(redraw_ms(page))
    wait_human_turn(page)
    assert page.get_attribute("body", "data-turn") == "over"
    assert "Game over" in page.inner_text("#status")
    result = page.inner_text("#result")
    assert "wins" in result or "Draw" in result
    assert ply(page) == 12  # every edge of a 2 x 2 board
    scores = [int(s) for s in page.locator(".player .score").all_inner_texts()]
    assert sum(scores) == 4
    shoot(page, "dots-2x2-finished")
    times.sort()
    record_figure("click_to_redraw_ms_dots_median", times[len(times) // 2])


def test_an_illegal_click_changes_nothing(server, page):
    url = server[0]
    open_game(page, url, "game=squatter&size=4&ai1=random:seed=1")
    page.locator("#board .bg-hit[data-name='B2']").click()
    wait_human_turn(page)
    page.wait_for_function("Number(document.getElementById('board').dataset.ply) === 2")
    board = page.inner_html("#board")
    moves = page.inner_text("#moves")
    page.locator("#board .bg-hit[data-name='B2']").click()  # occupied now
    page.wait_for_selector("#toast:not([hidden])")
    assert "illegal move: B2" in page.inner_text("#toast")
    assert ply(page) == 2 and page.inner_text("#moves") == moves
    assert page.inner_html("#board") == board


GAMES = [
    ("andantino", "", "default", 1.0),
    # Without its opening book: book moves are instant, and the test watches the search.
    ("squatter", "", "default:book=false", 0.6),
    ("hadron", "&rows=7&cols=7", "default", 0.6),
    ("hexifence", "", "default", 0.3),
    ("dots", "", "default", 0.3),
]


@pytest.mark.parametrize(("game", "options", "ai", "seconds"), GAMES)
def test_a_few_moves_of_each_game(server, page, game, options, ai, seconds):
    url = server[0]
    open_game(page, url, f"game={game}{options}&ai1={ai}&time1={seconds}")
    times = []
    for turn in range(3):
        wait_human_turn(page)
        click_legal(page, pick=7 * turn + 3)
        times.append(redraw_ms(page))
        if game in ("andantino", "squatter", "hadron") and turn == 0:
            # The AI's live search: depth, score and PV while it thinks.
            page.wait_for_function(
                "document.getElementById('thinking').classList.contains('active')"
                " && document.getElementById('st-depth').textContent !== '–'", timeout=10_000)
            assert page.inner_text("#st-pv") != "–"
            assert "thinking" in page.inner_text("#think-title")
    wait_human_turn(page)
    assert ply(page) >= 6
    page.locator("#board .bg-hit.legal").first.hover()
    assert page.inner_text("#hover-name") != "–"
    shoot(page, game)
    record_figure(f"click_to_redraw_ms_{game}", sorted(times)[len(times) // 2])


def test_stop_makes_the_ai_move_now(server, page):
    url = server[0]
    open_game(page, url, "game=andantino&ai0=default&time0=60")
    page.wait_for_function("Number(document.getElementById('st-depth').textContent) >= 3",
                           timeout=20_000)
    started = time.perf_counter()
    page.click("#btn-stop")
    page.wait_for_function("Number(document.getElementById('board').dataset.ply) === 1")
    seconds = time.perf_counter() - started
    record_figure("stop_to_move_s", round(seconds, 3))
    assert seconds < 3
    assert "stopped early" in page.inner_text("#think-note")


def test_two_tabs_play_two_games(server, browser):
    url = server[0]
    context = browser.new_context()
    one, two = context.new_page(), context.new_page()
    open_game(one, url, "game=hadron&rows=5&cols=5")
    open_game(two, url, "game=squatter&size=5")
    click_legal(one)
    assert ply(one) == 1 and ply(two) == 0
    one.reload()
    one.wait_for_selector("body[data-ready='1']")
    assert "Hadron" in one.inner_text("#game-title") and ply(one) == 1  # its own game again
    context.close()


def test_new_game_dialog_view_undo_and_record(server, page, tmp_path):
    url = server[0]
    open_game(page, url, "game=squatter&size=4&ai1=random")
    page.click("#btn-new")
    page.select_option("#ng-game", "hadron")
    page.fill("input[data-option='rows']", "5")
    page.fill("input[data-option='cols']", "6")
    page.select_option(".side[data-side='1'] [data-role=kind]", "ai")
    page.fill(".side[data-side='1'] [data-role=spec]", "random:seed=2")
    page.click("#ng-start")
    page.wait_for_function("document.getElementById('game-title').textContent.includes('Hadron')")
    assert "rows 5, cols 6" in page.inner_text("#game-title")
    for _ in range(2):
        wait_human_turn(page)
        click_legal(page)
    wait_human_turn(page)
    # Look at an earlier position, then come back.
    page.click("#moves li[data-ply='1']")
    page.wait_for_selector("#view-banner:not([hidden])")
    # The banner shows at once; the board follows when the position arrives.
    page.wait_for_function("Number(document.getElementById('board').dataset.ply) === 1")
    page.keyboard.press("End")
    page.wait_for_selector("#view-banner", state="hidden")
    # Save, undo, then open the saved record again.
    with page.expect_download() as download:
        page.click("#btn-save")
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text())["moves"]
    page.click("#btn-undo")
    page.wait_for_function("Number(document.getElementById('board').dataset.ply) === 2")
    page.click("#btn-load")
    page.set_input_files("#load-files", str(saved))
    page.wait_for_function("Number(document.getElementById('board').dataset.ply) === 4")
    assert page.locator("#moves li").count() == 5  # the start and four moves


def test_memory_with_five_games_open(server, browser):
    url, process, _ = server
    context = browser.new_context()
    pages = []
    for game, options, ai, seconds in GAMES:
        page = context.new_page()
        open_game(page, url, f"game={game}{options}&ai1={ai}&time1={seconds}")
        click_legal(page)
        pages.append(page)
    for page in pages:
        wait_human_turn(page)
    status = Path(f"/proc/{process.pid}/status")
    if status.is_file():
        rss = int(re.search(r"VmRSS:\s+(\d+)", status.read_text()).group(1)) // 1024
        record_figure("server_rss_mb_with_5_games", rss)
        assert rss < 2000
    context.close()


# --- the page as a careful user (and a hostile link) would find it ----------------------------


def http_status(url: str, method: str = "GET") -> int:
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_link_only_fills_in_the_new_game_dialog(server, page):
    url = server[0]
    page.goto(f"{url}?game=hadron&rows=9&cols=9&ai0=default&time0=1000000&ai1=random")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#new-dialog[open]")
    assert "Filled in from a link" in page.inner_text("#ng-note")
    assert page.input_value("#ng-game") == "hadron"
    assert page.input_value(".side[data-side='0'] [data-role=spec]") == "default"
    assert page.input_value(".side[data-side='1'] [data-role=spec]") == "random"
    assert "Hadron" not in page.inner_text("#game-title")  # nothing started from the link
    assert page.evaluate("location.search") == ""
    page.fill(".side[data-side='0'] [data-role=time]", "2")
    page.click("#ng-start")
    page.wait_for_function("document.getElementById('game-title').textContent.includes('Hadron')")
    shoot(page, "link-then-start")


def test_a_link_cannot_name_a_program(server, page):
    url = server[0]
    page.goto(f"{url}?game=dots&ai0=program%3Arm%20-rf%20x&ai1=random")
    page.wait_for_selector("#new-dialog[open]")
    assert page.input_value(".side[data-side='0'] [data-role=spec]") == "default"
    assert "a link cannot start programs" in page.inner_text("#ng-error")
    page.fill(".side[data-side='1'] [data-role=spec]", "program:./engine")
    assert "programs are off on this server" in page.inner_text(".side[data-side='1'] .side-help")


def test_a_new_game_closes_the_old_one(server, page):
    url = server[0]
    open_game(page, url, "game=squatter&size=4&ai0=random&ai1=random&delay=1")
    old = page.get_attribute("body", "data-sid")
    assert http_status(f"{url}api/sessions/{old}") == 200
    page.click("#btn-new")
    page.select_option("#ng-game", "dots")
    page.click("#ng-start")
    page.wait_for_function(f"document.body.dataset.sid !== {json.dumps(old)}")
    deadline = time.monotonic() + 5
    while http_status(f"{url}api/sessions/{old}") != 404:
        assert time.monotonic() < deadline, "the old game is still on the server"
        time.sleep(0.1)


def test_after_a_server_restart_the_page_says_its_game_is_gone(browser):
    first = start_server()
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(first.url)
        page.wait_for_selector("body[data-ready='1']")
        click_legal(page)
    finally:
        first.stop()
    second = start_server(port=first.port)
    try:
        page.wait_for_selector("body[data-gone='1']", timeout=15_000)
        status = page.inner_text("#status")
        assert "no longer on the server" in status
        assert page.locator("#board svg.playable").count() == 0
        shoot(page, "game-gone")
        page.click("#btn-gone-new")
        page.wait_for_selector("#new-dialog[open]")
        page.click("#ng-start")
        page.wait_for_selector("body:not([data-gone='1'])")
        wait_human_turn(page)
        click_legal(page)  # the new game plays
        context.close()
    finally:
        second.stop()


def test_pause_is_off_once_the_game_is_over(server, page):
    open_game(page, server[0], "game=dots&rows=1&cols=1&ai1=random:seed=1")
    assert page.is_enabled("#btn-pause")
    for _ in range(4):
        wait_human_turn(page)
        if page.get_attribute("body", "data-turn") == "over":
            break
        click_legal(page)
    page.wait_for_selector("body[data-turn='over']")
    assert page.is_disabled("#btn-pause")


def luminance(css: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"[\d.]+", css)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, two: str) -> float:
    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize(
    "query", ["game=hexifence&ai1=random:seed=2", "game=squatter&size=4&ai1=random:seed=2"]
)
def test_the_current_moves_colour_stands_out(server, page, query):
    open_game(page, server[0], query)
    click_legal(page)
    wait_human_turn(page)
    for ply in (1, 2):  # each player's move, highlighted in turn
        page.click(f"#moves li[data-ply='{ply}']")
        row = page.locator(f"#moves li[data-ply='{ply}']")
        assert "current" in (row.get_attribute("class") or "")
        background = row.evaluate("e => getComputedStyle(e).backgroundColor")
        fill = row.locator(".dot").evaluate("e => getComputedStyle(e).backgroundColor")
        border = row.locator(".dot").evaluate("e => getComputedStyle(e).borderTopColor")
        if luminance(fill) < 0.8:  # a coloured or dark swatch: its own colour must show
            assert contrast(fill, background) >= 3, (query, ply, fill, background)
        else:  # a white swatch: its ring must
            assert contrast(border, background) >= 3, (query, ply, border, background)
    game = query[5:query.index("&")]
    page.locator(".moves-card").screenshot(path=str(ARTIFACTS / f"moves-{game}.png"))


def board_labels(page) -> list[dict]:
    return page.evaluate("""() => {
      const svg = document.querySelector('#board svg').getBoundingClientRect();
      return [...document.querySelectorAll('#board svg text')].map((t) => {
        const r = t.getBoundingClientRect();
        return {text: t.textContent.trim(), height: r.height, ours: !!t.closest('.bg-coords'),
                inside: r.left >= svg.left - 1 && r.right <= svg.right + 1
                        && r.top >= svg.top - 1 && r.bottom <= svg.bottom + 1};
      });
    }""")


@pytest.mark.parametrize(("query", "rows", "columns"), [
    ("game=andantino", [], [str(n) for n in range(1, 20)]),
    ("game=hexifence", list("ABCDEFG"), [str(n) for n in range(1, 8)]),
    ("game=dots&rows=2&cols=3", list("ABCDE"), [str(n) for n in range(1, 8)]),
])
def test_boards_show_their_coordinates(server, page, query, rows, columns):
    open_game(page, server[0], query)
    labels = board_labels(page)
    ours = {label["text"] for label in labels if label["ours"]}
    assert set(rows) | set(columns) <= ours, sorted(ours)
    assert all(label["inside"] for label in labels if label["ours"])
    assert min(label["height"] for label in labels if label["ours"]) >= 10
    shoot(page, "coordinates-" + re.sub(r"\W+", "-", query[5:]))


@pytest.mark.parametrize("query", ["game=squatter&size=26", "game=hadron&rows=26&cols=26"])
def test_labels_are_readable_on_a_26_by_26_board(server, page, query):
    open_game(page, server[0], query)
    heights = [label["height"] for label in board_labels(page) if label["text"] in ("A", "Z", "26")]
    assert len(heights) >= 3 and min(heights) >= 10, heights
    shoot(page, "labels-" + re.sub(r"\W+", "-", query[5:]))


def test_connect_four_move_input_is_on_screen(server, browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    open_game(page, server[0], "game=connect4&ai1=random")
    box = page.locator("#move-input").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 900, box
    page.fill("#move-input", "d")
    page.press("#move-input", "Enter")
    page.wait_for_function("Number(document.getElementById('board').dataset.ply) >= 1")
    page.screenshot(path=str(ARTIFACTS / "connect4-page.png"))
    context.close()


def test_the_record_loader_says_what_a_file_is(server, page, tmp_path):
    open_game(page, server[0], "game=squatter&size=4")
    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps({"games": 12, "standings": [{"name": "a"}]}, indent=2))
    unversioned = tmp_path / "old.json"
    unversioned.write_text(json.dumps({"format": "boardgames-record", "game": "squatter",
                                       "params": {"size": 4}, "moves": ["A1"]}))
    page.click("#btn-load")
    page.set_input_files("#load-files", [str(summary), str(unversioned)])
    page.wait_for_selector("#load-error:not([hidden])")
    text = page.inner_text("#load-error")
    assert "summary.json" in text and "JSON, but not a game record" in text, text
    assert "Expecting property name" not in text
    assert 'no "version" field' in text and "None" not in text, text


def test_the_ais_score_says_who_is_ahead(server, page):
    open_game(page, server[0], "game=andantino&ai0=alphabeta&time0=0.5")
    page.wait_for_selector("body[data-turn='0']", state="detached", timeout=5000)
    wait_human_turn(page, side=1)
    score = page.inner_text("#st-score")
    meaning = page.inner_text("#st-score-meaning")
    assert re.match(r"(White|Black) (\+|wins)|even", score), score
    assert "evaluator" in meaning or "proven" in meaning, meaning
    assert "Last search" in page.inner_text("#think-title")
    page.locator("#thinking").screenshot(path=str(ARTIFACTS / "last-search.png"))
