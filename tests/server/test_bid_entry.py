"""Making a bid in a real browser (Debian's Chromium driven by Playwright), phone first.

A table of six seats with five dice each (one person and five bots, 30 dice in play): on the
person's turn, at 360x740, 390x844 and 1366x900, the calls, the row of faces, the quantity
stepper and the Bid button are all on the screen without scrolling the page. A bid is made with
the faces and the stepper, by typing notation (``5x3``) and by typing Spanish words; a wrongly
typed bid says what was wrong and changes nothing; the D key calls; the full grid opens with
one tap and a greyed bid in it says why it is not allowed. What the server saw is read from a
second connection of the same seat (its view: the legal bids) and a spectator (the events).
Screenshots at the three sizes, in Spanish and Italian, go to ``artifacts/screenshots``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from dudo.engine import Bid
from dudo.notation import format_action

from .conftest import (
    CHROMIUM,
    InProcessServer,
    Json,
    LiveServer,
    Player,
    host_post,
    new_table,
    words,
)
from .test_accessibility import serious_problems
from .test_browser import screenshot_dir

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

SMALL_PHONE = {"width": 360, "height": 740}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SIZES = {"phone-small": SMALL_PHONE, "phone": PHONE, "desktop": DESKTOP}
SEATS = 6
DICE = 30  # six seats of five dice: the default preset


@dataclass
class Turn:
    """The person's page on their turn, a second connection of the same seat (the server's view
    of what is legal for it) and a spectator (what was played)."""

    page: Page
    mine: Player
    watcher: Player
    code: str

    @property
    def view(self) -> Json:
        assert self.mine.view is not None
        return self.mine.view

    def legal_bids(self) -> list[tuple[int, int]]:
        return [(q, f) for q, f in self.view["legal_bids"]]

    def played(self, action: str) -> None:
        """The spectator sees the person (player ``viewer``) play ``action``."""
        me = self.view["viewer"]
        expected = {
            "call": "Called",
            "spot-on": "SpotOnClaimed",
            "pass": "Passed",
        }.get(action, "BidMade")

        def found(frame: Json) -> bool:
            return frame["type"] == "update" and any(
                e["type"] == expected
                and e.get("player") == me
                and (expected != "BidMade" or e["bid"] == action)
                for e in frame["events"]
            )

        self.watcher.until(found, f"{action} played by player {me}")


def all_dice_and_a_bid(view: Json) -> bool:
    """My turn, a bid stands and all 30 dice are still in play (no round ended before)."""
    return (
        view["to_move"] == view["viewer"]
        and sum(view["dice_counts"]) == DICE
        and view["standing_bid"] is not None
    )


def a_reveal_bid(view: Json) -> bool:
    """My turn, and I may bid with reveal-and-reroll."""
    return view["to_move"] == view["viewer"] and bool(view["legal_reveals"])


def my_turn_is(mine: Player, watcher: Player, wanted: Callable[[Json], bool]) -> bool:
    """Wait until the seat's connection may act; whether its view is ``wanted``."""
    mine.until(lambda f: f["type"] == "update" and bool(f["view"]["legal"]), "my turn", 20)
    mine.sync()
    watcher.sync()
    assert mine.view is not None
    return wanted(mine.view)


