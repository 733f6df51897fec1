"""Provably fair dice in a real browser: a seated person's page sends its own random client
seed once it sees the commitment (and the lobby card shows the commitment), the game starts
with that seed locked, and the replay page of the finished game recomputes every die with Web
Crypto and says it is verified, in Spanish and Italian, at phone and desktop sizes; a record
with one die altered on its way to the page is shown as not verified, naming the outcome.
Screenshots go to ``artifacts/screenshots`` (or ``$DUDO_SCREENSHOTS``)."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from .conftest import (
    CHROMIUM,
    LiveServer,
    Player,
    get_table,
    host_post,
    new_table,
    play_turns,
    words,
)
from .test_browser import screenshot_dir

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
QUICK = {"dice_per_player": 1, "pass_hands": "none", "spot_on": False}


def page_in(browser: Browser, lang: str, viewport: dict[str, int], errors: list[str]) -> Page:
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    context.add_init_script(f"localStorage.setItem('dudo.lang', {json.dumps(lang)});")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    return page


def finished_game(browser: Browser, server: LiveServer, errors: list[str]) -> int:
    """A game whose host's seed came from a real page: the game's id."""
    created = new_table(server, seats=3, bots=["easy", "medium"], options=QUICK)
    code, token = created["code"], created["token"]
    page = page_in(browser, "es", PHONE, errors)
    page.context.add_init_script(f"localStorage.setItem('dudo.seat.{code}', {json.dumps(token)});")
    page.goto(f"{server.url}/t/{code}")
    committed = get_table(server, code)["fair"]["next"]["commitment"]
    deadline = time.monotonic() + 15
    while get_table(server, code)["fair"]["next"]["seeded"] != [0]:
        assert time.monotonic() < deadline, "the page sent no client seed"
        time.sleep(0.1)
    line = page.locator("#fair-line")
    expect(line).to_have_attribute("data-state", "next")
    expect(line).to_contain_text(committed[:12])
    page.screenshot(path=str(screenshot_dir() / "fair-lobby-es-phone.png"), full_page=True)
    page.context.close()
    started = host_post(server, code, "start", token)
    seeds = started["fair"]["game"]["seeds"]
    assert re.fullmatch(r"[0-9a-f]{32}", seeds[0]) and seeds[1:] == ["", ""], seeds
    with Player(server, code, token, name="Ana") as ana:
        ana.until(lambda f: f["type"] == "update", "the game")
        play_turns([ana], random.Random(4))
    game_id: int = started["game"]
    return game_id


def test_the_replay_page_verifies_every_die_and_shows_a_tampered_one(
    browser: Browser, shared_server: LiveServer
) -> None:
    errors: list[str] = []
    game_id = finished_game(browser, shared_server, errors)
    for lang, size, viewport in (("es", "phone", PHONE), ("it", "desktop", DESKTOP)):
        page = page_in(browser, lang, viewport, errors)
        page.goto(f"{shared_server.url}/games/{game_id}")
        card = page.locator("#replay-fair")
        expect(card).to_have_attribute("data-state", "verified")
        expect(page.locator("#fair-result")).to_contain_text(
            words(lang)["fair.verified_other"].split("{count}")[0].strip()
        )
        expect(page.locator("#fair-secret")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
        expect(page.locator("#fair-seeds li")).to_have_count(3)
        card.scroll_into_view_if_needed()
        page.screenshot(
            path=str(screenshot_dir() / f"fair-replay-{lang}-{size}.png"), full_page=True
        )
        page.context.close()

    # One die altered on its way to the page: not verified, and which outcome differs.
    altered: dict[str, int] = {}

    def tamper(route: Route) -> None:
        response = route.fetch()
        data = response.json()
        chance = data["record"]["chance"]
        index = next(i for i, c in enumerate(chance) if "roll" in c)
        chance[index]["roll"][0] = chance[index]["roll"][0] % 6 + 1
        altered["index"] = index
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    page = page_in(browser, "it", PHONE, errors)
    page.route(re.compile(r".*/api/games/\d+/replay$"), tamper)
    page.goto(f"{shared_server.url}/games/{game_id}")
    expect(page.locator("#replay-fair")).to_have_attribute("data-state", "differs")
    expect(page.locator("#fair-result")).to_contain_text("Non verificata: 1 differenza")
    item = page.locator(f"#fair-differences li[data-index='{altered['index']}']")
    expect(item).to_contain_text(f"Esito casuale {altered['index'] + 1}")
    page.locator("#replay-fair").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir() / "fair-replay-tampered-it-phone.png"))
    page.context.close()
    assert not errors, errors
