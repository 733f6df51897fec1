"""End to end in a real browser: Debian's headless Chromium driven by Playwright, against a real
``dudo serve`` process.

Two browser contexts (a phone-sized one and a desktop one) create and join a table, play a
whole game with a bot through the page's bid picker and buttons, reload mid-game and land on
the same seat; the dice cup page rolls, removes a die and keeps it after a reload. Screenshots
of the table at both sizes are saved for a person to review, in ``$DUDO_SCREENSHOTS`` (default:
``artifacts/screenshots`` in the repository).
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import CHROMIUM, LiveServer, close_reveal

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
GAME_SECONDS = 240.0

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)


def screenshot_dir() -> Path:
    folder = Path(
        os.environ.get("DUDO_SCREENSHOTS")
        or Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
    )
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_page(browser: Browser, viewport: dict[str, int], errors: list[str]) -> Page:
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.on(
        "console",
        lambda msg: (
            errors.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None
        ),
    )
    return page


def create_table(page: Page, server: LiveServer) -> str:
    """The host creates a 3-seat Perudo table with one easy bot and 2 dice each (a short game),
    through the form."""
    page.goto(server.url + "/")
    page.click("#create-open")
    page.fill("#create-name", "Ana")
    page.select_option("#create-preset", "perudo")
    page.select_option("#create-seats", "3")
    page.locator("#house-rules summary").click()
    page.locator('select.opt-input[data-option="dice_per_player"]').select_option("2")
    expect(page.locator("#house-rules-count")).to_contain_text("1")
    page.fill("#create-turn-seconds", "0")
    rows = page.locator(".bot-row")
    if rows.count() == 0:
        page.click("#add-bot-row")
    while rows.count() > 1:
        rows.last.locator("button.bot-remove").click()
    rows.first.locator("select.bot-level").select_option("easy")
    page.click("#create-button")
    page.wait_for_url("**/t/*", timeout=30_000)  # a loaded machine: creating writes the table
    expect(page.locator("main#table-main")).to_have_attribute("data-status", "lobby")
    return page.locator("#table-code").inner_text().strip()


def take_turn(page: Page, rng: random.Random) -> bool:
    """If it is this page's turn, play through the page as a person would; True if it acted."""
    if page.locator("#reveal").is_visible():
        close_reveal(page)
        return True
    if page.locator("#status").get_attribute("data-my-turn") != "true":
        return False
    turn = page.locator("main#table-main").get_attribute("data-turn")
    for choice in ("#action-open", "#action-closed"):
        if page.locator(choice).is_visible():
            page.click(choice)
            break
    else:
        expect(page.locator("#actions")).to_be_visible()
        bid = page.locator("#bid-send")
        call = page.locator("#action-call")
        try:
            if call.is_visible() and (not bid.is_visible() or rng.random() < 0.35):
                page.click("#action-call", timeout=5000)
            elif bid.is_visible():
                # The stepper starts at the lowest legal quantity: now and then go higher.
                for _ in range(rng.randrange(3)):
                    if page.get_attribute("#bid-more", "aria-disabled") == "false":
                        page.click("#bid-more", timeout=5000)
                page.click("#bid-send", timeout=5000)
            else:
                return False
        except PlaywrightTimeoutError:
            # The last round's reveal opened over the table just as this page looked: it
            # waits for this page (the new opener), so dismiss it and act next time round.
            if page.locator("#reveal").is_visible():
                return take_turn(page, rng)
            raise
    # The page shows the next state once the server has broadcast it.
    expect(page.locator("main#table-main")).not_to_have_attribute("data-turn", turn or "")
    return True


def is_over(page: Page) -> bool:
    return page.locator("#game-over").is_visible()


