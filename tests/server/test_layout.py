"""No page scrolls sideways on a phone: every page at 360 and 390 px wide, in each language,
with the longest content a table has (eight seats, a long host name, every kind of bot), in
Debian's Chromium driven by Playwright."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .conftest import CHROMIUM, LiveServer, Player, get_table, host_post, new_table, play_turns

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

#: Elements whose right edge passes the window's, as "tag#id.class right".
OVERFLOWING = """() => [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
    .slice(0, 5)
    .map(e => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_no_page_scrolls_sideways_on_a_phone(
    browser: Browser, shared_server: LiveServer, width: int, lang: str
) -> None:
    lobby = new_table(
        shared_server,
        name="Anastasia Maximiliana",
        seats=8,
        bots=["easy", "medium", "hard", "random", "easy", "easy"],
    )
    played = new_table(shared_server, seats=2, bots=["easy"])
    host_post(shared_server, played["code"], "start", played["token"])
    ana = Player(shared_server, played["code"], played["token"], name="Ana")
    play_turns([ana], random.Random(1))
    ana.close()
    game_id = get_table(shared_server, played["code"])["game"]
    pages = [
        "/",
        f"/t/{lobby['code']}",
        f"/t/{played['code']}",
        f"/t/{lobby['code']}/screen",
        f"/t/{played['code']}/screen",
        "/cup",
        "/games",
        f"/games/{game_id}",
        "/tutorial",
        "/tutorial/dudo",
    ]
    context = browser.new_context(viewport={"width": width, "height": 740})
    context.add_init_script(
        f"localStorage.setItem('dudo.lang', {json.dumps(lang)});"
        f"localStorage.setItem('dudo.seat.{lobby['code']}', {json.dumps(lobby['token'])});"
        f"localStorage.setItem('dudo.seat.{played['code']}', {json.dumps(played['token'])});"
    )
    page = context.new_page()
    for path in pages:
        page.goto(shared_server.url + path)
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(300)  # the page renders what its requests brought
        width_used = page.evaluate("document.documentElement.scrollWidth")
        assert width_used <= width, f"{path} at {width} px ({lang}): {page.evaluate(OVERFLOWING)}"
    context.close()
