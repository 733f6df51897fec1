"""Where the lobby and the sheet of every bid sit on the screen: on a desktop the host's lobby
uses the width (seats beside the rules); on a phone a seat row keeps a long name on one line
(ellipsized) and its badges together, inside the row; the sheet of every bid rises from the
bottom of a phone (its Close button in view, the grid scrolling inside it) and is a dialog in
the middle of a desktop. Measured in real Chromium on a real server, in Spanish and Italian."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import CHROMIUM, Json, LiveServer, join, new_table
from .test_browser import screenshot_dir
from .test_screenshots import SIZES, context_page, move, two_people

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

LONG_NAME = "Massimiliana Wolkenstein"  # the longest a name may be (24)


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    x, y, width, height = found["x"], found["y"], found["width"], found["height"]
    return {
        "x": x,
        "y": y,
        "width": width,
        "height": height,
        "right": x + width,
        "bottom": y + height,
    }


@pytest.fixture(scope="module")
def lobby(shared_server: LiveServer) -> Json:
    """A host with a long name and both badges (host, you), bots and a person, an open seat."""
    created = new_table(shared_server, name=LONG_NAME, seats=5, bots=["easy", "hard"])
    join(shared_server, created["code"], "Bo")
    return created


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_hosts_lobby_uses_the_width_of_a_desktop(
    browser: Browser, shared_server: LiveServer, lobby: Json, lang: str
) -> None:
    errors: list[str] = []
    page = context_page(browser, "desktop", lang, "dark", [lobby], errors)
    page.goto(f"{shared_server.url}/t/{lobby['code']}")
    expect(page.locator("#seat-list li")).to_have_count(5)
    expect(page.locator("#rules-list dt").first).to_be_visible()
    card, main = box(page, "#lobby"), box(page, "#table-main")
    assert card["width"] > 0.9 * (main["width"] - 40), (card, main)  # main's padding aside
    seats, rules = box(page, "#seat-list"), box(page, ".lobby-rules")
    assert rules["x"] >= seats["right"], (seats, rules)  # beside, not below
    assert rules["y"] < seats["bottom"], (seats, rules)
    page.screenshot(path=str(screenshot_dir() / f"lobby-wide-desktop-{lang}.png"), full_page=True)
    assert not errors, errors
    page.context.close()


#: The host's seat row, its name, badge group and badges, and whatever passes a row's edge.
MEASURE_SEATS = """() => {
  const rect = (e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, right: r.right, bottom: r.bottom };
  };
  const host = document.querySelector('#seat-list li[data-seat="0"]');
  const name = host.querySelector(".seat-name");
  const style = getComputedStyle(name);
  const outside = [...document.querySelectorAll("#seat-list li")].flatMap((li) =>
    [...li.children]
      .filter((c) => c.getBoundingClientRect().right > li.getBoundingClientRect().right + 0.5)
      .map((c) => li.innerText));
  return {
    row: rect(host), name: rect(name), group: rect(host.querySelector(".seat-badges")),
    badges: [...host.querySelectorAll(".seat-badges .badge")].map(rect),
    cut: [name.scrollWidth > name.clientWidth, style.textOverflow, style.whiteSpace],
    outside,
  };
}"""


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("lang", ["es", "it"])
def test_a_seat_row_holds_a_long_name_and_its_badges_on_a_phone(
    browser: Browser, shared_server: LiveServer, lobby: Json, lang: str, width: int
) -> None:
    errors: list[str] = []
    page = context_page(browser, "phone", lang, "dark", [lobby], errors)
    page.set_viewport_size({"width": width, "height": SIZES["phone"]["height"]})
    page.goto(f"{shared_server.url}/t/{lobby['code']}")
    expect(page.locator("#seat-list li")).to_have_count(5)
    expect(page.locator('#seat-list li[data-seat="0"] .seat-badges .badge')).to_have_count(2)
    # Measured in one go: the list is drawn again whenever someone comes or goes.
    seen = page.evaluate(MEASURE_SEATS)
    row, name, group, badges = seen["row"], seen["name"], seen["group"], seen["badges"]
    assert len({round(b["y"]) for b in badges}) == 1, badges  # host and you, on one line
    for part in (name, group):
        assert row["x"] <= part["x"] and part["right"] <= row["right"] + 0.5, (part, row)
    assert group["y"] >= name["bottom"] - 1 or group["x"] >= name["right"], (name, group)
    # The name keeps one line and is cut short with an ellipsis.
    assert seen["cut"] == [True, "ellipsis", "nowrap"], seen["cut"]
    assert seen["outside"] == [], seen["outside"]  # nothing in any row passes its edge
    assert not errors, errors
    page.context.close()


@pytest.fixture(scope="module")
def my_turn(shared_server: LiveServer) -> Iterator[Json]:
    """Ana's turn with a bid standing, at a table of two people who stay connected."""
    created, ana, bo = two_people(shared_server)
    while not (ana.view is not None and ana.view["legal"] and ana.view["standing_bid"]):
        move((ana, bo), call=False)
    yield created
    ana.close()
    bo.close()


def open_sheet(browser: Browser, server: LiveServer, table: Json, size: str, lang: str) -> Page:
    errors: list[str] = []
    page = context_page(browser, size, lang, "light" if lang == "it" else "dark", [table], errors)
    page.goto(f"{server.url}/t/{table['code']}")
    expect(page.locator("#status")).to_have_attribute("data-my-turn", "true")
    page.click("#bid-grid-toggle")
    expect(page.locator("#bid-picker .bid-cell").first).to_be_visible()
    page.wait_for_timeout(300)  # the sheet has settled
    assert not errors, errors
    return page


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_sheet_of_every_bid_rises_from_the_bottom_of_a_phone(
    browser: Browser, shared_server: LiveServer, my_turn: Json, lang: str
) -> None:
    page = open_sheet(browser, shared_server, my_turn, "phone", lang)
    height = SIZES["phone"]["height"]
    card, close = box(page, "#bid-sheet .sheet-card"), box(page, "#bid-sheet-close")
    assert abs(card["bottom"] - height) <= 1, card  # on the bottom edge
    assert card["height"] <= 0.8 * height + 1 and card["y"] > 0, card
    assert card["y"] <= close["y"] and close["bottom"] <= card["y"] + 80, (close, card)  # its head
    scrolls = page.eval_on_selector("#bid-picker", "e => e.scrollHeight > e.clientHeight")
    assert scrolls  # the grid scrolls inside the sheet, the head stays
    page.locator("#bid-picker").evaluate("e => e.scrollTo(0, e.scrollHeight)")
    assert box(page, "#bid-sheet-close") == close
    page.click("#bid-sheet-close")
    expect(page.locator("#bid-sheet")).to_be_hidden()
    page.context.close()


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_sheet_of_every_bid_is_a_dialog_in_the_middle_of_a_desktop(
    browser: Browser, shared_server: LiveServer, my_turn: Json, lang: str
) -> None:
    page = open_sheet(browser, shared_server, my_turn, "desktop", lang)
    size = SIZES["desktop"]
    card = box(page, "#bid-sheet .sheet-card")
    assert abs(card["y"] + card["height"] / 2 - size["height"] / 2) <= 2, card
    assert abs(card["x"] + card["width"] / 2 - size["width"] / 2) <= 2, card
    assert card["bottom"] < size["height"], card
    page.context.close()
