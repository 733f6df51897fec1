"""The staged reveal in a real browser (Debian's Chromium driven by Playwright): when a round
ends the cups lift, the count runs up, then the verdict shows (#reveal data-stage goes lift →
count → verdict → done); a skip press jumps to the end; under reduced motion it opens at the end;
and a dismissed reveal stays dismissed after a reload, while the next round's reveal still shows.
Screenshots mid-count at phone size in Spanish and Italian."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import CHROMIUM, LiveServer, host_post, new_table, tap_if_ready
from .test_browser import PHONE, screenshot_dir

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

# Every value #reveal's data-stage takes, in order, kept by the page for the test to read.
WATCH_STAGES = """
window.revealStages = [];
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("reveal");
  new MutationObserver(() => {
    const stage = box.dataset.stage;
    const seen = window.revealStages;
    if (stage && seen[seen.length - 1] !== stage) seen.push(stage);
  }).observe(box, { attributes: true, attributeFilter: ["data-stage"] });
});
"""


def quick_table(server: LiveServer, reveal_seconds: int) -> tuple[str, str]:
    """A 2-seat table with one easy bot and 2 dice each, started: a reveal comes quickly.
    The bot waits ``reveal_seconds`` after a reveal, so the reveal is not closed by its bid."""
    created = new_table(
        server,
        seats=2,
        bots=["easy"],
        preset="perudo",
        options={"dice_per_player": 2},
        reveal_seconds=reveal_seconds,
    )
    return created["code"], created["token"]


def table_page(
    browser: Browser, server: LiveServer, code: str, token: str, lang: str, reduced: bool = False
) -> Page:
    context = browser.new_context(
        viewport=PHONE,  # type: ignore[arg-type]
        reduced_motion="reduce" if reduced else "no-preference",
    )
    context.add_init_script(
        f"localStorage.setItem('dudo.lang', {json.dumps(lang)});"
        f"localStorage.setItem('dudo.seat.{code}', {json.dumps(token)});" + WATCH_STAGES
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.url}/t/{code}")
    expect(page.locator("main#table-main")).to_have_attribute("data-status", "lobby")
    return page


def play_until_reveal(page: Page) -> None:
    """Ana calls as soon as a bid stands, and opens with the lowest bid when she must."""
    deadline = time.monotonic() + 30
    reveal = page.locator("#reveal")
    while not reveal.is_visible():
        assert time.monotonic() < deadline, "no reveal was shown"
        my_turn = page.locator("#status").get_attribute("data-my-turn") == "true"
        if not tap_if_ready(page, "#action-call") and my_turn:
            tap_if_ready(page, "#bid-send")
        page.wait_for_timeout(100)


def stages(page: Page) -> list[str]:
    seen: list[str] = page.evaluate("window.revealStages.slice()")
    return seen


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_reveal_lifts_counts_then_gives_its_verdict(
    browser: Browser, shared_server: LiveServer, lang: str
) -> None:
    code, token = quick_table(shared_server, reveal_seconds=12)
    page = table_page(browser, shared_server, code, token, lang)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    host_post(shared_server, code, "start", token)
    play_until_reveal(page)
    box = page.locator("#reveal")
    expect(page.locator("#reveal-dismiss")).to_be_focused()
    expect(page.locator("#reveal-skip")).to_be_visible()
    expect(box).to_have_attribute("data-stage", "count")
    page.wait_for_timeout(250)
    page.screenshot(path=str(screenshot_dir() / f"reveal-staged-phone-{lang}.png"))
    expect(box).to_have_attribute("data-stage", "done", timeout=10_000)
    assert stages(page) == ["lift", "count", "verdict", "done"]
    expect(page.locator("#reveal-skip")).to_be_hidden()
    count = box.get_attribute("data-count")
    if count:  # a call or spot-on: the count ends at the real count, every counted die lit
        expect(page.locator("#reveal-count-number")).to_have_text(count)
        counted = page.locator("#reveal-hands .die.counted")
        expect(page.locator("#reveal-hands .die.counted.lit")).to_have_count(counted.count())
    expect(page.locator("#reveal-verdict")).not_to_be_empty()
    expect(page.locator("#reveal-outcomes li").first).to_be_visible()
    page.click("#reveal-dismiss")
    expect(box).to_be_hidden()
    assert errors == []
    page.context.close()


def test_skip_jumps_to_the_end_at_once(browser: Browser, shared_server: LiveServer) -> None:
    code, token = quick_table(shared_server, reveal_seconds=12)
    page = table_page(browser, shared_server, code, token, "en")
    host_post(shared_server, code, "start", token)
    play_until_reveal(page)
    box = page.locator("#reveal")
    assert box.get_attribute("data-stage") in ("lift", "count")
    page.click("#reveal-skip")
    expect(box).to_have_attribute("data-stage", "done", timeout=300)
    expect(page.locator("#reveal-skip")).to_be_hidden()
    expect(page.locator("#reveal-dismiss")).to_be_focused()
    expect(page.locator("#reveal-verdict")).to_be_visible()
    count = box.get_attribute("data-count")
    if count:
        expect(page.locator("#reveal-count-number")).to_have_text(count)
    assert stages(page)[-1] == "done"
    # Escape closes it.
    page.keyboard.press("Escape")
    expect(box).to_be_hidden()
    page.context.close()


def test_reduced_motion_opens_the_reveal_at_its_end(
    browser: Browser, shared_server: LiveServer
) -> None:
    code, token = quick_table(shared_server, reveal_seconds=12)
    page = table_page(browser, shared_server, code, token, "en", reduced=True)
    host_post(shared_server, code, "start", token)
    play_until_reveal(page)
    box = page.locator("#reveal")
    expect(box).to_have_attribute("data-stage", "done")
    assert stages(page) == ["done"]
    expect(page.locator("#reveal-skip")).to_be_hidden()
    count = box.get_attribute("data-count")
    if count:
        expect(page.locator("#reveal-count-number")).to_have_text(count)
    page.context.close()


def test_a_dismissed_reveal_stays_dismissed_after_a_reload(
    browser: Browser, shared_server: LiveServer
) -> None:
    code, token = quick_table(shared_server, reveal_seconds=3)
    page = table_page(browser, shared_server, code, token, "en")
    host_post(shared_server, code, "start", token)
    play_until_reveal(page)
    box = page.locator("#reveal")
    page.click("#reveal-dismiss")
    expect(box).to_be_hidden()
    stored = json.loads(page.evaluate(f"localStorage.getItem('dudo.reveal.{code}')"))
    assert isinstance(stored["game"], str | int) and isinstance(stored["seq"], int)

    page.reload()
    main = page.locator("main#table-main")
    expect(main).to_have_attribute("data-status", "playing")
    expect(page.locator("#events li").first).to_be_attached()
    page.wait_for_timeout(1000)
    expect(box).to_be_hidden()
    assert stages(page) == []

    # The next round's reveal is another one: it shows.
    play_until_reveal(page)
    expect(box).to_have_attribute("data-stage", "lift", timeout=1000)
    page.context.close()
