"""The lobby in a real browser: the first page shows a new public table without a reload and
drops it when it starts, never shows a private one, filters by preset, and "Play now" in two
browsers seats both people at one table (also when the browsers reach two processes of one
site, who then play a whole game); the table page shows the countdown. Screenshots of the
first page with open tables, at phone and desktop size in Spanish and Italian, go to the
screenshot folder. Real server, real Chromium (Playwright), no mocks."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from .conftest import (
    CHROMIUM,
    LiveServer,
    PostgresCluster,
    ServerFactory,
    close_reveal,
    host_post,
    join,
    new_table,
    words,
)
from .test_browser import is_over, screenshot_dir, take_turn
from .test_cluster import Site
from .test_layout import OVERFLOWING

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


@pytest.fixture
def server(live_server: ServerFactory) -> LiveServer:
    """A server of this test's own: the lobby shows only this test's tables."""
    return live_server()


class Pages:
    """Browser contexts of one test (each a separate browser profile), closed at its end."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def open(
        self, url: str, lang: str = "en", viewport: dict[str, int] | None = None, name: str = ""
    ) -> Page:
        context = self.browser.new_context(viewport=viewport or DESKTOP)  # type: ignore[arg-type]
        self.contexts.append(context)
        setup = f"localStorage.setItem('dudo.lang', {json.dumps(lang)});"
        if name:
            setup += f"localStorage.setItem('dudo.name', {json.dumps(name)});"
        context.add_init_script(setup)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.goto(url)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    opened = Pages(browser)
    yield opened
    opened.close()
    assert opened.errors == [], f"errors in the pages: {opened.errors}"


def card(page: Page, code: str) -> Locator:
    return page.locator(f'#lobby-list li.lobby-card[data-code="{code}"]')


def test_a_new_public_table_appears_live_and_leaves_when_it_starts(
    server: LiveServer, pages: Pages
) -> None:
    page = pages.open(server.url + "/")
    expect(page.locator("#lobby-live")).to_have_attribute("data-state", "open")
    expect(page.locator("#lobby-empty")).to_have_text(words("en")["hall.empty"])
    private = new_table(server, name="Hidden")
    table = new_table(server, name="Lía", public=True, seats=4, bots=["hard"], preset="perudo")
    listed = page.locator(f'#lobby-list li.lobby-card[data-code="{table["code"]}"]')
    expect(listed).to_be_visible()
    expect(listed.locator(".lobby-host")).to_have_text("Host: Lía")
    expect(listed.locator(".lobby-preset")).to_have_text(words("en")["preset_name.perudo"])
    expect(listed.locator(".lobby-seats")).to_contain_text("Seats taken: 2/4")
    expect(listed.locator(".lobby-seats")).to_contain_text("2 free seats")
    expect(listed.locator(".lobby-bots li")).to_have_text([words("en")["bot.hard"]])
    expect(page.locator(f'li[data-code="{private["code"]}"]')).to_have_count(0)

    # The filter: another preset hides it, its own shows it again.
    page.select_option("#lobby-filter", "dudo")
    expect(listed).to_have_count(0)
    expect(page.locator("#lobby-empty")).to_have_text(words("en")["hall.empty_filtered"])
    page.select_option("#lobby-filter", "perudo")
    expect(listed).to_be_visible()

    join(server, table["code"], "Bo")
    expect(listed.locator(".lobby-seats")).to_contain_text("1 free seat")
    host_post(server, table["code"], "start", table["token"])
    expect(listed).to_have_count(0)
    # All this without a reload: the page's own state survived (the filter chosen above).
    expect(page.locator("#lobby-filter")).to_have_value("perudo")


def test_play_now_in_two_browsers_seats_both_at_one_table(server: LiveServer, pages: Pages) -> None:
    ana = pages.open(server.url + "/", name="Ana")
    ana.select_option("#play-preset", "perudo")
    ana.click("#play-now")
    ana.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = ana.url.rsplit("/", 1)[1]
    # The countdown of the table Play now opened ticks on the table page.
    clock = ana.locator("#fill-clock")
    expect(clock).to_be_visible()
    expect(clock).to_contain_text(re.compile(r"Starts in 0:5\d|Starts in 1:00"))
    expect(ana.locator("#table-kind")).to_have_attribute("data-public", "true")

    bo = pages.open(server.url + "/", lang="es", name="Bo")
    listed = bo.locator(f'#lobby-list li.lobby-card[data-code="{code}"]')
    expect(listed).to_be_visible()
    expect(listed.locator(".lobby-countdown")).to_contain_text("Empieza en")
    bo.select_option("#play-preset", "perudo")
    bo.click("#play-now")
    bo.wait_for_url(f"**/t/{code}")
    names = ana.locator("#seat-list .seat-name")
    expect(names.nth(0)).to_contain_text("Ana")
    expect(names.nth(1)).to_contain_text("Bo")
    expect(bo.locator("#fill-clock")).to_contain_text("Empieza en")
    bo.locator("#lobby").screenshot(
        path=str(screenshot_dir() / "open-tables-countdown-desktop-es.png")
    )


