"""The replay page's controls in Chromium, on a finished game of a few rounds: the autoplay
steps on by itself and stops at the last step (and space plays and pauses), the jumps land on a
call (the dice shown) and on a round's start, the position says the round and the step, and
every button shows a word, not an arrow alone. On a phone in Spanish and a desktop in English;
screenshots ``replay-controls-phone-es.png`` and ``replay-controls-desktop-en.png`` go to
``artifacts/screenshots``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import CHROMIUM, LiveServer, Match, play_turns, words
from .test_browser import screenshot_dir

#: Two dice each and no spot-on: a game of three or four rounds.
ROUNDS = {"dice_per_player": 2, "pass_hands": "none", "spot_on": False}
BUTTONS = [
    "first",
    "prev",
    "next",
    "last",
    "prev-call",
    "next-call",
    "prev-round",
    "next-round",
    "play",
]

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)


@pytest.fixture(scope="module")
def game_id(shared_server: LiveServer) -> int:
    """A game of Ana, a bot and Bo played to its end."""
    match = Match(shared_server, start=False, options=ROUNDS)
    try:
        found: int = match.start()["game"]
        play_turns(match.players, random.Random(11))
    finally:
        match.close()
    return found


def open_replay(
    browser: Browser, server: LiveServer, game: int, lang: str, viewport: ViewportSize
) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport=viewport)
    context.add_init_script(f"localStorage.setItem('dudo.lang', '{lang}');")
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.goto(f"{server.url}/games/{game}")
    expect(page.locator("#replay-main")).to_have_attribute("data-state", "ready")
    return page, errors


def marks(page: Page, name: str) -> list[int]:
    text = page.locator("#replay-main").get_attribute(f"data-{name}") or ""
    return [int(m) for m in text.split(",") if m]


def step_of(page: Page) -> int:
    return int(page.locator("#replay-main").get_attribute("data-step") or "-1")


def check_words(page: Page, lang: str) -> None:
    """Every control shows a word of the page's language (not only an arrow)."""
    text = words(lang)
    for name in BUTTONS:
        button = page.locator(f"#replay-{name}")
        expect(button).to_be_visible()
        shown = button.inner_text().strip()
        assert any(ch.isalpha() for ch in shown), (name, shown)
        label = button.get_attribute("aria-label") or ""
        # The visible word is in the button's name (what a voice user says to press it).
        word = "".join(ch for ch in shown if ch.isalpha() or ch == " ").strip()
        assert word.lower() in label.lower(), (name, shown, label)
    expect(page.locator("#replay-play-word")).to_have_text(text["replay.play"])


def test_autoplay_plays_to_the_end_and_stops(
    browser: Browser, shared_server: LiveServer, game_id: int
) -> None:
    page, errors = open_replay(browser, shared_server, game_id, "en", {"width": 390, "height": 844})
    main = page.locator("#replay-main")
    last = int(main.get_attribute("data-steps") or "0")
    assert last > 4
    # The slowest speed: each step stays 2 s, long enough to be seen between two polls even
    # on a busy machine.
    page.select_option("#replay-speed", "0.5")
    page.goto(f"{shared_server.url}/games/{game_id}#step={last - 3}")
    page.reload()
    expect(main).to_have_attribute("data-step", str(last - 3))
    expect(page.locator("#replay-speed")).to_have_value("0.5")  # kept from the last visit
    page.click("#replay-play")
    expect(main).to_have_attribute("data-playing", "true")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#replay-play-word")).to_have_text(words("en")["replay.pause"])
    # It steps by itself, then stops at the last step.
    expect(main).to_have_attribute("data-step", str(last - 2))
    expect(main).to_have_attribute("data-step", str(last))
    expect(main).to_have_attribute("data-playing", "false")
    expect(page.locator("#replay-play-word")).to_have_text(words("en")["replay.play"])
    expect(page.locator("#replay-next")).to_be_disabled()
    # Space: play again (from the start, the end being reached), then pause.
    page.locator("#replay-hands").click()
    page.keyboard.press(" ")
    expect(main).to_have_attribute("data-playing", "true")
    expect(main).not_to_have_attribute("data-step", str(last))
    page.keyboard.press(" ")
    expect(main).to_have_attribute("data-playing", "false")
    paused = step_of(page)
    assert paused < last
    expect(main).to_have_attribute("data-step", str(paused))
    page.context.close()
    assert not errors, errors


def test_jumps_land_on_calls_and_round_starts(
    browser: Browser, shared_server: LiveServer, game_id: int
) -> None:
    page, errors = open_replay(browser, shared_server, game_id, "es", {"width": 390, "height": 844})
    text = words("es")
    calls, rounds = marks(page, "calls"), marks(page, "rounds")
    assert len(calls) >= 2 and rounds[0] == 0 and len(rounds) == len(calls)  # the last call ends it
    events = page.locator("#replay-events")
    expect(page.locator("#replay-prev-call")).to_be_disabled()
    expect(page.locator("#replay-prev-round")).to_be_disabled()

    page.click("#replay-next-call")
    expect(page.locator("#replay-main")).to_have_attribute("data-step", str(calls[0]))
    expect(events.locator('li[data-type="Revealed"]')).to_have_count(1)
    expect(page.locator("#replay-action")).to_have_attribute("data-action", "call")
    page.click("#replay-next-call")
    expect(page.locator("#replay-main")).to_have_attribute("data-step", str(calls[1]))
    expect(events.locator('li[data-type="Revealed"]')).to_have_count(1)
    page.click("#replay-prev-call")
    expect(page.locator("#replay-main")).to_have_attribute("data-step", str(calls[0]))

    page.click("#replay-first")
    page.click("#replay-next")
    page.click("#replay-next-round")
    expect(page.locator("#replay-main")).to_have_attribute("data-step", str(rounds[1]))
    expect(events.locator('li[data-type="RoundStarted"]')).to_have_count(1)
    position = text["replay.position"].format(
        round=2, k=rounds[1], n=page.locator("#replay-main").get_attribute("data-steps")
    )
    expect(page.locator("#replay-step")).to_have_text(position)
    page.click("#replay-prev-round")
    expect(page.locator("#replay-main")).to_have_attribute("data-step", "0")
    expect(page.locator("#replay-step")).to_have_attribute("data-round", "1")
    page.click("#replay-last")
    expect(page.locator("#replay-next-call")).to_be_disabled()
    expect(page.locator("#replay-next-round")).to_be_disabled()

    page.click("#replay-first")
    page.click("#replay-next-call")
    check_words(page, "es")
    page.screenshot(path=str(screenshot_dir() / "replay-controls-phone-es.png"))
    page.context.close()
    assert not errors, errors


def test_the_controls_on_a_desktop(
    browser: Browser, shared_server: LiveServer, game_id: int
) -> None:
    page, errors = open_replay(
        browser, shared_server, game_id, "en", {"width": 1366, "height": 900}
    )
    check_words(page, "en")
    calls = marks(page, "calls")
    page.click("#replay-next-round")
    expect(page.locator("#replay-main")).to_have_attribute("data-step", str(calls[0]))
    # All eight jumps sit in one row on a wide screen.
    tops = {
        round(page.locator(f"#replay-{name}").bounding_box()["y"])  # type: ignore[index]
        for name in BUTTONS[:8]
    }
    assert len(tops) == 1, tops
    page.screenshot(path=str(screenshot_dir() / "replay-controls-desktop-en.png"))
    page.context.close()
    assert not errors, errors
