"""The rematch and the people at the table, in a real browser: two people in two browser
contexts (Spanish and Italian, phone-sized) finish a game through their pages, both say they
are in, the host starts the rematch once the button allows it, and both see the running score;
every seat shows its avatar in its own colour. A host who leaves the lobby hands the controls to
the other person's page without a reload. Screenshots of the lobby and the game-over panel go
to ``artifacts/screenshots`` (or ``$DUDO_SCREENSHOTS``) for a person to look at."""

from __future__ import annotations

import contextlib
import json
import random
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import CHROMIUM, LiveServer, get_table, join, new_table, words
from .test_browser import screenshot_dir, take_turn

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
#: One die each and no spot-on: a game of a few rounds.
QUICK = {"dice_per_player": 1, "pass_hands": "none", "spot_on": False}
GAME_SECONDS = 180.0


def seat_page(
    browser: Browser, server: LiveServer, code: str, token: str, lang: str, errors: list[str]
) -> Page:
    """A browser context in ``lang`` holding the seat of ``token``, on the table's page."""
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    context.add_init_script(
        f"localStorage.setItem('dudo.lang', {json.dumps(lang)});"
        f"localStorage.setItem('dudo.seat.{code}', {json.dumps(token)});"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.on(
        "console",
        lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None,
    )
    page.goto(f"{server.url}/t/{code}")
    return page


def seat_colours(page: Page, where: str) -> list[str]:
    """The painted colour of each avatar's disc under ``where``, once every disc is painted
    (a list redrawn by a table frame has no computed style for a moment)."""
    paint = (
        f"() => [...document.querySelectorAll({json.dumps(where + ' svg.avatar')})]"
        ".map(s => getComputedStyle(s.querySelector('circle:not(clipPath *)')).fill)"
    )
    page.wait_for_function(f"({paint})().length > 0 && ({paint})().every(Boolean)")
    colours: list[str] = page.evaluate(paint)
    return colours


def finish(pages: list[Page]) -> None:
    """Play through both pages until each shows the game over (and no reveal over it)."""
    rng = random.Random(5)
    deadline = time.monotonic() + GAME_SECONDS
    while not all(p.locator("#game-over").is_visible() for p in pages):
        assert time.monotonic() < deadline, "the game did not end in time"
        if not any(take_turn(p, rng) for p in pages):
            pages[0].wait_for_timeout(100)
    for page in pages:
        with contextlib.suppress(Exception):
            if page.locator("#reveal").is_visible():
                page.click("#reveal-dismiss", timeout=3000)
        expect(page.locator("#reveal")).to_be_hidden()


def test_two_people_finish_say_they_are_in_and_the_host_starts_the_rematch(
    browser: Browser, shared_server: LiveServer
) -> None:
    errors: list[str] = []
    shots = screenshot_dir()
    created = new_table(shared_server, seats=3, bots=["easy"], options=QUICK, grace_seconds=None)
    code = created["code"]
    bo_token = join(shared_server, code, "Bo")["token"]
    ana = seat_page(browser, shared_server, code, created["token"], "es", errors)
    bo = seat_page(browser, shared_server, code, bo_token, "it", errors)
    es, it = words("es"), words("it")
    for page in (ana, bo):
        expect(page.locator("main#table-main")).to_have_attribute("data-status", "lobby")
        expect(page.locator("#seat-list li svg.avatar")).to_have_count(3)
    # Every seat its own colour, the same on both pages; the avatar is decorative.
    colours = seat_colours(ana, "#seat-list")
    assert len(set(colours)) == 3, colours
    assert seat_colours(bo, "#seat-list") == colours
    assert ana.locator("#seat-list svg.avatar").first.get_attribute("aria-hidden") == "true"
    expect(ana.locator('#seat-list li[data-seat="0"] svg.avatar')).to_have_attribute(
        "data-initials", "A"
    )
    ana.screenshot(path=str(shots / "people-lobby-phone-es.png"), full_page=True)
    bo.screenshot(path=str(shots / "people-lobby-phone-it.png"), full_page=True)

    ana.click("#start-button")
    for page in (ana, bo):
        expect(page.locator("main#table-main")).to_have_attribute("data-status", "playing")
        expect(page.locator("#players li svg.avatar")).to_have_count(3)
    finish([ana, bo])

    # Over: nobody is in yet, so the host's button waits and says for whom.
    for page in (ana, bo):
        expect(page.locator("#rematch-panel")).to_be_visible()
        expect(page.locator("#rematch-seats li svg.avatar")).to_have_count(3)
        expect(page.locator("#ready-button")).to_be_visible()
    start = ana.locator("#rematch-button")
    expect(start).to_be_visible()
    expect(start).to_be_disabled()
    expect(ana.locator("#rematch-reason")).to_contain_text("Ana, Bo")
    expect(bo.locator("#rematch-button")).to_be_hidden()
    expect(bo.locator("#rematch-wait")).to_be_visible()
    table = get_table(shared_server, code)
    for seat in table["seats"]:
        row = ana.locator(f'#rematch-seats li[data-seat="{seat["seat"]}"] .rs-score')
        expect(row).to_have_attribute("data-wins", str(seat["wins"]))
        expect(row).to_have_attribute("data-played", "1")
    assert sum(s["wins"] for s in table["seats"]) == 1
    # Two of three are out: neither of them is shown an empty "Your dice" card, and the feed
    # says that no die is left in words ("no le queda ninguno", "non gliene resta nessuno").
    wins = {seat["name"]: seat["wins"] for seat in table["seats"]}
    for page, said, name in ((ana, es, "Ana"), (bo, it, "Bo")):
        card = expect(page.locator("#my-dice-card"))
        if wins[name] == 1:
            card.to_be_visible()
        else:
            card.to_be_hidden()
        expect(page.locator("#col-feed")).to_contain_text(said["ev.left_none"])
    ana.screenshot(path=str(shots / "people-over-phone-es.png"), full_page=True)

    ana.click("#ready-button")
    expect(bo.locator('#rematch-seats li[data-seat="0"]')).to_have_attribute("data-ready", "true")
    expect(bo.locator('#rematch-seats li[data-seat="0"] .rs-state')).to_have_text(
        it["people.ready"]
    )
    expect(ana.locator("#ready-button")).to_have_text(es["people.not_ready_button"])
    expect(start).to_be_disabled()
    expect(ana.locator("#rematch-reason")).to_contain_text("Bo")
    expect(ana.locator("#rematch-reason")).not_to_contain_text("Ana")
    bo.click("#ready-button")
    expect(start).to_be_enabled()
    expect(ana.locator("#rematch-reason")).to_be_hidden()
    bo.screenshot(path=str(shots / "people-over-phone-it.png"), full_page=True)
    bo.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
    bo.screenshot(path=str(shots / "people-over-desktop-it.png"), full_page=True)

    start.click()
    line = " · ".join(f"{s['name']} {s['wins']}" for s in table["seats"])
    for page, lang in ((ana, es), (bo, it)):
        expect(page.locator("#game-over")).to_be_hidden()
        expect(page.locator("main#table-main")).to_have_attribute("data-status", "playing")
        score = page.locator("#players-score")
        expect(score).to_be_visible()
        expect(score).to_have_text(lang["people.score_line"].replace("{scores}", line))
    assert get_table(shared_server, code)["game_number"] == 2
    ana.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
    ana.screenshot(path=str(shots / "people-rematch-desktop-es.png"), full_page=True)
    assert not errors, errors
    for page in (ana, bo):
        page.context.close()


def test_a_host_who_leaves_the_lobby_hands_the_controls_on_without_a_reload(
    browser: Browser, shared_server: LiveServer
) -> None:
    errors: list[str] = []
    created = new_table(shared_server, seats=3)
    code = created["code"]
    bo_token = join(shared_server, code, "Bo")["token"]
    ana = seat_page(browser, shared_server, code, created["token"], "it", errors)
    bo = seat_page(browser, shared_server, code, bo_token, "es", errors)
    expect(ana.locator("#host-controls")).to_be_visible()
    expect(bo.locator("#host-controls")).to_be_hidden()
    expect(bo.locator("#lobby-wait")).to_be_visible()
    ana.click("#leave-table")
    expect(bo.locator("#host-controls")).to_be_visible()
    expect(bo.locator('#seat-list li[data-seat="1"] .badge.gold')).to_be_visible()
    expect(bo.locator("#toast")).to_have_text(words("es")["people.now_host"])
    # Ana watches on, with the join form to sit down again; her page has no host controls.
    expect(ana.locator("#host-controls")).to_be_hidden()
    expect(ana.locator("#join-panel")).to_be_visible()
    expect(ana.locator('#seat-list li[data-seat="0"]')).to_have_attribute("data-kind", "open")
    bo.click("#add-bot-button")
    expect(bo.locator('#seat-list li[data-kind="bot"]')).to_have_count(1)
    assert get_table(shared_server, code)["host"] == 1
    assert not errors, errors
    for page in (ana, bo):
        page.context.close()
