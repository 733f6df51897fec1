"""No English on a Spanish or Italian page: every page of the web client is opened in es and it
in a real Chromium against a real server, and its rendered text (``innerText`` and the
``aria-label``, ``title`` and ``placeholder`` of what is shown) is scanned for English.

The pages: the start page (create a table, with its house rules open and refused: an HTTP
error), a table's lobby, a seat refused by the server (a WebSocket error toast), a game in
progress with an illegal bid explained, the reveal, the game over (and its shared screen), the
list of games, a replay,
a replay of a game that does not exist (an HTTP error), the dice cup, a step of the tutorial
with a refused move, and (in a test of its
own, with a server restarted on a stored game it refuses) a broken table's banner. English is any text of
the client's en.json that the page's language words differently, and any sentence the server
sent in English on the way (``message``, ``problem`` and ``detail`` of the frames and answers
the page got). Screenshots of each stop, at phone and desktop sizes, go to
``artifacts/screenshots`` (``lang-*.png``) for a person to look at.

A second test has the page word every reason and error code of the registries, with every
parameter, in en, es and it.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, expect

from dudo.engine import ReasonCode
from dudo.server.errors import ErrorCode

from .conftest import (
    CHROMIUM,
    LiveServer,
    ServerFactory,
    api,
    bearer,
    close_reveal,
    get_table,
    new_table,
    words,
)
from .test_browser import is_over, screenshot_dir, take_turn

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
GAME_SECONDS = 180.0

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

#: What a page shows a person: its text, and the labels of the elements on screen.
PAGE_TEXT = """() => {
  const parts = [document.title, document.body.innerText];
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (!node.getClientRects().length) continue;
    for (const name of ["aria-label", "title", "placeholder"]) {
      const value = node.getAttribute(name);
      if (value) parts.push(value);
    }
  }
  return parts.join("\\n");
}"""

_TRIM = " .,:;!?()[]—–-…“”«»'\"\n"


def chunks(text: str) -> list[str]:
    """The pieces of a sentence long enough to be English by themselves (three words and 15
    characters or more): names, numbers and words such as "Dudo" never are."""
    out = []
    for part in re.split(r"\{\w+\}|[:;\n]", text):
        part = part.strip(_TRIM)
        if len(part) >= 15 and len(part.split()) >= 3:
            out.append(part)
    return out


def english_ui(lang: str) -> list[str]:
    """Pieces of the client's English texts that ``lang`` words otherwise."""
    en, mine = words("en"), words(lang)
    own = "\n".join(mine.values())
    found = {
        piece
        for key, text in en.items()
        if mine.get(key) != text
        for piece in chunks(text)
        if piece not in own
    }
    return sorted(found)


