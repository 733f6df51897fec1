"""Every page as a person sees it, for review: the first page, a table's lobby (the host's
view), a game on your turn (with a learner's hints) and its sheet of every bid, the reveal, a
finished game, the games list, a replay and the dice cup, a table that could not be resumed and
a table whose server went away, at phone (390x844) and desktop (1366x900) size, in
English, Spanish and Italian, each language in the dark theme (``prefers-color-scheme``) at one
size and the light one at the other (colours do not change with size, nor layout with the theme;
the accessibility test checks the contrast of both themes at both sizes).
Each is saved as ``<page>-<phone|desktop>-<lang>[-light].png`` in the screenshot folder; the
test checks that each page rendered in its language (its heading is shown, in the words of that
language) and does not scroll sideways. Real server, real Chromium (Playwright), no mocks."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import (
    CHROMIUM,
    Json,
    LiveServer,
    Player,
    ServerFactory,
    get_table,
    host_post,
    join,
    new_table,
    play_turns,
    words,
)
from .test_browser import screenshot_dir
from .test_layout import OVERFLOWING

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
LANGS = ("en", "es", "it")
SCHEMES = ("dark", "light")
BID = re.compile(r"\d+x\d+")


@dataclass
class Tables:
    """The tables the pages show, each in the state its screenshot needs."""

    lobby: Json
    turn: Json
    reveal: Json
    over: Json
    game_id: int


def move(players: tuple[Player, Player], call: bool) -> None:
    """The player to move calls (if ``call`` and a bid stands) or makes the first bid the
    engine lists for it; both players then catch up."""
    mover = next(p for p in players if p.view is not None and p.view["legal"])
    assert mover.view is not None
    legal = [str(a) for a in mover.view["legal"]]
    turn = mover.turn or 0
    mover.act("call" if call and "call" in legal else next(a for a in legal if BID.fullmatch(a)))
    for player in players:
        player.wait_turn(turn + 1)


def two_people(server: LiveServer, **body: object) -> tuple[Json, Player, Player]:
    """A started table of Ana and Bo, both people (so nothing moves unless they do)."""
    created = new_table(server, seats=2, bots=[], grace_seconds=3600, **body)
    joined = join(server, created["code"], "Bo")
    ana = Player(server, created["code"], created["token"], name="Ana")
    bo = Player(server, created["code"], joined["token"], name="Bo")
    host_post(server, created["code"], "start", created["token"])
    for player in (ana, bo):
        player.until(lambda f: f["type"] == "update", "the first update of the game")
    return created, ana, bo


@pytest.fixture(scope="module")
def tables(shared_server: LiveServer) -> Iterator[Tables]:
    server = shared_server
    lobby = new_table(
        server, name="Ana", seats=5, bots=["easy", "hard"], turn_seconds=60, reveal_seconds=5
    )
    join(server, lobby["code"], "Bo")

    # Ana's turn, with a bid standing (whoever opened, the other raised), and the learner's
    # hints shown.
    turn, ana, bo = two_people(server, hints=True)
    while not (ana.view is not None and ana.view["legal"] and ana.view["standing_bid"]):
        move((ana, bo), call=False)
    connected = [ana, bo]  # both stay at the table, so no stand-in bot moves for them

    # A bid called: the reveal stays up, as the next round's opener (a person) has not bid.
    reveal, ana, bo = two_people(server)
    while ana.view is not None and ana.view["round"] == 1:
        move((ana, bo), call=True)
    connected += [ana, bo]

    over = new_table(
        server,
        seats=3,
        bots=["easy", "medium"],
        preset="perudo",
        options={"dice_per_player": 2},
        hints=True,
    )
    host_post(server, over["code"], "start", over["token"])
    ana = Player(server, over["code"], over["token"], name="Ana")
    assert play_turns([ana], random.Random(4))["winner"] is not None
    ana.close()
    game_id = int(str(get_table(server, str(over["code"]))["game"]))
    yield Tables(lobby, turn, reveal, over, game_id)
    for player in connected:
        player.close()


def context_page(
    browser: Browser, size: str, lang: str, scheme: str, seats: list[Json], errors: list[str]
) -> Page:
    """A page at ``size`` in ``lang`` and colour ``scheme``, holding the ``seats``' tokens.
    Motion is reduced so each screenshot shows a settled page (the reveal opens at its end)."""
    context = browser.new_context(
        viewport=SIZES[size],  # type: ignore[arg-type]
        color_scheme=scheme,  # type: ignore[arg-type]
        reduced_motion="reduce",
    )
    context.add_init_script(
        f"localStorage.setItem('dudo.lang', {json.dumps(lang)});"
        + "".join(
            f"localStorage.setItem('dudo.seat.{s['code']}', {json.dumps(s['token'])});"
            for s in seats
        )
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    return page


def shoot(
    page: Page, name: str, size: str, lang: str, scheme: str, heading: str, whole: bool = True
) -> None:
    """Check the page shows ``heading`` and fits the window's width, then save it: the whole
    page, or (not ``whole``) the window alone, as a dialog over the page covers only that."""
    expect(page.locator(heading).first).to_be_visible()
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], (
        f"{name} at {size} in {lang} ({scheme}) is {width[0]} px wide: {page.evaluate(OVERFLOWING)}"
    )
    suffix = "-light" if scheme == "light" else ""
    page.screenshot(
        path=str(screenshot_dir() / f"{name}-{size}-{lang}{suffix}.png"), full_page=whole
    )


def heading(selector: str, lang: str, key: str) -> str:
    """``selector`` showing the text of ``key`` in ``lang``."""
    return f"{selector}:text-is({json.dumps(words(lang)[key], ensure_ascii=False)})"


#: Each (size, language) in one theme: every language and every size in both themes.
LOOKS = [
    (size, lang, SCHEMES[(i + j) % 2])
    for i, size in enumerate(SIZES)
    for j, lang in enumerate(LANGS)
]


@pytest.mark.parametrize(("size", "lang", "scheme"), LOOKS)
def test_every_page_at_each_size_language_and_theme(
    browser: Browser, shared_server: LiveServer, tables: Tables, size: str, lang: str, scheme: str
) -> None:
    errors: list[str] = []
    seats = [tables.lobby, tables.turn, tables.reveal, tables.over]
    page = context_page(browser, size, lang, scheme, seats, errors)
    url = shared_server.url
    main = page.locator("main#table-main")

    page.goto(url + "/")
    expect(page.locator("#bots-level option").first).to_be_attached()
    expect(page.locator("#my-tables-list a")).to_have_count(len(seats))
    expect(page.locator("#my-tables-list .my-table-status").first).not_to_be_empty()
    shoot(page, "index", size, lang, scheme, heading("#play-heading", lang, "play.heading"))

    page.goto(f"{url}/t/{tables.lobby['code']}")
    expect(main).to_have_attribute("data-status", "lobby")
    expect(page.locator("#seat-list li")).to_have_count(5)
    shoot(page, "lobby", size, lang, scheme, heading("#lobby-heading", lang, "lobby.heading"))

    page.goto(f"{url}/t/{tables.turn['code']}")
    expect(page.locator("#status")).to_have_attribute("data-my-turn", "true")
    expect(page.locator("#bid-send")).to_be_visible()
    shoot(page, "turn", size, lang, scheme, heading("#actions-heading", lang, "game.your_move"))
    page.click("#bid-grid-toggle")  # every bid, in a sheet over the table
    expect(page.locator("#bid-picker .bid-cell").first).to_be_visible()
    sheet = heading("#bid-sheet-heading", lang, "bid.all_bids")
    shoot(page, "bids", size, lang, scheme, sheet, whole=False)

    page.goto(f"{url}/t/{tables.reveal['code']}")
    expect(page.locator("#reveal")).to_have_attribute("data-stage", "done")
    reveal = heading("#reveal-heading", lang, "reveal.heading")
    shoot(page, "reveal", size, lang, scheme, reveal, whole=False)

    page.goto(f"{url}/t/{tables.over['code']}")
    expect(page.locator("#game-over")).to_be_visible()
    if page.locator("#reveal").is_visible():  # the last round's reveal, over the result
        page.click("#reveal-dismiss")
    expect(page.locator("#reveal")).to_be_hidden()
    shoot(page, "game-over", size, lang, scheme, heading("#game-over h2", lang, "over.heading"))

    page.goto(url + "/games")
    expect(page.locator("a.game-link").first).to_be_visible()
    shoot(page, "games", size, lang, scheme, heading("h1", lang, "games.heading"))

    page.goto(f"{url}/games/{tables.game_id}")
    expect(page.locator("#replay-step")).not_to_be_empty()
    page.click("#replay-next")
    title = words(lang)["replay.title_game"].replace("{id}", str(tables.game_id))
    shoot(
        page, "replay", size, lang, scheme, f"h1:text-is({json.dumps(title, ensure_ascii=False)})"
    )

    page.goto(url + "/cup")
    expect(page.locator("#cup-main")).to_have_attribute("data-count", "5")  # the page is ready
    page.click("#cup-roll")
    expect(page.locator("#cup-dice .die:not(.face-down)")).to_have_count(5)
    shoot(page, "cup", size, lang, scheme, heading("h1", lang, "cup.heading"))

    page.context.close()
    assert not errors, "\n".join(errors)


def test_a_table_that_could_not_be_resumed(browser: Browser, live_server: ServerFactory) -> None:
    server = live_server()
    created = new_table(server, seats=2, bots=["easy"], bot_seconds=5)
    host_post(server, created["code"], "start", created["token"])
    server.stop()
    with sqlite3.connect(server.sqlite_path) as db:  # rules that now refuse its two players
        db.execute(
            "UPDATE tables SET options = ? WHERE code = ?", ('{"min_players": 3}', created["code"])
        )
    db.close()
    server.start()
    for size, lang, scheme in LOOKS:
        errors: list[str] = []
        page = context_page(browser, size, lang, scheme, [created], errors)
        page.goto(f"{server.url}/t/{created['code']}")
        expect(page.locator("main#table-main")).to_have_attribute("data-status", "broken")
        banner = heading("#broken-banner span", lang, "game.broken")
        shoot(page, "broken", size, lang, scheme, banner)
        page.context.close()
        assert not errors, "\n".join(errors)


def test_a_lost_connection_on_a_phone(browser: Browser, live_server: ServerFactory) -> None:
    """With the server gone, the table says it is reconnecting, and on a phone that notice takes
    a line under the top bar instead of pushing the bar past the screen's edge."""
    server = live_server()
    created = new_table(server, seats=2, bots=["easy"])
    pages = []
    errors: list[str] = []
    for lang in LANGS:
        for scheme in SCHEMES:
            page = context_page(browser, "phone", lang, scheme, [created], errors)
            page.goto(f"{server.url}/t/{created['code']}")
            expect(page.locator("main#table-main")).to_have_attribute("data-status", "lobby")
            pages.append((page, lang, scheme))
    server.kill()
    for page, lang, scheme in pages:
        notice = page.locator("#conn-status")
        expect(notice).to_have_attribute("data-status", "offline", timeout=10_000)
        expect(notice).to_have_text(words(lang)["conn.offline"])
        shoot(page, "connection-lost", "phone", lang, scheme, "#conn-status", whole=False)
        page.context.close()
    assert not errors, "\n".join(errors)
