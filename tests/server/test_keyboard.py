"""The table page with the keyboard alone, in a real browser (Debian's Chromium driven by
Playwright): each turn of mine starts with the focus on its first control (but never takes it
from a text field); the reveal after a call holds the focus (Tab and Shift+Tab go round it, the
page behind is inert) and gives it back to my turn or the feed when it closes, never to <body>;
the grid of all bids moves with the arrows, Home, End and Page keys as one Tab stop; and Esc on
a sheet or dialog puts the focus back on what opened it. Tables come from a server with seeded
dice and bots, so every run plays the same game."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import CHROMIUM, InProcessServer, host_post, new_table
from .test_bid_entry import turn_at_full_table
from .test_browser import DESKTOP, PHONE

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

#: The focused element as the test reads it: its id, or its class and data-bid / data-face.
FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return "body";
  return e.id || `${e.className}:${e.dataset.bid ?? e.dataset.face ?? ""}`;
}"""

#: My turn's controls are ready to take a key (or the reveal is up).
READY = """() => !document.getElementById("reveal").hidden
  || (document.getElementById("status")?.dataset.myTurn === "true"
      && !document.getElementById("actions").hidden
      && !document.querySelector("#actions [data-pending]"))"""


@pytest.fixture
def seeded(in_process: Callable[..., InProcessServer]) -> InProcessServer:
    """A server whose dice and bots follow a fixed seed."""
    return in_process(dice=random.Random(20260412))


def focused(page: Page) -> str:
    return str(page.evaluate(FOCUSED))


def focus_inside(page: Page, selector: str) -> bool:
    return bool(
        page.evaluate("(s) => document.querySelector(s).contains(document.activeElement)", selector)
    )


def on_a_legal_face(page: Page) -> bool:
    return bool(
        page.evaluate(
            "() => document.activeElement.matches("
            '\'#bid-faces .face-pick[aria-disabled="false"][aria-pressed="true"]\')'
        )
    )


def table_page(browser: Browser, server: InProcessServer, lang: str = "en") -> Page:
    """My page at a new started table of two seats (a bot, 2 dice each); the bot waits 30 s
    after a reveal, so only I close it."""
    created = new_table(
        server,
        seats=2,
        bots=["easy"],
        preset="perudo",
        options={"dice_per_player": 2},
        reveal_seconds=30,
        turn_seconds=0,
    )
    code, token = created["code"], created["token"]
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    context.add_init_script(
        f"localStorage.setItem('dudo.lang', {json.dumps(lang)});"
        f"localStorage.setItem('dudo.seat.{code}', {json.dumps(token)});"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.url}/t/{code}")
    expect(page.locator("main#table-main")).to_have_attribute("data-status", "lobby")
    host_post(server, code, "start", token)
    expect(page.locator("main#table-main")).to_have_attribute("data-status", "playing")
    return page


def test_the_reveal_holds_the_focus_and_each_turn_starts_on_its_first_face(
    browser: Browser, seeded: InProcessServer
) -> None:
    page = table_page(browser, seeded)
    reveal = page.locator("#reveal")
    chat = page.locator("#chat-text")
    typed_in_chat = False
    for _move in range(20):
        page.wait_for_function(READY)
        if reveal.is_visible():
            break
        if typed_in_chat:
            # Typing in the chat when my turn came: the focus stayed there.
            assert focused(page) == "chat-text"
            chat.press("Escape")
            chat.evaluate("(e) => e.blur()")
        else:
            # Each turn of mine starts on the face the quick entry opens on (a legal one).
            assert on_a_legal_face(page) or focused(page) == "action-call", focused(page)
        if page.locator("#action-call").is_visible():
            page.keyboard.press("d")
        else:
            page.locator("#bid-send").press("Enter")
            # While the bot thinks, I type in the chat: my next turn leaves me there.
            chat.focus()
            chat.type("hola")
            typed_in_chat = True
            continue
        typed_in_chat = False
    expect(reveal).to_be_visible()
    # The reveal holds the focus: it starts on its button, Tab and Shift+Tab stay inside, and
    # the page behind is inert (no key reaches the turn's controls).
    assert focused(page) in ("reveal-dismiss", "reveal-skip")
    assert page.evaluate("document.getElementById('table-main').inert")
    for key in ["Tab"] * 4 + ["Shift+Tab"] * 4:
        page.keyboard.press(key)
        assert focus_inside(page, "#reveal"), f"{key} left the reveal for {focused(page)}"
    page.keyboard.press("Escape")
    expect(reveal).to_be_hidden()
    assert not page.evaluate("document.getElementById('table-main').inert")
    # Back to my turn's first face if I open the next round, else to the feed: never <body>.
    page.wait_for_function(
        "() => document.getElementById('status').dataset.myTurn === 'true'"
        " || document.activeElement.id === 'events'"
    )
    mine = page.locator("#status").get_attribute("data-my-turn") == "true"
    if mine:
        expect(page.locator("#bid-faces .face-pick[aria-pressed='true']")).to_be_focused()
    else:
        assert focused(page) == "events"
    # The player dialog: Esc gives the focus back to its button.
    page.locator("#you-button").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#you-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#you-dialog")).to_be_hidden()
    expect(page.locator("#you-button")).to_be_focused()
    page.context.close()


