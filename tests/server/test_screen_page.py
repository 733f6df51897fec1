"""The shared screen (``/t/CODE/screen``) of a real table, in real Chromium against a real
server: three friends' phones are Python WebSocket players (``RealTable``), and four screens
watch them (English, Spanish and Italian at 1280x720, English at 1920x1080, in the dark theme
and the light one). Before the game the screens show the link and its QR code and who sat
down; in the game, the seats in play order with their dice counts face down, the cups still to
roll, a bid entered on a phone and whose it was, the obliging round, every reveal with the
engine's count, and the log; at the end the winner. Every WebSocket frame a screen receives is
checked: no hidden die ever reaches it (it is a spectator, whatever this browser holds). The
Spanish and Italian screens show no English. Screenshots: ``screen-<state>-<size>-<lang>
[-light].png`` in the screenshot folder."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect

from .conftest import CHROMIUM, LiveServer, api, hands_keys, words
from .test_browser import screenshot_dir
from .test_language_scan import PAGE_TEXT, english_ui
from .test_layout import OVERFLOWING
from .test_real_table import RealTable, before

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

Json = dict[str, Any]
LAPTOP = {"width": 1280, "height": 720}
TV = {"width": 1920, "height": 1080}
#: The last reveal gives way to the winner after screen.js's OVER_HOLD_MS (5 s).
OVER_MS = 15_000


@dataclass
class Screen:
    """One browser showing the shared screen, and every frame its socket sent and received."""

    page: Page
    lang: str
    size: str
    scheme: str
    received: list[Json] = field(default_factory=list)
    sent: list[Json] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def listen(self, socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: self.received.append(json.loads(payload)))
        socket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def main(self, attribute: str, value: str, timeout: float = 15_000) -> None:
        """Wait until the page's main element says ``attribute`` is ``value``."""
        expect(self.page.locator("#screen-main")).to_have_attribute(
            attribute, value, timeout=timeout
        )

    def shoot(self, state: str) -> None:
        """Check the window shows no English (es, it) and no sideways scroll; save it."""
        page = self.page
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"{state} ({self.lang}): {page.evaluate(OVERFLOWING)}"
        if self.lang != "en":
            shown: str = page.evaluate(PAGE_TEXT)
            english = [piece for piece in english_ui(self.lang) if piece in shown]
            assert not english, f"English on the {self.lang} screen ({state}): {english}"
        suffix = "-light" if self.scheme == "light" else ""
        page.screenshot(
            path=str(screenshot_dir() / f"screen-{state}-{self.size}-{self.lang}{suffix}.png")
        )


