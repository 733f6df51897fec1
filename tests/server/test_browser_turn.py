"""Turn feedback in a real browser (Debian's Chromium driven by Playwright): while it is the
page's turn its tab title has the turn marker and the favicon the turn dot, both gone once the
turn passes; the sound toggle is remembered; and when the timer plays for the player, a notice
says what was played, in the page's language. Screenshots of the notice at phone size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from .conftest import CHROMIUM, LiveServer, api, close_reveal, host_post, new_table, words
from .test_browser import screenshot_dir
from .test_browser_faults import seated_page

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

ICON = "/static/favicon.svg"
TURN_ICON = "/static/favicon-turn.svg"


def action_words(server: LiveServer, action: str, lang: str) -> str:
    """An action as the page words it in ``lang``: "3 × quinas", or the call's word."""
    with api(server) as http:
        names = http.get(f"/api/i18n/{lang}").json()
    if "x" not in action:
        word: str = names["calls"].get(action, action)
        return word
    quantity, face = action.split(" ")[0].split("x")
    face_names = names["faces"][face]
    return f"{quantity} × {face_names['one' if quantity == '1' else 'many']}"


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_tab_marks_my_turn_and_the_timer_notice_says_what_it_played(
    browser: Browser, shared_server: LiveServer, lang: str
) -> None:
    server = shared_server
    said = words(lang)
    # The bot thinks a while, so the page can be seen between two of Ana's turns.
    created = new_table(server, seats=2, bots=["easy"], turn_seconds=4, bot_seconds=1.5)
    code, token = created["code"], created["token"]
    page = seated_page(browser, server, code, token, lang)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    main = page.locator("main#table-main")
    expect(main).to_have_attribute("data-status", "lobby")
    title = f"{said['table.title']} {code}"
    marked = said["turn.tab_title"].replace("{title}", title)
    icon = page.locator('link[rel="icon"]')
    expect(page).to_have_title(title)
    expect(icon).to_have_attribute("href", ICON)

    toggle = page.locator("#sound-toggle")
    expect(page.locator("#cue-pref")).to_contain_text(said["turn.cue"])
    expect(toggle).not_to_be_checked()  # off unless asked for
    toggle.check()
    host_post(server, code, "start", token)

    # Ana's turn: the tab says so, and the cue was given.
    status = page.locator("#status")
    expect(status).to_have_attribute("data-my-turn", "true", timeout=15_000)
    expect(page).to_have_title(marked)
    expect(icon).to_have_attribute("href", TURN_ICON)
    expect(main).to_have_attribute("data-turn-cues", "1")
    page.click("#bid-send")
    # The bot's turn: both back to normal.
    expect(status).to_have_attribute("data-my-turn", "false")
    expect(page).to_have_title(title)
    expect(icon).to_have_attribute("href", ICON)

    # Ana's next turn runs out: the timer plays for her, and the page says what it played.
    notice = page.locator("#auto-notice")
    expect(notice).to_be_visible(timeout=20_000)
    action = notice.get_attribute("data-action")
    assert action, "the notice names no action"
    text = said["turn.timer_played"].replace("{action}", action_words(server, action, lang))
    expect(page.locator("#auto-notice-text")).to_have_text(text)
    close_reveal(page)
    page.evaluate("window.scrollTo(0, 0)")  # the notice is at the top of the page
    page.screenshot(path=str(screenshot_dir() / f"timer-notice-phone-{lang}.png"))
    page.click("#auto-notice-dismiss")
    expect(notice).to_be_hidden()

    # The sound choice outlives the page.
    page.reload()
    expect(page.locator("#sound-toggle")).to_be_checked()
    assert page.evaluate("localStorage.getItem('dudo.turn_cue')") == "on"
    assert not errors, errors
    page.context.close()


def test_a_spectator_gets_no_turn_marks(browser: Browser, shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=2, bots=["easy"], reveal_seconds=2)
    host_post(shared_server, created["code"], "start", created["token"])
    context = browser.new_context()
    context.add_init_script(f"localStorage.setItem('dudo.lang', {json.dumps('en')});")
    page = context.new_page()
    page.goto(f"{shared_server.url}/t/{created['code']}")
    page.click("#watch-button")
    expect(page.locator("main#table-main")).to_have_attribute("data-status", "playing")
    expect(page.locator("#cue-pref")).to_be_hidden()
    expect(page.locator('link[rel="icon"]')).to_have_attribute("href", ICON)
    pause = words("en")["lobby.reveal_seconds"].replace("{n}", "2")
    expect(page.locator("#timer-info")).to_contain_text(pause)
    context.close()
