"""Presets shown by name, in the page's language: the first page's rules selectors (create a
table, "Play now", the lobby's filter), a lobby card and a table's rules line show
``preset_name.<id>`` of the catalogue, never a raw id such as ``dudo-legacy``; the ids stay
the values the forms send. In a real browser (Debian's Chromium driven by Playwright)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from dudo.engine.rules import PRESETS

from .conftest import CHROMIUM, LiveServer, ServerFactory, new_table, words
from .test_browser import PHONE, screenshot_dir

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

#: Ids that read as ids (a word of the language would not have a hyphen).
RAW_IDS = [name for name in PRESETS if "-" in name]


def open_page(browser: Browser, url: str, lang: str) -> Page:
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    context.add_init_script(f"localStorage.setItem('dudo.lang', {json.dumps(lang)});")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    return page


def assert_no_raw_id(text: str) -> None:
    shown = [name for name in RAW_IDS if name in text]
    assert not shown, (shown, text)


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_first_page_names_the_presets_in_its_language(
    browser: Browser, live_server: ServerFactory, lang: str
) -> None:
    server: LiveServer = live_server()
    said = words(lang)
    names = [said[f"preset_name.{name}"] for name in PRESETS]
    assert len(set(names)) == len(names)  # each preset told apart
    card = new_table(server, name="Lía", public=True, seats=4, preset="liars-dice")
    page = open_page(browser, server.url + "/", lang)
    page.click("#create-open")
    for select in ("#create-preset", "#play-preset"):
        options = page.locator(f"{select} option")
        expect(options).to_have_text(names)
        assert [options.nth(i).get_attribute("value") for i in range(len(names))] == list(PRESETS)
    expect(page.locator("#lobby-filter option")).to_have_text([said["hall.all_presets"], *names])
    page.select_option("#create-preset", "dudo-legacy")  # the id is still the value
    expect(page.locator("#create-preset")).to_have_value("dudo-legacy")
    listed = page.locator(f'#lobby-list li.lobby-card[data-code="{card["code"]}"]')
    expect(listed.locator(".lobby-preset")).to_have_text(said["preset_name.liars-dice"])
    expect(listed).to_have_attribute("data-preset", "liars-dice")
    page.screenshot(path=str(screenshot_dir() / f"preset-names-phone-{lang}.png"))
    assert_no_raw_id(page.locator("body").inner_text())
    join_label = listed.locator("a.lobby-join").get_attribute("aria-label") or ""
    assert said["preset_name.liars-dice"] in join_label and "liars-dice" not in join_label
    page.context.close()

    table = open_page(browser, f"{server.url}/t/{card['code']}", lang)
    expect(table.locator("#rules-preset")).to_have_text(said["preset_name.liars-dice"])
    table.context.close()