def test_two_browsers_and_a_bot_play_a_full_game(
    browser: Browser, shared_server: LiveServer
) -> None:
    errors: list[str] = []
    shots = screenshot_dir()
    rng = random.Random(7)
    ana = open_page(browser, PHONE, errors)
    code = create_table(ana, shared_server)
    invite = ana.locator("#invite-link")
    expect(invite).to_contain_text(f"/t/{code}")
    ana.screenshot(path=str(shots / "lobby-phone.png"), full_page=True)

    bo = open_page(browser, DESKTOP, errors)
    link = invite.get_attribute("href") or invite.inner_text()
    assert link.endswith(f"/t/{code}"), link
    bo.goto(link)
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    expect(bo.locator("main#table-main")).to_have_attribute("data-seat", "2")
    expect(ana.locator('#seat-list li[data-seat="2"]')).to_contain_text("Bo")

    ana.click("#start-button")
    for page in (ana, bo):
        expect(page.locator("main#table-main")).to_have_attribute("data-status", "playing")
        expect(page.locator("#my-dice .die")).to_have_count(2)
    ana.screenshot(path=str(shots / "table-phone.png"), full_page=True)
    bo.screenshot(path=str(shots / "table-desktop.png"), full_page=True)

    # An illegal bid explains itself: the server's reason appears next to the picker.
    for page in (ana, bo):
        if page.locator("#status").get_attribute("data-my-turn") == "true":
            page.click("#bid-grid-toggle")  # the full grid of bids
            greyed = page.locator('#bid-picker .bid-cell[aria-disabled="true"]')
            if greyed.count():
                greyed.first.click(force=True)
                expect(page.locator("#bid-explain")).to_have_attribute("data-legal", "false")
                expect(page.locator("#bid-explain")).not_to_be_empty()
            page.click("#bid-sheet-close")
            break

    reloaded = revealed = False
    deadline = time.monotonic() + GAME_SECONDS
    while not (is_over(ana) and is_over(bo)):
        assert time.monotonic() < deadline, "the game did not end in time"
        acted = False
        for page in (ana, bo):
            if not is_over(page):
                if page.locator("#reveal").is_visible() and not revealed:
                    page.wait_for_timeout(800)  # let the overlay finish fading in
                    page.screenshot(path=str(shots / f"reveal-{page_name(page)}.png"))
                    revealed = True
                acted = take_turn(page, rng) or acted
        if not reloaded and bo.locator("main#table-main").get_attribute("data-turn") not in (
            None,
            "0",
        ):
            # A reload mid-game brings Bo back to the same seat with the current state.
            turn_before = bo.locator("main#table-main").get_attribute("data-turn")
            bo.reload()
            expect(bo.locator("main#table-main")).to_have_attribute("data-seat", "2")
            expect(bo.locator("main#table-main")).to_have_attribute("data-status", "playing")
            assert int(bo.locator("main#table-main").get_attribute("data-turn") or "0") >= int(
                turn_before or "0"
            )
            reloaded = True
        if not acted:
            time.sleep(0.1)
    assert reloaded, "the game ended before the reload could be tried"
    winner = ana.locator("#game-over").get_attribute("data-winner")
    assert winner in ("Ana", "Bo", "Bruno"), winner
    expect(bo.locator("#game-over")).to_have_attribute("data-winner", winner or "")
    for page in (ana, bo):
        close_reveal(page)
        # The game-over panel offers the record of the game its replay link opens, as a file.
        game = (page.locator("#replay-link").get_attribute("href") or "").rsplit("/", 1)[-1]
        assert game.isdigit(), game
        record_link = page.locator("#record-link")
        expect(record_link).to_be_visible()
        expect(record_link).to_have_attribute("href", f"/api/games/{game}/record?download=1")
    ana.screenshot(path=str(shots / "game-over-phone.png"), full_page=True)
    bo.screenshot(path=str(shots / "game-over-desktop.png"), full_page=True)

    # The finished game is listed and replays step by step.
    bo.goto(shared_server.url + "/games")
    bo.locator("a.game-link").first.click()
    expect(bo.locator("#replay-step")).not_to_be_empty()
    bo.click("#replay-next")
    bo.screenshot(path=str(shots / "replay-desktop.png"), full_page=True)
    assert not errors, "\n".join(errors)


def page_name(page: Page) -> str:
    size = page.viewport_size
    return "phone" if size is not None and size["width"] < 600 else "desktop"


def test_dice_cup_page(browser: Browser, shared_server: LiveServer) -> None:
    errors: list[str] = []
    page = open_page(browser, PHONE, errors)
    page.goto(shared_server.url + "/cup")
    expect(page.locator("#cup-count")).to_contain_text("5")
    page.click("#cup-roll")
    dice = page.locator("#cup-dice .die")
    expect(dice).to_have_count(5)
    expect(page.locator('#cup-dice .die[data-face="?"]')).to_have_count(0)  # the shake is over
    faces = [dice.nth(i).get_attribute("data-face") for i in range(5)]
    assert all(face in {"1", "2", "3", "4", "5", "6"} for face in faces), faces
    page.click("#cup-remove")
    expect(dice).to_have_count(4)
    page.click("#cup-hide")
    expect(page.locator("#cup-main")).to_have_attribute("data-hidden", "true")
    page.screenshot(path=str(screenshot_dir() / "cup-hidden-phone.png"))
    page.click("#cup-hide")
    page.reload()  # the cup keeps its dice between visits
    expect(page.locator("#cup-main")).to_have_attribute("data-count", "4")
    page.click("#cup-add")
    expect(page.locator("#cup-main")).to_have_attribute("data-count", "5")
    expect(page.locator("#cup-add")).to_be_disabled()  # never above five
    page.screenshot(path=str(screenshot_dir() / "cup-phone.png"))
    assert not [e for e in errors if "409" not in e], "\n".join(errors)


def test_a_name_typed_while_the_page_loads_is_kept(
    browser: Browser, shared_server: LiveServer
) -> None:
    """A person quicker than the network: the name typed before the page's words arrive is not
    replaced by the remembered one, and the table is created under it."""
    errors: list[str] = []
    page = open_page(browser, PHONE, errors)
    page.add_init_script("localStorage.setItem('dudo.name', 'Remembered')")
    held: list[Route] = []  # the page's words wait here until the names are typed
    page.route("**/api/i18n/*", lambda route: held.append(route))
    # The create form's own address shows it before any script has run.
    page.goto(shared_server.url + "/#create-section", wait_until="domcontentloaded")
    page.fill("#create-name", "Typed")
    page.fill("#play-name", "Typed")
    assert held, "the words were asked for before the names were typed"
    for route in held:
        route.continue_()
    page.unroute("**/api/i18n/*")
    expect(page.locator("#create-preset option")).not_to_have_count(0)
    expect(page.locator("#create-name")).to_have_value("Typed")
    expect(page.locator("#play-name")).to_have_value("Typed")
    page.click("#create-button")
    page.wait_for_url("**/t/*", timeout=30_000)
    expect(page.locator('li[data-seat="0"] .seat-name')).to_have_text("Typed")
    assert errors == [], errors
