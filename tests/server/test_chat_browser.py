"""The chat panel in a real browser (Debian's Chromium driven by Playwright) against a real
server: what people type (names and messages holding HTML or script) shows as typed and never
runs; quick phrases are worded in each reader's language (Spanish and Italian); mute (of a
person, by their who) is kept per table in the browser; the host's switch reaches every page; messages that come while the
panel is folded are counted; the replay shows the chat at its moments to those who played, and
says it is hidden to anyone else. Screenshots at phone and
desktop sizes, in Spanish and Italian, go to ``artifacts/screenshots`` (``chat-*.png``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Dialog, Page, expect

from .conftest import (
    CHROMIUM,
    LiveServer,
    Match,
    Player,
    api,
    host_post,
    join,
    new_table,
    play_turns,
    words,
)
from .test_browser import open_page, screenshot_dir

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
#: A name and messages that would run script if a page ever put them in as markup (and the
#: page's Content-Security-Policy would then log a violation, a console error).
EVIL_NAME = "<img src=x onerror=f()>"
EVIL_TEXTS = ("<img src=x onerror=alert(1)>", "<script>alert(2)</script>")


def seated_page(
    browser: Browser,
    server: LiveServer,
    code: str,
    token: str | None,
    lang: str,
    size: dict[str, int],
) -> tuple[Page, list[str], list[str]]:
    """A page of the table in ``lang`` holding ``token``'s seat; its errors and dialogs."""
    errors: list[str] = []
    dialogs: list[str] = []
    page = open_page(browser, size, errors)
    stored = {"dudo.lang": lang}
    if token is not None:
        stored[f"dudo.seat.{code}"] = token
    page.context.add_init_script(
        f"for (const [k, v] of Object.entries({json.dumps(stored)})) localStorage.setItem(k, v);"
    )
    catch_dialogs(page, dialogs)
    page.goto(f"{server.url}/t/{code}")
    expect(page.locator("#chat")).to_be_attached()
    return page, errors, dialogs


def catch_dialogs(page: Page, dialogs: list[str]) -> None:
    """Keep the message of every dialog the page opens (an alert() that ran), and close it."""

    def on_dialog(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)


def open_chat(page: Page) -> None:
    if page.locator("#chat").get_attribute("open") is None:
        page.click("#chat > summary")
    expect(page.locator("#chat-form")).to_be_visible()