def test_the_grid_of_bids_moves_with_the_arrow_keys(
    browser: Browser, seeded: InProcessServer
) -> None:
    with turn_at_full_table(browser, seeded, PHONE, "es") as turn:
        page = turn.page
        sheet = page.locator("#bid-sheet")
        page.locator("#bid-send").focus()
        page.keyboard.press("g")
        expect(sheet).to_be_visible()
        start = focused(page)
        assert start.startswith("bid-cell"), start
        q, f = (int(n) for n in start.split(":")[1].split("x"))
        # One Tab stop: the focused cell alone has tabindex 0.
        assert page.locator("#bid-picker .bid-cell[tabindex='0']").count() == 1
        moves = [
            ("ArrowRight", f"{q}x{f + 1}" if f < 6 else f"{q}x{f}"),
            ("ArrowLeft", f"{q}x{f}"),
            ("ArrowDown", f"{q + 1}x{f}"),
            ("ArrowUp", f"{q}x{f}"),
            ("Home", f"{q}x1"),
            ("End", f"{q}x6"),
        ]
        for key, bid in moves:
            page.keyboard.press(key)
            assert focused(page).endswith(f":{bid}"), (key, focused(page))
            assert page.locator("#bid-picker .bid-cell[tabindex='0']").get_attribute(
                "data-bid"
            ) == (bid)
        rows = page.locator("#bid-picker tbody tr")
        first = rows.first.get_attribute("data-quantity")
        last = rows.last.get_attribute("data-quantity")
        page.keyboard.press("Control+End")
        assert focused(page).endswith(f":{last}x6"), focused(page)
        page.keyboard.press("Control+Home")
        assert focused(page).endswith(f":{first}x1"), focused(page)
        # Tab goes round the sheet: the close button, then back to the grid's one stop.
        page.keyboard.press("Tab")
        assert focused(page) == "bid-sheet-close"
        page.keyboard.press("Tab")
        assert focused(page).endswith(f":{first}x1"), focused(page)
        # Enter on a legal cell picks it: the sheet closes on the Bid button, set to it.
        legal = {f"{quantity}x{face}" for quantity, face in turn.legal_bids()}
        for _ in range(40):
            bid = focused(page).split(":")[1]
            if bid in legal:
                break
            page.keyboard.press("ArrowDown")
        else:
            raise AssertionError("no legal bid below the first row")
        page.keyboard.press("Enter")
        expect(sheet).to_be_hidden()
        expect(page.locator("#bid-send")).to_be_focused()
        expect(page.locator("#bid-send")).to_have_attribute("data-action", bid)
        # Esc closes the grid onto what opened it: the Bid button; with nothing focused (the
        # G key from anywhere), the grid's own button, never <body>.
        page.keyboard.press("g")
        expect(sheet).to_be_visible()
        page.keyboard.press("Escape")
        expect(sheet).to_be_hidden()
        expect(page.locator("#bid-send")).to_be_focused()
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("g")
        expect(sheet).to_be_visible()
        page.keyboard.press("Escape")
        expect(sheet).to_be_hidden()
        expect(page.locator("#bid-grid-toggle")).to_be_focused()
