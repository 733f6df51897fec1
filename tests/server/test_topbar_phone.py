"""The shared top bar on a phone (390×844, and the narrowest, 360 px) in English, Spanish and
Italian: every link and button shows a word of the page's language (not a picture alone, not a
name for screen readers only), the bar keeps to one line and to the screen's width; on a
desktop the words stand alone, without pictures. Screenshots ``topbar-phone-{lang}.png`` go to
``artifacts/screenshots``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import CHROMIUM, LiveServer, words
from .test_browser import screenshot_dir

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

#: Each control of the bar and the catalogue key of the word it shows.
SHOWN = {
    ".topbar a.brand": None,  # "Dudo" in every language
    ".topbar nav a.nav-learn": "nav.learn",
    ".topbar nav a.nav-cup": "nav.cup",
    ".topbar nav a.nav-games": "nav.games",
    ".topbar nav a.nav-ratings": "nav.ratings",
    "#you-button .you-word": "nav.you",
}

#: What the page says of its bar: each control's box and visible text, the bar's box and
#: whether anything runs past the screen's width.
MEASURE = """() => {
  const bar = document.querySelector(".topbar");
  const items = [...bar.querySelectorAll("a, button, select")].map((node) => {
    const box = node.getBoundingClientRect();
    const text = node.tagName === "SELECT" ? node.selectedOptions[0].textContent : node.innerText;
    return { tag: node.tagName, id: node.id || node.className, text: text.trim(),
             top: box.top, bottom: box.bottom, left: box.left, right: box.right,
             width: box.width };
  });
  const box = bar.getBoundingClientRect();
  return { items, height: box.height, barRight: box.right,
           pageWidth: document.documentElement.scrollWidth, barScroll: bar.scrollWidth,
           barClient: bar.clientWidth };
}"""


def open_games(browser: Browser, server: LiveServer, lang: str, viewport: ViewportSize) -> Page:
    context = browser.new_context(viewport=viewport)
    context.add_init_script(f"localStorage.setItem('dudo.lang', '{lang}');")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.url}/games")
    expect(page.locator("#games-main")).to_have_attribute("data-state", "ready")
    expect(page.locator("#you-button")).to_be_visible()
    expect(page.locator(".topbar nav a.nav-games")).to_have_text(words(lang)["nav.games"])
    return page


def check_one_line(page: Page, width: int) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(MEASURE)
    items = found["items"]
    assert isinstance(items, list)
    for item in items:
        # A word, not a picture alone (a select shows its chosen option).
        assert any(ch.isalpha() for ch in item["text"]), item
    assert float(found["height"]) <= 64, found  # one line of items, not two
    tops = [item["top"] for item in items]
    bottoms = [item["bottom"] for item in items]
    assert max(tops) < min(bottoms), f"the items do not share a line: {items}"
    assert int(found["pageWidth"]) <= width, found  # nothing scrolls sideways
    assert int(found["barScroll"]) <= int(found["barClient"]) + 1, found
    assert max(item["right"] for item in items) <= width, items
    return found


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_every_control_of_the_bar_shows_a_word_on_a_phone(
    browser: Browser, shared_server: LiveServer, lang: str
) -> None:
    text = words(lang)
    page = open_games(browser, shared_server, lang, {"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    try:
        for selector, key in SHOWN.items():
            control = page.locator(selector)
            expect(control).to_be_visible()
            shown = control.inner_text().strip()
            assert shown == (text[key] if key else "Dudo"), (selector, shown)
            box = control.bounding_box()
            assert box is not None and box["width"] > 8, (selector, box)  # shown, not clipped
            link = page.locator(selector.removesuffix(" .you-word"))
            room = link.bounding_box()
            assert room is not None and room["height"] >= 40, (selector, room)  # a finger's room
        # The word under the head is the button's name with the player's name.
        name = page.locator("#you-button-name")
        expect(name).not_to_be_empty()
        expect(page.locator("#you-button")).to_have_accessible_name(
            f"{text['nav.you']} {name.inner_text()}"
        )
        page.screenshot(
            path=str(screenshot_dir() / f"topbar-phone-{lang}.png"),
            clip={"x": 0, "y": 0, "width": 390, "height": 120},
        )
        check_one_line(page, 390)
        # The narrowest phones: still one line, still every word, nothing off the screen.
        page.set_viewport_size({"width": 360, "height": 740})
        check_one_line(page, 360)
    finally:
        page.context.close()
    assert not errors, errors


def test_a_desktop_bar_shows_words_without_pictures(
    browser: Browser, shared_server: LiveServer
) -> None:
    page = open_games(browser, shared_server, "en", {"width": 1366, "height": 900})
    try:
        for selector in SHOWN:
            if "you-word" not in selector:
                expect(page.locator(selector)).to_be_visible()
        for icon in page.locator(".topbar nav .nav-icon").all():
            expect(icon).to_be_hidden()
        expect(page.locator("#you-button-name")).to_be_visible()
        word = page.locator("#you-button .you-word").bounding_box()
        assert word is not None and word["width"] <= 1, word  # for screen readers only
        check_one_line(page, 1366)
    finally:
        page.context.close()