@contextmanager
def turn_at_full_table(
    browser: Browser,
    server: LiveServer,
    viewport: dict[str, int],
    lang: str,
    wanted: Callable[[Json], bool] = all_dice_and_a_bid,
    options: Json | None = None,
) -> Iterator[Turn]:
    """A new table of one person and five bots whose first turn is ``wanted`` (by default: a
    bid standing and 30 dice in play; tables are dealt until one is), and the person's page on
    that turn."""
    for _attempt in range(12):
        created = new_table(
            server,
            seats=SEATS,
            bots=["easy"] * (SEATS - 1),
            turn_seconds=0,
            options=options or {},
        )
        code, token = created["code"], created["token"]
        mine = Player(server, code, token, name="Ana")
        watcher = Player(server, code, None, name="watcher")
        host_post(server, code, "start", token)
        if my_turn_is(mine, watcher, wanted):
            break
        mine.close()
        watcher.close()
    else:
        raise AssertionError("no table gave Ana the turn the test needs")
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    context.add_init_script(
        f"localStorage.setItem('dudo.lang', {json.dumps(lang)});"
        f"localStorage.setItem('dudo.seat.{code}', {json.dumps(token)});"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/t/{code}")
    expect(page.locator("#status")).to_have_attribute("data-my-turn", "true")
    expect(page.locator("#bid-send")).to_be_visible()
    try:
        yield Turn(page, mine, watcher, code)
        assert not errors, errors
    finally:
        context.close()
        mine.close()
        watcher.close()


@pytest.fixture
def seeded(in_process: Callable[..., InProcessServer]) -> InProcessServer:
    """A server whose dice and bots follow a fixed seed, so every run deals the same tables."""
    return in_process(dice=random.Random(20261124))


def on_screen(page: Page, selector: str) -> None:
    """Every visible element of ``selector`` lies inside the viewport as the page stands."""
    size = page.viewport_size
    assert size is not None
    found = page.locator(selector)
    assert found.count() > 0, f"nothing matches {selector}"
    for i in range(found.count()):
        item = found.nth(i)
        if not item.is_visible():
            continue
        box = item.bounding_box()
        assert box is not None, selector
        assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
        assert box["x"] + box["width"] <= size["width"] + 0.5, (selector, box, size)
        assert box["y"] + box["height"] <= size["height"] + 0.5, (selector, box, size)


def touch_size(page: Page, selector: str) -> None:
    for i in range(page.locator(selector).count()):
        item = page.locator(selector).nth(i)
        if item.is_visible():
            box = item.bounding_box()
            assert box is not None and box["width"] >= 44 and box["height"] >= 44, (selector, box)


@pytest.mark.parametrize("lang", ["en", "es", "it"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_whole_move_is_on_the_screen_without_scrolling(
    browser: Browser, seeded: InProcessServer, size: str, lang: str
) -> None:
    with turn_at_full_table(browser, seeded, SIZES[size], lang) as turn:
        page = turn.page
        assert "call" in turn.view["legal"]
        expect(page.locator("#action-call")).to_be_visible()
        expect(page.locator("#bid-faces .face-pick")).to_have_count(turn.view["faces"])
        page.wait_for_timeout(300)  # fonts and the last frame settle
        page.screenshot(path=str(screenshot_dir() / f"bid-entry-{size}-{lang}.png"))
        assert page.evaluate("window.scrollY") == 0
        for selector in (
            "#call-buttons button",
            "#bid-faces",
            ".bid-stepper",
            "#bid-send",
            "#bid-grid-toggle",
            "#bid-text",
            "#bid-keys",
            "#my-dice",
        ):
            on_screen(page, selector)
        # Nothing covers my dice: the move is under them, not over them.
        covered = page.evaluate(
            """() => [...document.querySelectorAll('#my-dice .die')].filter((die) => {
                const r = die.getBoundingClientRect();
                const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                return !die.contains(top);
            }).length"""
        )
        assert covered == 0, f"{covered} of my dice are covered"
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page is {overflow} px wider than the screen"
        for selector in (
            "#call-buttons button",
            "#bid-faces .face-pick",
            ".bid-stepper button",
            "#bid-send",
            "#bid-grid-toggle",
            "#bid-text-send",
        ):
            touch_size(page, selector)
        # Every control the quick entry draws is named for a screen reader.
        for face in page.locator("#bid-faces .face-pick").all():
            assert face.get_attribute("aria-label"), "a face has no spoken name"
        assert page.locator("#bid-send").get_attribute("aria-label")


def test_a_bid_with_the_faces_and_the_stepper(browser: Browser, seeded: InProcessServer) -> None:
    with turn_at_full_table(browser, seeded, SMALL_PHONE, "es") as turn:
        page = turn.page
        bids = turn.legal_bids()
        # A face other than the one the entry opens on, with at least two legal quantities.
        shown = int(
            page.locator('#bid-faces .face-pick[aria-pressed="true"]').get_attribute("data-face")
            or 0
        )
        face = next(
            f
            for f in range(1, turn.view["faces"] + 1)
            if f != shown and sum(1 for _q, g in bids if g == f) >= 2
        )
        quantities = sorted(q for q, g in bids if g == face)
        page.click(f'#bid-faces .face-pick[data-face="{face}"]')
        expect(page.locator(f'#bid-faces .face-pick[data-face="{face}"]')).to_have_attribute(
            "aria-pressed", "true"
        )
        # The stepper starts at the lowest legal quantity of the face, and cannot go lower.
        expect(page.locator("#bid-quantity")).to_have_text(str(quantities[0]))
        expect(page.locator("#bid-less")).to_have_attribute("aria-disabled", "true")
        page.click("#bid-more")
        page.click("#bid-more")
        page.click("#bid-less")
        bid = f"{quantities[1]}x{face}"
        expect(page.locator("#bid-quantity")).to_have_text(str(quantities[1]))
        expect(page.locator("#bid-send")).to_have_attribute("data-action", bid)
        # A greyed step explains itself: below the lowest legal quantity.
        page.click("#bid-less")
        page.click("#bid-less", force=True)
        explain = page.locator("#bid-explain")
        expect(explain).to_have_attribute("data-legal", "false")
        expect(explain).to_have_attribute("data-action", f"{quantities[0] - 1}x{face}")
        page.click("#bid-more")
        expect(page.locator("#bid-send")).to_have_attribute("data-action", bid)
        page.click("#bid-send")
        turn.played(bid)


def test_typed_bids_in_notation_and_in_spanish_words(
    browser: Browser, seeded: InProcessServer
) -> None:
    said = words("es")
    with turn_at_full_table(browser, seeded, PHONE, "es") as turn:
        page = turn.page
        main = page.locator("main#table-main")
        field = page.locator("#bid-text")
        error = page.locator("#bid-text-error")
        expect(page.locator('label[for="bid-text"]')).to_contain_text(said["bid.type_label"])

        # Not a bid at all: the field says so in Spanish, and nothing is played.
        turn_before = main.get_attribute("data-turn")
        field.fill("banana")
        field.press("Enter")
        expect(error).to_be_visible()
        expect(error).to_have_attribute("data-code", "unknown_action")
        expect(error).to_have_text(said["bid.type_unknown"].replace("{text}", "banana"))
        expect(field).to_have_attribute("aria-invalid", "true")
        # A bid below the standing one: the server's refusal, by the field.
        low = "1x2"
        assert (1, 2) not in turn.legal_bids()
        field.fill(low)
        page.click("#bid-text-send")
        expect(error).to_have_attribute("data-code", "illegal")
        refused = said["bid.type_refused"].replace("{text}", low).split("{problem}")[0]
        expect(error).to_contain_text(refused)
        assert not turn.watcher.updates_since_sync(), "a refused bid changed the game"
        assert main.get_attribute("data-turn") == turn_before
        expect(field).to_have_value(low)  # kept, to be corrected
        page.screenshot(path=str(screenshot_dir() / "bid-entry-typed-refused-phone-es.png"))

        # Spanish words, as a person says them: "cinco trenes".
        quantity, face = turn.legal_bids()[0]
        spoken = format_action(Bid(quantity, face), "es", style="long")
        field.fill(spoken)
        field.press("Enter")
        turn.played(f"{quantity}x{face}")
        expect(error).to_be_hidden()
        expect(field).to_have_value("")

    with turn_at_full_table(browser, seeded, DESKTOP, "en") as turn:
        quantity, face = turn.legal_bids()[-1]
        typed = f"{quantity} x {face}"
        turn.page.keyboard.press("b")  # the key puts the focus in the field
        expect(turn.page.locator("#bid-text")).to_be_focused()
        turn.page.keyboard.type(typed)
        turn.page.keyboard.press("Enter")
        turn.played(f"{quantity}x{face}")


def test_the_d_key_calls(browser: Browser, seeded: InProcessServer) -> None:
    with turn_at_full_table(browser, seeded, DESKTOP, "it") as turn:
        page = turn.page
        call = page.locator("#action-call")
        expect(call.locator("kbd")).to_have_text("D")
        expect(call).to_have_attribute("aria-keyshortcuts", "D")
        expect(page.locator("#bid-keys")).to_have_text(words("it")["bid.keys"])
        # In the field a d is a letter, not a call.
        page.locator("#bid-text").fill("d")
        page.locator("#bid-text").press("d")
        expect(page.locator("#bid-text")).to_have_value("dd")
        assert not turn.watcher.updates_since_sync()
        page.locator("#bid-text").fill("")
        page.locator("#my-dice").click()  # the focus leaves the field
        page.keyboard.press("d")
        turn.played("call")


def test_the_full_grid_opens_with_one_tap_and_a_greyed_bid_explains_itself(
    browser: Browser, seeded: InProcessServer
) -> None:
    with turn_at_full_table(browser, seeded, PHONE, "it") as turn:
        page = turn.page
        sheet = page.locator("#bid-sheet")
        expect(sheet).to_be_hidden()
        found = {"the quick entry": serious_problems(page)}
        page.click("#bid-grid-toggle")
        expect(sheet).to_be_visible()
        page.wait_for_timeout(400)  # the sheet pops in
        found["the full grid"] = serious_problems(page)
        assert not any(found.values()), json.dumps(found, indent=1)
        legal = {f"{q}x{f}" for q, f in turn.legal_bids()}
        greyed = page.locator('#bid-picker .bid-cell[aria-disabled="true"]').first
        bid = greyed.get_attribute("data-bid")
        assert bid and bid not in legal
        # Pressed from the keyboard: a cell of the grid's first row can sit under its sticky
        # header once scrolled to, where a tap at its centre lands on the header.
        greyed.focus()
        page.keyboard.press("Enter")
        explain = page.locator("#bid-sheet #bid-explain")
        expect(explain).to_have_attribute("data-legal", "false")
        expect(explain).to_have_attribute("data-action", bid)
        expect(explain).to_contain_text(": ")  # the bid, then the server's reason
        page.wait_for_timeout(200)
        page.screenshot(path=str(screenshot_dir() / "bid-entry-grid-phone-it.png"))
        # Escape closes it, and the focus goes back to the button that opened it.
        page.keyboard.press("Escape")
        expect(sheet).to_be_hidden()
        expect(page.locator("#bid-grid-toggle")).to_be_focused()
        page.click("#bid-grid-toggle")
        expect(sheet).to_be_visible()
        # A legal cell chooses its bid and closes the sheet; Bid confirms it.
        cell = page.locator('#bid-picker .bid-cell[aria-disabled="false"]').nth(2)
        chosen = cell.get_attribute("data-bid")
        assert chosen in legal
        cell.scroll_into_view_if_needed()
        cell.click()
        expect(sheet).to_be_hidden()
        expect(page.locator("#bid-send")).to_have_attribute("data-action", chosen or "")
        expect(page.locator("#bid-send")).to_be_focused()
        page.click("#bid-send")
        turn.played(chosen or "")


def test_a_reveal_and_reroll_bid_is_one_tap_from_its_bid(
    browser: Browser, seeded: InProcessServer
) -> None:
    with turn_at_full_table(
        browser, seeded, PHONE, "es", wanted=a_reveal_bid, options={"reveal_reroll": True}
    ) as turn:
        page = turn.page
        action = turn.view["legal_reveals"][0]
        bid, shown = action.split(" reveal ")
        page.click("#bid-grid-toggle")
        cell = page.locator(f'#bid-picker .bid-cell[data-bid="{bid}"]')
        cell.scroll_into_view_if_needed()
        cell.click()
        expect(page.locator("#bid-send")).to_have_attribute("data-action", bid)
        reveal = page.locator(f'#bid-confirm .reveal-bid[data-action="{action}"]')
        expect(reveal).to_be_visible()
        reveal.click()
        me = turn.view["viewer"]
        turn.watcher.until(
            lambda f: (
                f["type"] == "update"
                and any(
                    e["type"] == "BidMade"
                    and e["player"] == me
                    and e["bid"] == bid
                    and [str(d) for d in e["revealed"]] == shown.split(",")
                    for e in f["events"]
                )
            ),
            f"{action} played",
        )
