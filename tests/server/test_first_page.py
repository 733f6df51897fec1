"""The first page as a newcomer meets it: a game against bots in one tap, the games being
played to watch, the tables of this browser with their state and date, and all of it within
two screens of a phone."""

from __future__ import annotations

import re
import time

import httpx
from playwright.sync_api import Page, expect

from .conftest import LiveServer, api, get_table, host_post, new_table, words
from .test_browser import screenshot_dir
from .test_browser_lobby import PHONE, Pages, pages, pytestmark, server

__all__ = ["pages", "pytestmark", "server"]  # the fixtures and the browser check, reused

#: From the tap to a running game against bots: bench/one_tap.py measures the time (under a
#: second on this machine when idle); this bound, far above it, tells a game that starts at
#: once from one that waits for a countdown (a minute) even when the suite loads every core.
ONE_TAP_SECONDS = 10.0
#: How soon a game started elsewhere shows in the list of games being played.
LIVE_SECONDS = 2.0


def new_player(server: LiveServer) -> str:
    with api(server) as http:
        key: str = http.post("/api/players", json={}).json()["key"]
    return key


def play_bots(
    server: LiveServer, body: dict[str, object], key: str | None = None
) -> httpx.Response:
    """POST /api/lobby/bots as Ana (as the player of ``key``, if given)."""
    headers = {} if key is None else {"authorization": f"Player {key}"}
    with api(server) as http:
        return http.post("/api/lobby/bots", json={"name": "Ana", **body}, headers=headers)


def start_public_game(server: LiveServer, name: str) -> str:
    """A public table of a person and two bots, started: a game anyone may watch."""
    table = new_table(server, name=name, public=True, seats=3, bots=["easy", "medium"])
    host_post(server, table["code"], "start", table["token"])
    return str(table["code"])


# ---------------------------------------------------------------- the server


def test_a_game_against_bots_starts_at_once(server: LiveServer) -> None:
    answer = play_bots(server, {"preset": "perudo", "level": "hard"})
    assert answer.status_code == 201, answer.text
    seated = answer.json()
    table = get_table(server, seated["code"])
    assert table["status"] == "playing"
    assert table["public"] is False and table["rated"] is False  # nobody else's business
    assert [(s["kind"], s["level"]) for s in table["seats"]] == [
        ("human", None),
        ("bot", "hard"),
        ("bot", "hard"),
        ("bot", "hard"),
    ]
    assert table["turn_seconds"] == 0, "an unrated game waits for its player"
    assert table["seats"][0]["name"] == "Ana"


def test_a_rated_game_against_bots_is_a_players_and_listed_to_watch(server: LiveServer) -> None:
    refused = play_bots(server, {"level": "medium", "rated": True})
    assert refused.status_code == 401
    assert refused.json()["code"] == "rated_needs_player"
    key = new_player(server)
    free_win = play_bots(server, {"level": "random", "rated": True}, key)
    assert free_win.status_code == 400, "a rated game against random bots would be a free win"
    assert free_win.json()["code"] == "rated_bot_level"
    answer = play_bots(server, {"level": "medium", "rated": True}, key)
    assert answer.status_code == 201, answer.text
    code = answer.json()["code"]
    table = get_table(server, code)
    assert table["rated"] is True and table["public"] is True and table["turn_seconds"] > 0
    with api(server) as http:
        listing = http.get("/api/lobby").json()
    assert [g["code"] for g in listing["games"]] == [code]
    assert code not in [t["code"] for t in listing["tables"]]
    game = listing["games"][0]
    assert game["status"] == "playing" and game["rated"] is True
    assert [p["dice"] for p in game["players"]] == [5, 5, 5, 5]
    assert [p["bot"] for p in game["players"]].count("medium") == 3


def test_bad_requests_for_a_game_against_bots_change_nothing(server: LiveServer) -> None:
    bodies: tuple[tuple[dict[str, object], str | None], ...] = (
        ({"level": "grandmaster"}, "unknown_level"),
        ({"preset": "chess"}, "unknown_preset"),
        ({"rated": "yes"}, None),
        ({"name": ""}, None),
    )
    for body, code in bodies:
        answer = play_bots(server, body)
        assert 400 <= answer.status_code < 500, (body, answer.text)
        assert answer.json()["detail"], "the answer says what was wrong"
        if code is not None:
            assert answer.json()["code"] == code, answer.text
    with api(server) as http:
        listing = http.get("/api/lobby").json()
    assert listing["tables"] == [] and listing["games"] == []


# ---------------------------------------------------------------- the browser


def page_height(page: Page) -> int:
    height: int = page.evaluate("document.documentElement.scrollHeight")
    return height


def test_one_tap_gives_a_running_game_against_bots(server: LiveServer, pages: Pages) -> None:
    page = pages.open(server.url + "/", lang="es", viewport=PHONE, name="Ana")
    expect(page.locator("#bots-level option").first).to_be_attached()
    expect(page.locator("#play-name")).to_have_value("Ana")
    page.select_option("#bots-level", "easy")
    tapped = time.monotonic()
    page.click("#play-bots")
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    expect(page.locator("main#table-main")).to_have_attribute("data-status", "playing")
    expect(page.locator("#my-dice .die").first).to_be_visible()
    took = time.monotonic() - tapped
    assert took < ONE_TAP_SECONDS, f"{took:.2f} s from the tap to the game"
    page.screenshot(path=str(screenshot_dir() / "play-bots-game-phone-es.png"))