class Scan:
    """Pages of one language, their server frames and answers, and the English found."""

    def __init__(self, browser: Browser, server: LiveServer, lang: str) -> None:
        self.browser, self.server, self.lang = browser, server, lang
        self.ui = english_ui(lang)
        self.server_english: set[str] = set()
        self.problems: list[str] = []
        self.errors: list[str] = []
        self.contexts: list[BrowserContext] = []
        self.shots = screenshot_dir()

    def page(self, viewport: dict[str, int], seats: dict[str, str] | None = None) -> Page:
        """A new browser (its own storage) in this language, holding ``seats`` tokens."""
        context = self.browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        self.contexts.append(context)
        store = {"dudo.lang": self.lang} | {f"dudo.seat.{c}": t for c, t in (seats or {}).items()}
        context.add_init_script(
            f"for (const [k, v] of Object.entries({json.dumps(store)})) localStorage.setItem(k, v);"
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        page.on("websocket", self._listen)
        return page

    def _listen(self, socket: WebSocket) -> None:
        socket.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        try:
            frame = json.loads(payload)
        except ValueError:
            return
        self.heard(frame)
        if isinstance(frame.get("table"), dict):
            self.heard(frame["table"])

    def heard(self, answer: dict[str, object]) -> None:
        """Keep the English sentences of a frame or HTTP answer the page got."""
        for field in ("message", "problem", "detail"):
            text = answer.get(field)
            if isinstance(text, str):
                self.server_english.update(chunks(text))

    def check(self, page: Page, where: str) -> None:
        """Scan what ``page`` shows now; save its screenshot."""
        page.wait_for_timeout(400)  # let transitions end, for a screenshot a person can read
        viewport = page.viewport_size
        size = "phone" if viewport is not None and viewport["width"] < 600 else "desktop"
        page.screenshot(path=str(self.shots / f"lang-{self.lang}-{where}-{size}.png"))
        shown: str = page.evaluate(PAGE_TEXT)
        for piece in self.ui:
            if piece in shown:
                self.problems.append(f"{where}: English UI text {piece!r}")
        for piece in sorted(self.server_english):
            if piece in shown:
                self.problems.append(f"{where}: the server's English {piece!r}")

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def scan(
    request: pytest.FixtureRequest, browser: Browser, shared_server: LiveServer
) -> Iterator[Scan]:
    found = Scan(browser, shared_server, request.param)
    yield found
    found.close()


def my_turn(page: Page, seconds: float = 30.0) -> None:
    expect(page.locator("#status")).to_have_attribute(
        "data-my-turn", "true", timeout=seconds * 1000
    )


def bid(page: Page) -> None:
    """Play the bid the quick entry offers first (a legal one)."""
    page.click("#bid-send")


@pytest.mark.parametrize("scan", ["es", "it"], indirect=True)
def test_no_english_reaches_a_spanish_or_italian_page(scan: Scan) -> None:
    server, lang = scan.server, scan.lang
    said = words(lang)

    start = scan.page(PHONE)
    start.goto(server.url + "/")
    start.click("#create-open")
    expect(start.locator("#create-button")).to_be_visible()
    scan.check(start, "start")

    # House rules the engine cannot play: the server refuses the table (an HTTP error).
    start.fill("#create-name", "Ana")
    start.locator("#house-rules summary").click()
    start.locator('.option-row[data-option="aces_from"] select.opt-input').select_option('"double"')
    start.click("#create-button")
    expect(start.locator("#create-error")).to_be_visible()
    with api(server) as http:
        body = {"name": "Ana", "preset": "dudo", "options": {"aces_from": "double"}}
        scan.heard(http.post("/api/tables", json=body).json())
    scan.check(start, "create-refused")

    created = new_table(
        server, seats=2, preset="perudo", bots=["easy"], options={"dice_per_player": 2},
        reveal_seconds=8,
    )  # fmt: skip
    code = created["code"]
    host = scan.page(PHONE, {code: created["token"]})
    host.goto(f"{server.url}/t/{code}")
    expect(host.locator("main#table-main")).to_have_attribute("data-status", "lobby")
    scan.check(host, "lobby")

    # A table whose rules need three players, with two seated: the host may try to start, and
    # the server refuses (an HTTP error, as a toast on the table).
    short = new_table(server, seats=3, bots=["easy"], options={"min_players": 3})
    host.goto(f"{server.url}/t/{short['code']}")  # not the seat of this browser: a lobby view
    host.evaluate(f"localStorage.setItem('dudo.seat.{short['code']}', '{short['token']}')")
    host.reload()
    expect(host.locator("#start-button")).to_be_enabled()
    host.click("#start-button")
    expect(host.locator("#toast")).to_be_visible()
    with api(server) as http:
        scan.heard(
            http.post(f"/api/tables/{short['code']}/start", headers=bearer(short["token"])).json()
        )
    scan.check(host, "start-refused")
    host.goto(f"{server.url}/t/{code}")
    expect(host.locator("main#table-main")).to_have_attribute("data-status", "lobby")

    # A seat token the table does not know: the server refuses the seat (an error frame).
    stranger = scan.page(DESKTOP, {code: "not-a-seat-token-of-this-table"})
    stranger.goto(f"{server.url}/t/{code}")
    expect(stranger.locator("#toast")).to_be_visible()
    scan.check(stranger, "refused-seat")

    host.click("#start-button")
    expect(host.locator("main#table-main")).to_have_attribute("data-status", "playing")
    my_turn(host)
    host.click("#bid-grid-toggle")
    greyed = host.locator('#bid-picker .bid-cell[aria-disabled="true"]:visible')
    if greyed.count() == 0:  # every bid may open this round: bid, and wait for a raise
        host.keyboard.press("Escape")
        bid(host)
        my_turn(host)
        host.click("#bid-grid-toggle")
    cell = greyed.first
    cell.scroll_into_view_if_needed()
    cell.click(force=True)  # aria-disabled, yet it answers a tap: it explains itself
    explained = host.locator("#bid-explain")
    expect(explained).to_have_attribute("data-legal", "false")
    expect(explained).not_to_contain_text(said["game.explaining"].split("{")[0].strip() or "?")
    scan.check(host, "explain")
    scan.check(stranger, "watching")
    host.keyboard.press("Escape")  # close the full grid

    if host.locator("#action-call").is_visible():
        host.click("#action-call")
    else:
        bid(host)
        my_turn(host)
        host.click("#action-call")
    expect(host.locator("#reveal")).to_be_visible()
    scan.check(host, "reveal")
    scan.check(stranger, "reveal")

    rng = random.Random(5)
    deadline = time.monotonic() + GAME_SECONDS
    while not is_over(host):
        assert time.monotonic() < deadline, "the game did not end in time"
        if not take_turn(host, rng):
            host.wait_for_timeout(200)
    close_reveal(host)  # the last reveal, over the game-over panel
    scan.check(host, "over")
    expect(stranger.locator("#game-over")).to_be_visible()
    scan.check(stranger, "over")
    stranger.goto(f"{server.url}/t/{code}/screen")  # the shared screen of the finished game
    expect(stranger.locator("#screen-over")).to_be_visible(timeout=15_000)
    scan.check(stranger, "screen")

    game_id = get_table(server, code)["game"]
    host.goto(server.url + "/games")
    expect(host.locator("#games-main")).to_have_attribute("data-state", "ready")
    scan.check(host, "games")
    host.goto(f"{server.url}/games/{game_id}")
    expect(host.locator("#replay-main")).to_have_attribute("data-state", "ready")
    scan.check(host, "replay")

    missing = 999_999
    with api(server) as http:
        scan.heard(http.get(f"/api/games/{missing}/replay").json())
    stranger.goto(f"{server.url}/games/{missing}")
    expect(stranger.locator("#replay-main")).to_have_attribute("data-state", "missing")
    expect(stranger.locator("#replay-info")).to_contain_text(
        said["error.no_finished_game"].split("{")[0].strip()
    )
    scan.check(stranger, "replay-missing")

    host.goto(server.url + "/cup")
    expect(host.locator("#cup-main")).to_have_attribute("data-state", "ready")
    scan.check(host, "cup")

    # The tutorial, with a move the game refuses: the engine's reason in the page's language.
    host.goto(server.url + "/tutorial/dudo")
    expect(host.locator("#learn-main")).to_have_attribute("data-state", "playing")
    host.locator("#learn-call").click()
    expect(host.locator("#coach-note")).to_have_attribute("data-verdict", "illegal")
    scan.check(host, "tutorial")

    assert scan.server_english, "the pages got English sentences from the server to look for"
    assert not scan.errors, scan.errors
    assert not scan.problems, f"English on the {lang} pages:\n" + "\n".join(scan.problems)


#: A value for every parameter a code may carry (docs/protocol.md, "Error codes").
SAMPLE_PARAMS = {
    "player": "Ana", "bid": "3x4", "new": "3x4", "standing": "3x5", "face": 4, "faces": 6,
    "dice": "4,4", "order": "1x1 < 1x2", "action": "banana", "name": "Bo", "level": "x",
    "preset": "y", "option": "aces_from", "least": 2, "most": 8, "seat": 3, "last": 4,
    "filled": 1, "table": "K7QX2M", "id": 5, "names": "Ana, Bo", "char": "U+202E",
}  # fmt: skip

#: How the page words every code, with one and with several (``count`` picks the plural).
WORD_ALL = """async ([reasons, errors, params]) => {
  const i18n = await import("/static/i18n.js");
  const out = {};
  for (const count of [1, 3]) {
    const p = { ...params, count };
    for (const code of reasons) out[`reason.${code}/${count}`] = i18n.wordReason({ code, params: p });
    for (const code of errors) out[`error.${code}/${count}`] = i18n.wordError({ code, params: p });
  }
  out.generic = i18n.wordError({ code: "no_such_code", params: {} });
  out.network = i18n.wordError({ code: "network", params: {} });
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_the_page_words_every_code(lang: str, browser: Browser, shared_server: LiveServer) -> None:
    """Every reason and error code, with every parameter it may carry, comes out of the page's
    wordError/wordReason as a whole sentence of the language: no placeholder left, never the
    general fallback, the plural chosen by ``count``."""
    scan = Scan(browser, shared_server, lang)
    try:
        page = scan.page(PHONE)
        page.goto(shared_server.url + "/games")
        expect(page.locator("#games-main")).to_have_attribute("data-state", "ready")
        reasons = [str(c) for c in ReasonCode]
        errors = [str(c) for c in ErrorCode if c is not ErrorCode.REFUSED]
        worded: dict[str, str] = page.evaluate(WORD_ALL, [reasons, errors, SAMPLE_PARAMS])
    finally:
        scan.close()
    said = words(lang)
    assert worded["generic"] == said["error.refused"]
    assert worded["network"] == said["error.network"]
    for key, text in worded.items():
        if key in ("generic", "network"):
            continue
        assert text and "{" not in text, f"{lang} {key}: {text!r}"
        assert text not in (said["error.refused"], said["error.illegal"]) or key.startswith(
            "error.illegal/"
        ), f"{lang} {key} fell back to the general sentence"
        if lang != "en":
            assert not any(piece in text for piece in scan.ui), f"{lang} {key}: English {text!r}"
    # The plural follows count: one die, three dice.
    one, many = worded["error.cup_full/1"], worded["error.cup_full/3"]
    assert one != many, (one, many)


@pytest.mark.parametrize("lang", ["es", "it"])
def test_a_broken_table_is_told_in_the_pages_language(
    lang: str, browser: Browser, live_server: ServerFactory
) -> None:
    """A table whose stored game the engine refuses after a restart: its banner, and the
    refusal of a join, in the page's language, never the server's English ``problem``."""
    server = live_server()
    created = new_table(server, seats=3, bots=["easy"])
    code = created["code"]
    with api(server) as http:
        started = http.post(f"/api/tables/{code}/start", headers=bearer(created["token"]))
        assert started.status_code == 200, started.text
    game_id = get_table(server, code)["game"]
    server.stop()
    with sqlite3.connect(server.sqlite_path) as db:  # an action no game can hold
        db.execute(
            "INSERT OR REPLACE INTO actions (game_id, seq, player, action, at) "
            "VALUES (?, 0, 0, '99x6', 0)",
            (game_id,),
        )
    db.close()
    server.start()
    table = get_table(server, code)
    assert table["status"] == "broken" and table["problem_code"] == "cannot_resume", table

    scan = Scan(browser, server, lang)
    try:
        scan.heard(table)
        page = scan.page(PHONE)
        page.goto(f"{server.url}/t/{code}")
        expect(page.locator("#broken-banner")).to_be_visible()
        expect(page.locator("#broken-banner")).to_have_text(words(lang)["game.broken"])
        # Not "the table is full" (a seat is open), and one seat in the singular.
        expect(page.locator("#join-closed")).to_be_hidden()
        one = words(lang)["join.info_one"].split("·")[-1].strip()
        expect(page.locator("#join-info")).to_contain_text(
            one.replace("{open}", "1").replace("{seats}", "3")
        )
        scan.check(page, "broken")
        assert not scan.problems, "\n".join(scan.problems)
    finally:
        scan.close()