def send_text(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")
    expect(page.locator("#chat-text")).to_have_value("")


def test_chat_in_the_browser(browser: Browser, shared_server: LiveServer) -> None:
    created = new_table(shared_server, seats=3, bots=["easy"])
    code = created["code"]
    bo = join(shared_server, code, EVIL_NAME)
    es, it = words("es"), words("it")
    ana_page, ana_errors, ana_dialogs = seated_page(
        browser, shared_server, code, created["token"], "es", DESKTOP
    )
    bo_page, bo_errors, bo_dialogs = seated_page(
        browser, shared_server, code, bo["token"], "it", PHONE
    )
    shots = screenshot_dir()

    # Folded on a phone: a message that comes meanwhile is counted on the summary.
    expect(bo_page.locator("#chat")).not_to_have_attribute("open", "")
    open_chat(ana_page)
    ana_page.click('#chat-phrases button[data-phrase="nice_bluff"]')
    expect(bo_page.locator("#chat-unread")).to_have_text("1")
    open_chat(bo_page)
    expect(bo_page.locator("#chat-unread")).to_be_hidden()

    # A quick phrase travels as a code: each page words it in its own language.
    ana_line = ana_page.locator('#chat-log li[data-phrase="nice_bluff"] .chat-text')
    bo_line = bo_page.locator('#chat-log li[data-phrase="nice_bluff"] .chat-text')
    expect(ana_line).to_have_text(es["chat.phrase.nice_bluff"])
    expect(bo_line).to_have_text(it["chat.phrase.nice_bluff"])
    assert es["chat.phrase.nice_bluff"] != it["chat.phrase.nice_bluff"]
    expect(bo_page.locator('#chat-phrases button[data-phrase="good_game"]')).to_have_text(
        it["chat.phrase.good_game"]
    )
    expect(bo_page.locator('#chat-emotes button[data-phrase="laugh"]')).to_have_attribute(
        "aria-label", it["chat.label.laugh"]
    )

    # What people type is shown as typed: a name and texts holding HTML or script never run.
    for text in EVIL_TEXTS:
        send_text(bo_page, text)
    bo_page.click('#chat-emotes button[data-phrase="laugh"]')
    for page in (ana_page, bo_page):
        lines = page.locator('#chat-log li[data-seat="2"]')
        expect(lines).to_have_count(3)
        for n, text in enumerate(EVIL_TEXTS):
            expect(lines.nth(n).locator(".chat-text")).to_have_text(text)
            expect(lines.nth(n).locator(".chat-name")).to_have_text(EVIL_NAME)
        expect(lines.nth(2).locator(".chat-text")).to_have_text("😂")
        assert page.locator("#chat-log img, #chat-log script").count() == 0
    ana_page.screenshot(path=str(shots / "chat-lobby-es-desktop.png"))
    bo_page.screenshot(path=str(shots / "chat-lobby-it-phone.png"), full_page=True)

    # A text over the limit is refused in the reader's language, and is kept in the field.
    bo_page.evaluate("document.getElementById('chat-text').removeAttribute('maxlength')")
    send_attempt = "x" * 201
    bo_page.fill("#chat-text", send_attempt)
    bo_page.click("#chat-send")
    expect(bo_page.locator("#chat-error")).to_have_text(
        it["error.chat_too_long_other"].replace("{count}", "200")
    )
    expect(bo_page.locator("#chat-text")).to_have_value(send_attempt)
    bo_page.fill("#chat-text", "")

    # Mute: Ana hides Bo's messages, and the choice stays after a reload (this table only).
    open_chat(ana_page)
    # The person is muted, not the seat: by the who their messages carry (test_chat_privacy
    # shows a player's who stays the same in another seat).
    bo_who = ana_page.locator('#chat-log li[data-seat="2"]').first.get_attribute("data-who")
    assert bo_who and len(bo_who) == 16
    bo_box = f'#chat-mute input[data-mute="who:{bo_who}"]'
    ana_page.click("#chat-mute > summary")
    ana_page.check(bo_box)
    expect(ana_page.locator('#chat-log li[data-seat="2"]')).to_have_count(0)
    ana_page.reload()
    open_chat(ana_page)
    expect(ana_page.locator('#chat-log li[data-phrase="nice_bluff"]')).to_have_count(1)
    send_text(bo_page, "ciao a tutti")
    expect(bo_page.locator('#chat-log li[data-seat="2"]')).to_have_count(4)
    ana_page.click('#chat-phrases button[data-phrase="good_luck"]')
    expect(ana_page.locator('#chat-log li[data-phrase="good_luck"]')).to_have_count(1)
    expect(ana_page.locator('#chat-log li[data-seat="2"]')).to_have_count(0)
    ana_page.click("#chat-mute > summary")
    ana_page.uncheck(bo_box)
    expect(ana_page.locator('#chat-log li[data-seat="2"]')).to_have_count(4)

    # The host turns the chat off: every page shows it and cannot send; then on again.
    expect(bo_page.locator("#chat-switch")).to_be_hidden()
    expect(ana_page.locator("#chat-switch")).to_have_text(es["chat.switch_off"])
    ana_page.click("#chat-switch")
    expect(bo_page.locator("#chat-off")).to_have_text(it["chat.off"])
    expect(bo_page.locator("#chat-send")).to_be_disabled()
    expect(bo_page.locator("#chat")).to_have_attribute("data-on", "false")
    bo_page.screenshot(path=str(shots / "chat-off-it-phone.png"), full_page=True)
    ana_page.click("#chat-switch")
    expect(bo_page.locator("#chat-send")).to_be_enabled()
    expect(bo_page.locator("#chat-off")).to_be_hidden()

    # In a game the panel sits beside the feed (desktop) and keeps its messages.
    host_post(shared_server, code, "start", created["token"])
    expect(ana_page.locator("#col-feed #chat")).to_be_visible()
    expect(ana_page.locator('#chat-log li[data-seat="2"]')).to_have_count(4)
    ana_page.screenshot(path=str(shots / "chat-game-es-desktop.png"))
    bo_page.locator("#chat").scroll_into_view_if_needed()
    bo_page.screenshot(path=str(shots / "chat-game-it-phone.png"), full_page=True)

    assert ana_dialogs == [] and bo_dialogs == [], "a message or a name ran script"
    assert ana_errors == [] and bo_errors == [], ana_errors + bo_errors
    ana_page.context.close()
    bo_page.context.close()


def keyed_match(server: LiveServer) -> tuple[Match, str]:
    """A started :class:`Match` whose host Ana sat down with a new player's key; the key."""
    with api(server) as http:
        key: str = http.post("/api/players", json={}).json()["key"]
        created = http.post(
            "/api/tables",
            json={
                "name": "Ana",
                "seats": 3,
                "bots": ["easy"],
                "bot_seconds": 0,
                "reveal_seconds": 0,
            },
            headers={"Authorization": f"Player {key}"},
        ).json()
    game = Match.__new__(Match)
    game.server, game.code, game.host_token = server, created["code"], created["token"]
    joined = join(server, game.code, "Bo")
    game.bo_token, game.bo_seat = joined["token"], joined["seat"]
    game.ana = Player(server, game.code, game.host_token, name="Ana")
    game.bo = Player(server, game.code, game.bo_token, name="Bo")
    game.start()
    return game, key


def test_a_spectator_reads_the_spectators_and_the_replay_keeps_the_chat(
    browser: Browser, shared_server: LiveServer
) -> None:
    game, ana_key = keyed_match(shared_server)
    watcher, errors, dialogs = seated_page(browser, shared_server, game.code, None, "es", PHONE)
    try:
        es, it = words("es"), words("it")
        if watcher.locator("#watch-button").is_visible():
            watcher.click("#watch-button")
        open_chat(watcher)
        expect(watcher.locator("#chat-note")).to_have_text(es["chat.spectator_note"])
        send_text(watcher, EVIL_TEXTS[1])
        line = watcher.locator('#chat-log li[data-channel="spectators"]')
        expect(line.locator(".chat-name")).to_have_text(es["chat.spectator"])
        expect(line.locator(".chat-text")).to_have_text(EVIL_TEXTS[1])
        game.ana.send({"type": "chat", "phrase": "good_luck"})
        expect(watcher.locator('#chat-log li[data-phrase="good_luck"]')).to_have_count(1)
        watcher.screenshot(path=str(shots_name("chat-spectator-es-phone.png")), full_page=True)
        play_turns(game.players, random.Random(3), watchers=())
        game.bo.send({"type": "chat", "text": EVIL_TEXTS[0]})
        Player.sync(game.bo)
        game_id = game.ana.game

        # The replay (in Italian): at the start only what was said before the first action,
        # at the end everything, the words after the game marked so.
        with api(shared_server) as http:
            said = http.get(
                f"/api/games/{game_id}/replay", headers={"Authorization": f"Player {ana_key}"}
            ).json()["chat"]
        assert [m["turn"] for m in said][:2] == [said[0]["turn"]] * 2  # before the next move
        before = said[0]["turn"]
        # A stranger's page (another player key) reads that the chat is hidden, and none of it.
        stranger, stranger_errors, _ = seated_page_at(
            browser, f"{shared_server.url}/games/{game_id}#step={before}", "it"
        )
        expect(stranger.locator("#replay-chat-hidden")).to_have_text(it["replay.chat_hidden"])
        expect(stranger.locator("#replay-chat-log li")).to_have_count(0)
        assert stranger_errors == [], stranger_errors
        stranger.context.close()
        # Ana's browser (her player key) reads it.
        replay, replay_errors, replay_dialogs = seated_page_at(
            browser, f"{shared_server.url}/games/{game_id}#step={before}", "it", ana_key
        )
        log = replay.locator("#replay-chat-log li")
        expect(log).to_have_count(2)
        if before > 0:  # a step earlier, nothing had been said yet
            replay.click("#replay-prev")
            expect(log).to_have_count(0)
            expect(replay.locator("#replay-chat-empty")).to_have_text(it["replay.chat_empty"])
            replay.click("#replay-next")
        expect(log.nth(0).locator(".chat-text")).to_have_text(EVIL_TEXTS[1])
        expect(log.nth(0).locator(".chat-name")).to_have_text(it["chat.spectator"])
        expect(log.nth(1).locator(".chat-text")).to_have_text(it["chat.phrase.good_luck"])
        replay.click("#replay-last")
        expect(log).to_have_count(3)
        expect(log.nth(2).locator(".chat-text")).to_have_text(EVIL_TEXTS[0])
        expect(log.nth(2).locator(".chat-tag")).to_have_text(f"({it['replay.chat_after']})")
        assert replay.locator("#replay-chat img, #replay-chat script").count() == 0
        replay.screenshot(path=str(shots_name("chat-replay-it-desktop.png")), full_page=True)
        assert replay_dialogs == [] and replay_errors == [], replay_errors
        replay.context.close()
        assert dialogs == [] and errors == [], errors
    finally:
        watcher.context.close()
        game.close()


def shots_name(name: str) -> Path:
    return screenshot_dir() / name


def seated_page_at(
    browser: Browser, url: str, lang: str, key: str | None = None
) -> tuple[Page, list[str], list[str]]:
    errors: list[str] = []
    dialogs: list[str] = []
    page = open_page(browser, DESKTOP, errors)
    page.context.add_init_script(f"localStorage.setItem('dudo.lang', {json.dumps(lang)});")
    if key is not None:  # this browser is that player's
        page.context.add_init_script(f"localStorage.setItem('dudo.player.key', {json.dumps(key)});")
    catch_dialogs(page, dialogs)
    page.goto(url)
    return page, errors, dialogs