def test_the_first_page_fits_two_phone_screens(server: LiveServer, pages: Pages) -> None:
    # The most the page shows at once: two games being played (more are one link away), a
    # table of this browser.
    for name in ("Lía", "Bo", "Cy"):
        start_public_game(server, name)
    for lang in ("en", "es", "it"):
        page = pages.open(server.url + "/", lang=lang, viewport=PHONE)
        expect(page.locator("#live-list .live-card")).to_have_count(2)
        expect(page.locator("#live-more")).to_have_text(
            words(lang)["live.more_other"].replace("{count}", "3")
        )
        expect(page.locator("#create-section")).to_be_hidden()
        # Every table here is being played: none is open (a feed that has not yet moved a
        # started table out of the open list would measure a moment, not the page).
        expect(page.locator("#lobby-empty")).to_be_visible()
        expect(page.locator("#lobby-list li")).to_have_count(0)
        height = page_height(page)
        assert height <= 2 * PHONE["height"], f"{lang}: {height} px"
        page.screenshot(path=str(screenshot_dir() / f"first-page-phone-{lang}.png"), full_page=True)
    # The house rules are one tap away, folded in the create form.
    page.click("#create-open")
    expect(page.locator("#create-section")).to_be_visible()
    expect(page.locator("#house-rules")).not_to_have_attribute("open", "")
    expect(page.locator("#rules-summary")).to_be_hidden()


def test_a_game_started_in_another_browser_is_listed_within_two_seconds(
    server: LiveServer, pages: Pages
) -> None:
    watcher = pages.open(server.url + "/", lang="it", viewport=PHONE)
    expect(watcher.locator("#lobby-live")).to_have_attribute("data-state", "open")
    expect(watcher.locator("#live-empty")).to_have_text(words("it")["live.empty"])

    player = pages.open(server.url + "/", lang="en", viewport=PHONE, name="Ana")
    expect(player.locator("#you-button-name")).not_to_be_empty()  # the browser's player is made
    expect(player.locator("#bots-level option").first).to_be_attached()  # the page is ready
    player.check("#bots-rated")
    player.click("#play-bots")
    player.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    started = time.monotonic()
    code = player.url.rsplit("/", 1)[1]
    card = watcher.locator(f'#live-list li.live-card[data-code="{code}"]')
    expect(card).to_be_visible(timeout=LIVE_SECONDS * 1000)
    assert time.monotonic() - started < LIVE_SECONDS
    expect(card.locator(".live-name").first).to_have_text("Ana")
    expect(card.locator(".live-dice").first).to_have_attribute("data-dice", "5")
    watcher.screenshot(path=str(screenshot_dir() / "live-list-phone-it.png"), full_page=True)

    # Watch opens the game as a spectator: no seat asked for, no dice shown.
    card.locator("a.live-watch").click()
    watcher.wait_for_url(f"**/t/{code}?watch")
    expect(watcher.locator("#spectator-banner")).to_be_visible()
    expect(watcher.locator("#join-panel")).to_be_hidden()
    watcher.screenshot(path=str(screenshot_dir() / "live-watching-phone-it.png"))


def test_your_tables_say_their_state_and_date(server: LiveServer, pages: Pages) -> None:
    page = pages.open(server.url + "/", lang="es", viewport=PHONE, name="Ana")
    expect(page.locator("#bots-level option").first).to_be_attached()  # the page is ready
    page.click("#play-bots")
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = page.url.rsplit("/", 1)[1]
    page.goto(server.url + "/")
    said = words("es")
    item = page.locator(f'#my-tables-list li.my-table[data-code="{code}"]')
    expect(item).to_have_attribute("data-status", "playing")
    status = said["mytables.playing"].replace("{preset}", said["preset_name.dudo"])
    expect(item.locator(".my-table-status")).to_have_text(status)
    expect(item.locator(".my-table-date")).to_contain_text(said["mytables.today"].split(" ")[0])
    # A table the server no longer keeps says so, and can be forgotten.
    page.evaluate(
        "localStorage.setItem('dudo.seat.ZZZZZZ', 'x');"
        "localStorage.setItem('dudo.seated.ZZZZZZ', '2026-01-02T10:00:00Z')"
    )
    page.reload()
    gone = page.locator('#my-tables-list li.my-table[data-code="ZZZZZZ"]')
    expect(gone).to_have_attribute("data-status", "gone")
    # A gone table is not looked up again: unknown codes count against the address's limit.
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.reload()
    expect(gone).to_have_attribute("data-status", "gone")
    expect(item).to_have_attribute("data-status", "playing")
    assert not [url for url in asked if url.endswith("/api/tables/ZZZZZZ")], asked
    page.locator("#my-tables").screenshot(path=str(screenshot_dir() / "your-tables-phone-es.png"))
    gone.locator(".my-table-forget").click()
    expect(gone).to_have_count(0)
    expect(item).to_be_visible()
