"""The house-rules editor of the create-table page, as a person sees it, in a real browser
(Debian's Chromium driven by Playwright): options in headed sections, each with a label and a
one-line description in the page's language and never the raw option name; a changed option
marked in words with the preset's value beside it (axe-core finds nothing serious); preset summaries worded by the page, with
no trace of the source documents' numbering. Also: every text the editor needs exists in all
three languages. Screenshots at phone size are saved for a person to review."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from dudo.engine.rules import OPTION_NAMES, PRESETS

from .conftest import CHROMIUM, LiveServer, words
from .test_accessibility import serious_problems
from .test_browser import PHONE, screenshot_dir

WEB = Path(__file__).resolve().parents[2] / "src" / "dudo" / "web"
LANGS = ("en", "es", "it")
GROUPS = ("bidding", "aces", "calls", "pass", "oblige", "table")

needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)


def grouped_options() -> dict[str, list[str]]:
    """The editor's sections as rules.js declares them (OPTION_GROUPS)."""
    source = (WEB / "rules.js").read_text("utf-8")
    block = source[
        source.index("OPTION_GROUPS = [") : source.index("];", source.index("OPTION_GROUPS"))
    ]
    return {
        group: re.findall(r'"([a-z_]+)"', members)
        for group, members in re.findall(r'\["(\w+)", \[([^\]]*)\]\]', block)
    }


def test_every_option_sits_in_exactly_one_group() -> None:
    groups = grouped_options()
    assert tuple(groups) == GROUPS
    placed = [name for members in groups.values() for name in members]
    assert sorted(placed) == sorted(OPTION_NAMES)


def test_every_language_has_the_same_keys_all_with_text() -> None:
    english = words("en")
    for lang in LANGS:
        table = words(lang)
        assert set(table) == set(english), lang
        # A text may be empty on purpose (conn.idle), but then in every language.
        empty = {k for k, v in table.items() if not (isinstance(v, str) and v.strip())}
        assert empty == {k for k, v in english.items() if not v.strip()}, lang


@pytest.mark.parametrize("lang", LANGS)
def test_the_editor_has_every_text_it_needs(lang: str) -> None:
    table = words(lang)
    needed = [f"opt.{n}" for n in OPTION_NAMES] + [f"optdesc.{n}" for n in OPTION_NAMES]
    needed += [f"optgroup.{g}" for g in GROUPS] + [f"preset.{p}" for p in PRESETS]
    needed += ["create.house_rules_same", "create.changed_mark", "create.preset_value"]
    missing = [key for key in needed if not table.get(key, "").strip()]
    assert not missing, f"{lang}: {missing}"
    # (The terminal's messages, in the same catalogue, may show a game's seed.)
    web = {k: v for k, v in table.items() if not k.startswith("terminal.")}
    assert not any("seed" in v.lower() for v in web.values()), lang


def open_index(browser: Browser, server: LiveServer, lang: str) -> Page:
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    context.add_init_script(f"localStorage.setItem('dudo.lang', {json.dumps(lang)});")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(server.url + "/#create-section")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#house-rules-editor .option-row").first).to_be_attached()
    return page


@needs_chromium
@pytest.mark.parametrize("lang", LANGS)
def test_no_seed_on_the_first_page(browser: Browser, shared_server: LiveServer, lang: str) -> None:
    page = open_index(browser, shared_server, lang)
    page.locator("#house-rules summary").click()
    for preset in PRESETS:
        page.select_option("#create-preset", preset)
        expect(page.locator("#preset-summary")).to_have_text(words(lang)[f"preset.{preset}"])
        text = page.locator("body").inner_text()
        assert "seed" not in text.lower(), (lang, preset)
    page.context.close()


@needs_chromium
@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_editor_speaks_the_page_language(
    browser: Browser, shared_server: LiveServer, lang: str
) -> None:
    table, english = words(lang), words("en")
    page = open_index(browser, shared_server, lang)
    summary = page.locator("#house-rules summary")
    expect(summary).to_contain_text(table["create.house_rules_same"])
    summary.click()

    headings = page.locator("#house-rules-editor .opt-group-heading")
    expect(headings).to_have_text([table[f"optgroup.{g}"] for g in GROUPS])
    rows = page.locator("#house-rules-editor .option-row")
    expect(rows).to_have_count(len(OPTION_NAMES))
    for i in range(rows.count()):
        row = rows.nth(i)
        name = row.get_attribute("data-option") or ""
        label = row.locator(".opt-name").inner_text().strip()
        desc = row.locator(".opt-desc").inner_text().strip()
        assert label.startswith(table[f"opt.{name}"]), (name, label)
        assert desc == table[f"optdesc.{name}"], (name, desc)
        # Neither English (where the languages differ) nor the raw name shows.
        assert desc != english[f"optdesc.{name}"], name
        if "_" in name:  # one-word names (loss, cruzado) may be words of the language
            assert name not in row.inner_text(), name
    expect(page.locator("#house-rules-editor .opt-key")).to_have_count(0)
    page.screenshot(path=str(screenshot_dir() / f"house-rules-phone-{lang}.png"), full_page=True)

    # A house rule: marked in words, with the preset's value beside it, and counted.
    row = page.locator('.option-row[data-option="spot_on"]')
    expect(row.locator(".opt-changed")).to_be_hidden()
    row.locator("select.opt-input").select_option("false")
    expect(row).to_have_class(re.compile(r"\bchanged\b"))
    expect(row.locator(".opt-changed")).to_have_text(table["create.changed_mark"])
    preset_value = table["create.preset_value"].replace("{value}", table["val.true"])
    expect(row.locator(".opt-preset")).to_have_text(preset_value)
    expect(summary).to_contain_text(table["create.changed_one"].replace("{count}", "1"))
    assert not serious_problems(page)  # the open editor, a house rule marked, passes axe too
    row.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir() / f"house-rules-changed-phone-{lang}.png"))

    # Back to the preset's value: no longer a house rule.
    row.locator("select.opt-input").select_option("true")
    expect(row).not_to_have_class(re.compile(r"\bchanged\b"))
    expect(row.locator(".opt-preset")).to_be_hidden()
    expect(summary).to_contain_text(table["create.house_rules_same"])
    page.context.close()
