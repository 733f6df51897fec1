"""The face names of the web client in Chromium: English names the faces by number (twos,
threes …); the player menu's "Names of the faces" switches to the traditional nicknames (ducks,
trains …), kept in this browser across pages (screenshot ``player-faces-phone-en.png``); in Spanish the choice is not offered (Spanish
names are the same either way)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import CHROMIUM, LiveServer, words
from .test_browser import screenshot_dir

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

#: Each face's plural as the page's i18n.js names it.
FACES = """async () => {
  const i18n = await import("/static/i18n.js");
  return [1, 2, 3, 4, 5, 6].map((f) => i18n.faceName(f, true));
}"""


#: Waits (polling, up to 15 s) until the page names face 2 as asked: the words load afresh.
NAMED = """async (want) => {
  const i18n = await import("/static/i18n.js");
  for (let i = 0; i < 600 && i18n.faceName(2, true) !== want; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return i18n.faceName(2, true);
}"""


def open_page(browser: Browser, server: LiveServer, lang: str) -> Page:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(f"localStorage.setItem('dudo.lang', '{lang}');")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.url}/games")
    expect(page.locator("#games-main")).to_have_attribute("data-state", "ready")
    expect(page.locator("#you-button")).to_be_visible()
    return page


def test_english_faces_by_number_or_traditional_from_the_player_menu(
    browser: Browser, shared_server: LiveServer
) -> None:
    text = words("en")
    page = open_page(browser, shared_server, "en")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    try:
        assert page.evaluate(FACES) == ["aces", "twos", "threes", "fours", "fives", "sixes"]
        page.click("#you-button")
        section = page.locator("#you-faces-section")
        expect(section).to_be_visible()
        expect(section.locator("h3")).to_have_text(text["player.faces_heading"])
        expect(page.locator("#you-faces")).to_have_value("usual")
        section.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_dir() / "player-faces-phone-en.png"))
        page.select_option("#you-faces", "traditional")
        assert page.evaluate(NAMED, "ducks") == "ducks"
        assert page.evaluate(FACES) == ["aces", "ducks", "trains", "quads", "queens", "hexes"]
        # Kept in this browser: another page names them the same way.
        page.goto(f"{shared_server.url}/cup")
        expect(page.locator("#you-button")).to_be_visible()
        assert page.evaluate(FACES)[1:3] == ["ducks", "trains"]
        page.click("#you-button")
        expect(page.locator("#you-faces")).to_have_value("traditional")
        page.select_option("#you-faces", "usual")
        assert page.evaluate(NAMED, "twos") == "twos"
    finally:
        page.context.close()
    assert not errors, errors


def test_the_choice_is_not_offered_in_spanish(browser: Browser, shared_server: LiveServer) -> None:
    page = open_page(browser, shared_server, "es")
    try:
        assert page.evaluate(FACES)[1:3] == ["tontos", "trenes"]
        page.click("#you-button")
        expect(page.locator("#you-dialog")).to_be_visible()
        expect(page.locator("#you-faces-section")).to_be_hidden()
    finally:
        page.context.close()