def open_screen(
    browser: Browser, url: str, lang: str, viewport: dict[str, int], scheme: str, seat: Json
) -> Screen:
    """The shared screen at ``url`` in a browser that holds ``seat``'s token for the table (as
    the host's laptop may): the screen watches all the same."""
    context = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        color_scheme=scheme,  # type: ignore[arg-type]
        reduced_motion="reduce",  # the reveal opens at its end: settled screenshots
    )
    context.add_init_script(
        f"localStorage.setItem('dudo.lang', {json.dumps(lang)});"
        f"localStorage.setItem('dudo.seat.{seat['code']}', {json.dumps(seat['token'])});"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    size = "tv" if viewport["width"] >= 1920 else "laptop"
    screen = Screen(page, lang, size, scheme)
    page.on("pageerror", lambda exc: screen.errors.append(f"page error: {exc}"))
    # A refused script or style (the Content-Security-Policy) is a console error.
    page.on(
        "console",
        lambda msg: screen.errors.append(f"console: {msg.text}") if msg.type == "error" else None,
    )
    page.on("websocket", screen.listen)
    page.goto(url)
    return screen


def no_hidden_die(screen: Screen) -> int:
    """Check every frame the screen received; the number of updates."""
    updates = 0
    for frame in screen.received:
        assert not list(hands_keys(frame)), f"hands outside a Revealed event: {frame}"
        view = frame.get("view")
        if frame.get("type") != "update" or view is None:
            continue
        updates += 1
        assert view["viewer"] is None and view["my_dice"] is None, view
        assert not any(view["set_aside"]), "this game sets no die aside"
        # Out players' hands are empty lists; nobody else's dice are sent at all.
        assert all(not hand for hand in view["seen_dice"]), view["seen_dice"]
    hellos = [f for f in screen.sent if f.get("type") == "hello"]
    assert hellos and all(f["token"] is None for f in hellos), hellos
    return updates


def check_seats(screen: Screen, view: Json) -> None:
    """The seats in play order (clockwise here) with their dice face down."""
    rows = screen.page.locator("#screen-players > li")
    expect(rows).to_have_count(len(view["order"]))
    expect(rows.locator(".nm")).to_have_text([view["names"][p] for p in view["order"]])
    for p, count in enumerate(view["dice_counts"]):
        row = screen.page.locator(f'#screen-players > li[data-player="{p}"]')
        expect(row).to_have_attribute("data-count", str(count))
        expect(row.locator(".pcount")).to_have_text(str(count))
        expect(row.locator('.pdice .die[data-face="?"]')).to_have_count(count)
    expect(screen.page.locator('#screen-players .die:not([data-face="?"])')).to_have_count(0)


def test_the_shared_screen_of_a_real_table(browser: Browser, shared_server: LiveServer) -> None:
    names = ["Ana", "Bo", "Cy"]
    options = {"dice_per_player": 2, "pass_hands": []}
    table = RealTable(shared_server, names, preset="dudo", options=options)
    url = f"{shared_server.url}/t/{table.code}/screen"
    host = {"code": table.code, "token": table.tokens[0]}
    screens = [
        open_screen(browser, url, "en", LAPTOP, "dark", host),
        open_screen(browser, url, "es", LAPTOP, "light", host),
        open_screen(browser, url, "it", LAPTOP, "dark", host),
        open_screen(browser, url, "en", TV, "light", host),
    ]
    try:
        with api(shared_server) as http:
            invite = http.get(f"/api/tables/{table.code}/invite").json()
        for s in screens:
            s.main("data-status", "lobby")
            expect(s.page.locator("#screen-code")).to_have_text(table.code)
            expect(s.page.locator("#screen-kind")).to_have_text(words(s.lang)["screen.real_table"])
            expect(s.page.locator("#screen-seated > li")).to_have_count(3)
            expect(s.page.locator("#screen-link")).to_have_attribute("href", invite["url"])
            qr = s.page.locator("#screen-qr")
            expect(qr).to_have_attribute("src", f"/t/{table.code}/qr.svg")
            expect(qr).to_be_visible()
            s.page.wait_for_function("document.getElementById('screen-qr').naturalWidth > 0")
            s.shoot("lobby")

        table.start()
        first = table.phones[0]
        assert first.view is not None
        view = first.view
        for s in screens:
            s.main("data-round", "1")
            check_seats(s, view)
            # Every cup is still to roll.
            expect(s.page.locator('#screen-players > li[data-waiting="true"]')).to_have_count(3)
        # One cup rolls, then the others.
        waiting = table.real()["waiting"]
        table.phone_of(waiting[0]).send({"type": "shake"})
        table.sync()
        for s in screens:
            expect(s.page.locator('#screen-players > li[data-waiting="true"]')).to_have_count(2)
            expect(s.page.locator("#screen-status")).to_have_attribute(
                "data-waiting", ",".join(str(p) for p in waiting[1:])
            )
        table.shake_all()
        for s in screens:
            expect(s.page.locator("#screen-status")).to_have_attribute("data-waiting", "")
            expect(s.page.locator('#screen-players > li[data-waiting="true"]')).to_have_count(0)

        # A bid entered on the mover's phone: the screen shows it, and whose it was.
        mover = view["to_move"]
        table.phone_of(mover).act("1x3")
        table.catch_up(view["turn"] + 1)
        standing = [s.page.locator("#screen-standing") for s in screens]
        for s, box in zip(screens, standing, strict=True):
            expect(box).to_have_attribute("data-bid", "1x3")
            expect(box).to_have_attribute("data-bidder", str(mover))
            expect(box).to_contain_text(view["names"][mover])
            s.shoot("game")
        assert first.view is not None
        caller = first.view["to_move"]
        table.call(caller, "call", "1x3", mover)
        table.catch_up(view["turn"] + 2)

        rounds = 1
        while True:
            revealed = [e for e in first.events if e["type"] == "Revealed"][-1]
            counted = sum(sum(hand) for hand in revealed["counted"])
            for s in screens:
                reveal = s.page.locator("#reveal")
                expect(reveal).to_be_visible()
                expect(reveal).to_have_attribute("data-count", str(revealed["count"]))
                expect(reveal).to_have_attribute("data-bid", revealed["bid"])
                expect(reveal.locator("#reveal-hands .die.counted")).to_have_count(counted)
                if rounds == 1:
                    s.shoot("reveal")
            view = first.view
            assert view is not None
            if view["winner"] is not None:
                break
            rounds += 1
            assert rounds < 8, "the game does not end"
            if view["phase"] == "choose_visibility":
                for s in screens:
                    expect(s.page.locator("#screen-obliging")).to_have_attribute(
                        "data-visibility", "choose"
                    )
                table.phone_of(view["to_move"]).act("open")
                table.catch_up(view["turn"] + 1)
                view = first.view
                assert view is not None
            # The reveal stays until the new round's cups have all rolled.
            for s in screens:
                expect(s.page.locator("#screen-reveal-waiting")).to_be_visible()
            table.shake_all()
            for s in screens:
                expect(s.page.locator("#reveal")).to_be_hidden()
                s.main("data-round", str(view["round"]))
                check_seats(s, view)
                if view["obliging"]:
                    expect(s.page.locator("#screen-obliging")).to_have_attribute(
                        "data-visibility", "open"
                    )
            if view["obliging"] and rounds == 2:
                for s in screens:
                    s.shoot("obliging")
            # A call after bids said aloud: nobody entered them.
            caller = view["to_move"]
            table.call(caller, "call", "1x6", before(view, caller))
            table.catch_up(view["turn"] + 2)

        winner = view["names"][view["winner"]]
        for s in screens:
            s.main("data-status", "over")
            expect(s.page.locator("#screen-over")).to_be_visible()
            expect(s.page.locator("#reveal")).to_be_hidden(timeout=OVER_MS)
            expect(s.page.locator("#screen-over")).to_have_attribute("data-winner", winner)
            # The log: every event of the game, the reveals among them.
            log = s.page.locator("#screen-log > li")
            expect(log).to_have_count(len(first.events))
            reveals = sum(e["type"] == "Revealed" for e in first.events)
            expect(s.page.locator('#screen-log > li[data-type="Revealed"]')).to_have_count(reveals)
            s.shoot("over")
        for s in screens:
            assert no_hidden_die(s) > 0
            assert not s.errors, s.errors
    finally:
        for s in screens:
            s.page.context.close()
        table.close()


def test_a_screen_of_no_table_says_so(browser: Browser, shared_server: LiveServer) -> None:
    seat = {"code": "NOPE42", "token": "none"}
    screen = open_screen(
        browser, f"{shared_server.url}/t/NOPE42/screen", "es", LAPTOP, "dark", seat
    )
    try:
        screen.main("data-status", "missing")
        expected = words("es")["error.no_table"].replace("{table}", "NOPE42")
        expect(screen.page.locator("#screen-missing")).to_have_text(expected)
        expect(screen.page.locator("#conn-status")).to_have_attribute("data-status", "gone")
        # The code is nobody's: the only errors are the server's 404s for it.
        assert all("404" in e for e in screen.errors), screen.errors
    finally:
        screen.page.context.close()
