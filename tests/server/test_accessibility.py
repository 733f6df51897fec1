"""Accessibility in a real browser (Debian's Chromium driven by Playwright): axe-core, the
accessibility engine, finds no serious or critical problem on any page (the lobby, a game in
play with the reveal open, a finished game, the shared screen of a table in its lobby and of one
in play, the cup, the games list, a replay) at phone and
desktop size, in the dark theme and the light one (``prefers-color-scheme``), colour contrast
over the pages' gradients included; and a whole game can be played with the keyboard alone."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from .conftest import (
    CHROMIUM,
    LiveServer,
    Player,
    get_table,
    host_post,
    new_table,
    play_turns,
    tap_if_ready,
)
from .test_browser import DESKTOP, PHONE, is_over

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

AXE = Axe()
GAME_SECONDS = 180.0


def serious_problems(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    response: dict[str, Any] = AXE.run(page).response
    return [
        f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


#: Where the pages paint a gradient behind text, as (elements, colour at one end, at the other).
#: axe-core cannot tell the contrast of text over a gradient (it leaves it undecided), so the
#: contrast is checked again with each gradient laid flat at one end, then at the other.
GRADIENTS = [
    ("body", "--felt-light", "--felt-dark"),
    ("#reveal .overlay-card", "--overlay-from", "--overlay-to"),
    ('#status[data-my-turn="true"]', "--my-turn-from", "--my-turn-to"),
    ("button.primary, .button.primary", "--primary-top", "--gold-dark"),
    ("button.danger", "--danger-top", "--red-dark"),
]
FLATTEN = """([gradients, end]) => {
  for (const [selector, first, last] of gradients) {
    for (const e of document.querySelectorAll(selector)) {
      e.style.background = end === null ? "" : getComputedStyle(e).getPropertyValue(end ? last : first);
    }
  }
}"""


def contrast_over_gradients(page: Page) -> list[str]:
    """axe-core's colour-contrast findings with every gradient flat at either end."""
    found = []
    for end in (False, True):
        page.evaluate(FLATTEN, [GRADIENTS, end])
        response: dict[str, Any] = AXE.run(page, options={"runOnly": ["color-contrast"]}).response
        found += [
            f"{n['target']}: {n['failureSummary']}"
            for v in response["violations"]
            for n in v["nodes"][:5]
        ]
    page.evaluate(FLATTEN, [GRADIENTS, None])
    return found


def reveal_at_rest(page: Page) -> None:
    """A reveal over the page (a finished game shows its last one) is measured at rest:
    skipped, as a reader in a hurry does, not while its verdict fades in."""
    reveal = page.locator("#reveal")
    if reveal.is_visible():
        tap_if_ready(page, "#reveal-skip")  # the reveal may end and hide it meanwhile
        expect(reveal).to_have_attribute("data-stage", "done")
        page.wait_for_timeout(400)