@pytest.mark.parametrize(("lang", "viewport"), [("es", PHONE), ("it", DESKTOP)])
def test_a_rated_table_made_with_the_form_is_rated_everywhere(
    server: LiveServer, pages: Pages, lang: str, viewport: dict[str, int]
) -> None:
    text = words(lang)
    ana = pages.open(server.url + "/", lang=lang, viewport=viewport, name="Ana")
    expect(ana.locator("#you-button-name")).not_to_be_empty()  # the browser's player is made
    ana.click("#create-open")
    ana.check("#create-hints")
    ana.check("#create-rated")
    # Rated means public and no hints: the form sets both and holds them.
    expect(ana.locator("#create-public")).to_be_checked()
    expect(ana.locator("#create-public")).to_be_disabled()
    expect(ana.locator("#create-hints")).not_to_be_checked()
    expect(ana.locator("#create-hints")).to_be_disabled()
    # Its bots are the site's: no random bot is offered, the countdown's level is fixed.
    expect(ana.locator('#bots-list select.bot-level option[value="random"]')).to_have_count(0)
    expect(ana.locator("#create-fill-level")).to_have_value("medium")
    expect(ana.locator("#create-fill-level")).to_be_disabled()
    expect(ana.locator('label:has(#create-rated) [data-i18n="create.rated"]')).to_have_text(
        text["create.rated"]
    )
    ana.locator(".hints-choice:has(#create-rated)").screenshot(
        path=str(screenshot_dir() / f"create-rated-{lang}.png")
    )
    ana.click("#create-button")
    ana.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = ana.url.rsplit("/", 1)[1]
    kind = ana.locator("#table-kind")
    expect(kind).to_have_attribute("data-rated", "true")
    expect(kind).to_have_text(text["hall.rated_table"])

    bo = pages.open(server.url + "/", lang=lang, viewport=viewport, name="Bo")
    listed = bo.locator(f'#lobby-list li.lobby-card[data-code="{code}"]')
    expect(listed.locator(".lobby-rated")).to_have_text(text["hall.rated"])
    listed.screenshot(path=str(screenshot_dir() / f"open-tables-rated-{lang}.png"))
    # Bo's browser is a player too: the join button seats him at the rated table.
    listed.locator("a.lobby-join").click()
    bo.wait_for_url(f"**/t/{code}")
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    expect(ana.locator("#seat-list .seat-name").filter(has_text=re.compile("^Bo$"))).to_have_count(
        1
    )


def test_the_countdown_runs_out_in_the_browser_and_the_game_starts(
    server: LiveServer, pages: Pages
) -> None:
    # 8 seconds: long enough for a loaded machine to show the card while the count still
    # runs (with 3, the card once showed up already "about to start").
    table = new_table(server, name="Ana", public=True, seats=3, fill_seconds=8, turn_seconds=0)
    page = pages.open(server.url + "/", lang="it")
    listed = page.locator(f'#lobby-list li.lobby-card[data-code="{table["code"]}"]')
    expect(listed.locator(".lobby-countdown")).to_contain_text("Inizia tra 0:0")
    expect(listed).to_have_count(0, timeout=20_000)  # bots sat down and the game started


@pytest.mark.parametrize("lang", ["es", "it"])
def test_screenshots_of_the_open_tables(server: LiveServer, pages: Pages, lang: str) -> None:
    new_table(server, name="Lía", public=True, seats=5, bots=["easy", "hard"], preset="perudo")
    new_table(
        server,
        name="Bruno",
        public=True,
        seats=4,
        fill_seconds=600,
        fill_level="medium",
        hints=True,
        options={"spot_on": False},
    )
    new_table(server, name="Carmen", public=True, seats=2, preset="cacho")
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = pages.open(server.url + "/", lang=lang, viewport=viewport)
        expect(page.locator("#lobby-list li.lobby-card")).to_have_count(3)
        expect(page.locator("#lobby-list-heading")).to_have_text(words(lang)["hall.heading"])
        expect(page.locator("#play-now")).to_have_text(words(lang)["hall.play_now"])
        assert page.evaluate(OVERFLOWING) == [], f"{size} {lang} scrolls sideways"
        # The whole page: the open tables, and the create form's public and countdown fields.
        page.screenshot(
            path=str(screenshot_dir() / f"open-tables-{size}-{lang}.png"), full_page=True
        )


def test_people_on_two_processes_meet_in_the_lobby_and_play_a_game(
    live_server: ServerFactory, postgres_cluster: PostgresCluster, redis_url: str, pages: Pages
) -> None:
    """Two server processes of one site (Redis and PostgreSQL): Ana's browser reaches one,
    Bo's the other. Bo's lobby lists Ana's table, "Play now" seats him there, and they play
    a whole game, Bo's moves and updates relayed to the table's process and back."""
    first, second = Site(live_server, postgres_cluster, redis_url, 2).servers
    ana = pages.open(first.url + "/", lang="it", viewport=PHONE, name="Ana")
    ana.select_option("#play-preset", "perudo")
    ana.click("#play-now")
    ana.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = ana.url.rsplit("/", 1)[1]
    bo = pages.open(second.url + "/", lang="es", name="Bo")
    expect(card(bo, code)).to_be_visible()
    bo.select_option("#play-preset", "perudo")
    bo.click("#play-now")
    bo.wait_for_url(f"**/t/{code}")
    for page in (ana, bo):
        names = page.locator("#seat-list .seat-name")
        expect(names.nth(0)).to_contain_text("Ana")
        expect(names.nth(1)).to_contain_text("Bo")
    ana.click("#start-button")
    rng = random.Random(4)
    for _ in range(400):
        if is_over(ana) and is_over(bo):
            break
        if not (take_turn(ana, rng) or take_turn(bo, rng)):
            bo.wait_for_timeout(50)
    else:
        raise AssertionError("the game did not end")
    for page in (ana, bo):  # the last reveal, then the result
        close_reveal(page)
    shots = screenshot_dir()
    ana.screenshot(path=str(shots / "two-processes-over-phone-it.png"))
    bo.screenshot(path=str(shots / "two-processes-over-desktop-es.png"))
    winner = ana.locator("#game-over")
    expect(winner).to_be_visible()
    expect(bo.locator("#game-over")).to_be_visible()
