"""What a person sees when the server cannot save, in a real browser (Debian's Chromium driven
by Playwright): the table says it is saving and retrying, in the page's language, and the game
goes on by itself once the database answers; a table that could not be resumed says so."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import (
    CHROMIUM,
    InProcessServer,
    LiveServer,
    Player,
    ServerFactory,
    api,
    get_table,
    host_post,
    join,
    new_table,
    play_turns,
    words,
)
from .test_browser import PHONE, screenshot_dir
from .test_resilience import FaultyStore, faulty

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)


def seated_page(browser: Browser, server: LiveServer, code: str, token: str, lang: str) -> Page:
    """The table page of the seat ``token`` holds, in ``lang``, at phone size."""
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    context.add_init_script(
        f"localStorage.setItem('dudo.lang', {json.dumps(lang)});"
        f"localStorage.setItem('dudo.seat.{code}', {json.dumps(token)});"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.url}/t/{code}")
    return page


@pytest.fixture
def faulty_server(in_process: Callable[..., InProcessServer]) -> Iterator[InProcessServer]:
    yield in_process(store_factory=FaultyStore)


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_page_says_it_is_saving_and_the_game_goes_on(
    browser: Browser, faulty_server: InProcessServer, lang: str
) -> None:
    server = faulty_server
    store = faulty(server)
    # Whoever moves first, the bot or the timer for Ana, has a move the store will refuse.
    created = new_table(server, seats=2, bots=["easy"], bot_seconds=1.0, turn_seconds=1)
    code, token = created["code"], created["token"]
    store.fail("add_action")  # no move can be saved: the page must say why nothing moves
    host_post(server, code, "start", token)
    page = seated_page(browser, server, code, token, lang)
    banner = page.locator("#saving-banner")
    expect(banner).to_be_visible(timeout=10_000)
    expect(banner).to_have_text(words(lang)["game.saving_retrying"])
    page.screenshot(path=str(screenshot_dir() / f"saving-retrying-phone-{lang}.png"))
    turn = page.locator("main#table-main").get_attribute("data-turn")
    store.heal()
    expect(banner).to_be_hidden(timeout=15_000)
    main = page.locator("main#table-main")
    expect(main).to_have_attribute("data-status", "playing")
    if turn:
        expect(main).not_to_have_attribute("data-turn", turn, timeout=15_000)
    page.context.close()


def test_a_table_that_could_not_be_resumed_says_so(
    browser: Browser, live_server: ServerFactory
) -> None:
    server = live_server()
    created = new_table(server, seats=2, bots=["easy"], bot_seconds=5)
    code, token = created["code"], created["token"]
    host_post(server, code, "start", token)
    server.stop()
    with sqlite3.connect(server.sqlite_path) as db:  # rules that now refuse its two players
        db.execute("UPDATE tables SET options = ? WHERE code = ?", ('{"min_players": 3}', code))
    db.close()
    server.start()
    page = seated_page(browser, server, code, token, "it")
    expect(page.locator("main#table-main")).to_have_attribute("data-status", "broken")
    banner = page.locator("#broken-banner")
    expect(banner).to_have_text(words("it")["game.broken"])
    expect(page.locator("#start-button")).to_be_hidden()
    expect(page.locator("button.remove-seat")).to_have_count(0)
    page.screenshot(path=str(screenshot_dir() / "broken-table-phone-it.png"))
    page.context.close()


def test_a_game_a_bot_played_for_someone_is_marked_so(
    browser: Browser, shared_server: LiveServer
) -> None:
    server = shared_server
    created = new_table(server, seats=3, bots=["easy"], grace_seconds=0)
    code, token = created["code"], created["token"]
    join(server, code, "Carla")  # and never opens the table: a bot plays for her at once
    ana = Player(server, code, token, name="Ana")
    host_post(server, code, "start", token)
    assert play_turns([ana], random.Random(12))["winner"] is not None
    ana.close()
    game_id = get_table(server, code)["game"]
    with api(server) as http:
        listed = http.get("/api/games", params={"limit": 200}).json()["games"]
        record = http.get(f"/api/games/{game_id}/record").json()
    entry = next(g for g in listed if g["id"] == game_id)
    assert entry["stood_in"] == ["Carla"]
    carla = [p["name"] for p in record["players"]].index("Carla")
    assert record["meta"]["stood_in"] == [carla]
    page = seated_page(browser, server, code, token, "es")
    page.goto(f"{server.url}/games")
    link = page.locator(f'a.game-link[data-game="{game_id}"]')
    expect(link).to_have_attribute("data-stood-in", "true")
    expect(link).to_contain_text(words("es")["games.stood_in"].replace("{names}", "Carla"))
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator("#replay-info")).to_contain_text(
        words("es")["games.stood_in"].replace("{names}", "Carla")
    )
    page.context.close()