def seated(
    browser: Browser, viewport: dict[str, int], tokens: dict[str, str], scheme: str = "dark"
) -> Page:
    context = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        color_scheme=scheme,  # type: ignore[arg-type]
    )
    context.add_init_script(
        "".join(
            f"localStorage.setItem('dudo.seat.{code}', {json.dumps(token)});"
            for code, token in tokens.items()
        )
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


@pytest.mark.parametrize("scheme", ["dark", "light"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_axe_finds_nothing_serious_on_any_page(
    browser: Browser, shared_server: LiveServer, viewport: dict[str, int], scheme: str
) -> None:
    lobby = new_table(shared_server, seats=4, bots=["easy"])
    playing = new_table(shared_server, seats=2, bots=["easy"], bot_seconds=0.5)
    host_post(shared_server, playing["code"], "start", playing["token"])
    done = new_table(shared_server, seats=2, bots=["easy"])
    host_post(shared_server, done["code"], "start", done["token"])
    ana = Player(shared_server, done["code"], done["token"], name="Ana")
    play_turns([ana], random.Random(3))
    ana.close()
    game_id = get_table(shared_server, done["code"])["game"]
    tokens = {t["code"]: t["token"] for t in (lobby, playing, done)}
    page = seated(browser, viewport, tokens, scheme)
    assert page.evaluate("matchMedia('(prefers-color-scheme: light)').matches") == (
        scheme == "light"
    )
    found: dict[str, list[str]] = {}
    for path in (
        "/",
        f"/t/{lobby['code']}",
        f"/t/{playing['code']}",
        f"/t/{done['code']}",
        f"/t/{lobby['code']}/screen",
        f"/t/{playing['code']}/screen",
        "/cup",
        "/games",
        f"/games/{game_id}",
    ):
        page.goto(shared_server.url + path)
        page.wait_for_load_state("networkidle")
        reveal_at_rest(page)
        found[path] = serious_problems(page) + contrast_over_gradients(page)
    # In the game: play until a reveal is shown over the table, and check it too.
    page.goto(f"{shared_server.url}/t/{playing['code']}")
    reveal = page.locator("#reveal")
    deadline = time.monotonic() + GAME_SECONDS
    while not reveal.is_visible():
        assert time.monotonic() < deadline, "no reveal was shown"
        if page.locator("#status").get_attribute("data-my-turn") == "true":
            tap_if_ready(page, "#action-call") or tap_if_ready(page, "#bid-send")
        page.wait_for_timeout(200)
    reveal_at_rest(page)
    found["the reveal"] = serious_problems(page) + contrast_over_gradients(page)
    page.context.close()
    assert not any(found.values()), json.dumps(found, indent=1)


def press_until_focused(page: Page, selector: str, limit: int = 400) -> None:
    """Tab through the page until ``selector`` has the focus (as a person would)."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} never got the focus after {limit} tabs")


def test_a_whole_game_with_the_keyboard_alone(browser: Browser, shared_server: LiveServer) -> None:
    created = new_table(
        shared_server, seats=2, bots=["easy"], preset="perudo", options={"dice_per_player": 2}
    )
    code, token = created["code"], created["token"]
    page = seated(browser, DESKTOP, {code: token})
    page.goto(f"{shared_server.url}/t/{code}")
    press_until_focused(page, "#start-button")
    page.keyboard.press("Enter")
    main = page.locator("main#table-main")
    expect(main).to_have_attribute("data-status", "playing")
    rng = random.Random(5)
    deadline = time.monotonic() + GAME_SECONDS
    while not is_over(page):
        assert time.monotonic() < deadline, "the game did not end in time"
        if page.locator("#reveal").is_visible():
            press_until_focused(page, "#reveal-dismiss")
            page.keyboard.press("Enter")
            expect(page.locator("#reveal")).to_be_hidden()
            continue
        if page.locator("#status").get_attribute("data-my-turn") != "true":
            page.wait_for_timeout(100)
            continue
        turn = main.get_attribute("data-turn") or ""
        bid = page.locator("#bid-send")
        call = page.locator("#action-call")
        if call.is_visible() and (not bid.is_visible() or rng.random() < 0.5):
            press_until_focused(page, "#action-call")
            page.keyboard.press("Enter")
        else:
            # A face with a legal bid, then one more die if the stepper allows, then Bid.
            press_until_focused(page, '#bid-faces .face-pick[aria-disabled="false"]')
            page.keyboard.press("Enter")
            expect(page.locator("#bid-send")).to_be_visible()
            if page.get_attribute("#bid-more", "aria-disabled") == "false":
                press_until_focused(page, "#bid-more")
                page.keyboard.press("Enter")
            press_until_focused(page, "#bid-send")
            page.keyboard.press(" ")  # Space presses a button as Enter does
        expect(main).not_to_have_attribute("data-turn", turn)
    expect(page.locator("#game-over")).to_be_visible()
    page.context.close()
