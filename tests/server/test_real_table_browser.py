"""A real table in real browsers: friends around one table, every phone a cup (Chromium phone
contexts, 390x844 with touch, against a real ``dudo serve``).

The first page's "Real table" opens the create form in its real-table mode and makes a table
whose lobby shows the code, the link the phones open and its QR code; two phones seated by
roll see the same seating roll. Then three phones play one whole short game (2 dice each): they
join by the link, the host puts the seats in order as they sit, every cup is shaken with its
button, one bid is entered and the rest said aloud, "Dudo!" is tapped with the bid and whose it
was, every phone shows the reveal with the engine's count, the loser's cup holds one die less,
a phone reloads mid-round and lifts the same dice, another phone goes away and the host plays
on for it. Screenshots of each step, on phones in Spanish and Italian, go to the screenshot
folder (``real-*-phone-<lang>.png``); the Spanish and Italian pages are scanned for English
and checked with axe-core on the way."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from dudo.engine.events import Revealed
from dudo.records import replay

from .conftest import CHROMIUM, LiveServer, api, get_table, new_table, record_of, words
from .test_accessibility import serious_problems
from .test_browser import screenshot_dir
from .test_language_scan import PAGE_TEXT, english_ui

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

PHONE = {"width": 390, "height": 844}
Json = dict[str, Any]


class Phone:
    """One friend's phone: a touch browser of its own, in ``lang``."""

    def __init__(self, browser: Browser, name: str, lang: str, seats: dict[str, str]) -> None:
        self.name, self.lang = name, lang
        self.errors: list[str] = []
        self.context: BrowserContext = browser.new_context(
            viewport=PHONE,  # type: ignore[arg-type]
            has_touch=True,
            is_mobile=True,
            reduced_motion="reduce",  # the reveal opens at its end
        )
        store = {"dudo.lang": lang} | {f"dudo.seat.{c}": t for c, t in seats.items()}
        self.context.add_init_script(
            f"for (const [k, v] of Object.entries({json.dumps(store)})) localStorage.setItem(k, v);"
        )
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.page.on("pageerror", lambda exc: self.errors.append(f"{name}: {exc}"))
        self.open = True  # the page is here (False: the phone went away)
        self.closed = False

    def main(self) -> Any:
        return self.page.locator("main#table-main")

    def player(self) -> int:
        return int(self.main().get_attribute("data-player") or "-1")

    def away(self) -> None:
        """The phone goes away (its page closes; the player stays who they are)."""
        self.page.close()
        self.open = False

    def close(self) -> None:
        if not self.closed:
            self.context.close()
            self.closed = True
            self.open = False


class Shots:
    """Screenshots of the steps, and the checks made on the Spanish and Italian pages."""

    def __init__(self) -> None:
        self.folder = screenshot_dir()
        self.english = {lang: english_ui(lang) for lang in ("es", "it")}
        self.problems: list[str] = []
        self.taken: set[tuple[str, str]] = set()

    def take(self, phone: Phone, step: str, axe: bool = False, both: bool = False) -> None:
        """The first time ``step`` is seen on a Spanish or Italian phone: its screenshot, and
        its text scanned for English (and ``axe`` its accessibility checked); ``both``: in the
        other of the two languages too (the phone switches to it and back)."""
        if phone.lang == "en":
            return
        self.one(phone, step, axe)
        if both:
            first = phone.lang
            relang(phone, "it" if first == "es" else "es")
            self.one(phone, step, axe)
            relang(phone, first)

    def one(self, phone: Phone, step: str, axe: bool) -> None:
        if (step, phone.lang) in self.taken:
            return
        self.taken.add((step, phone.lang))
        page = phone.page
        page.screenshot(path=str(self.folder / f"real-{step}-phone-{phone.lang}.png"))
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        if width[0] > width[1]:
            self.problems.append(f"{step} ({phone.lang}): {width[0]} px wide")
        shown: str = page.evaluate(PAGE_TEXT)
        self.problems += [
            f"{step} ({phone.lang}): English {piece!r}"
            for piece in self.english[phone.lang]
            if piece in shown
        ]
        if axe:
            self.problems += [f"{step} ({phone.lang}): {p}" for p in serious_problems(page)]


@pytest.fixture
def shots() -> Iterator[Shots]:
    found = Shots()
    yield found
    assert not found.problems, "\n".join(found.problems)


def relang(phone: Phone, lang: str) -> None:
    """The phone's person picks another language in the top bar (chosen by the script while
    a dialog holds the page)."""
    phone.page.evaluate(
        "(lang) => { const box = document.getElementById('lang-select');"
        " box.value = lang; box.dispatchEvent(new Event('change')); }",
        lang,
    )
    expect(phone.page.locator("html")).to_have_attribute("lang", lang)
    phone.lang = lang


def text_of(lang: str, key: str) -> str:
    return words(lang)[key]


def join_by_link(phone: Phone, link: str) -> None:
    phone.page.goto(link)
    phone.page.fill("#join-name", phone.name)
    expect(phone.page.locator("#join-button")).to_have_text(text_of(phone.lang, "real.join_button"))
    phone.page.click("#join-button")
    expect(phone.main()).not_to_have_attribute("data-seat", "")


def shake(phone: Phone) -> None:
    """Tap Shake, and see the cup rolled (once the server's table frame says so)."""
    cup = phone.page.locator("#real-cup")
    expect(phone.page.locator("#real-prompt")).to_have_attribute("data-prompt", "shake")
    phone.page.tap("#real-shake")
    expect(cup).to_have_attribute("data-shaken", "true")


def lift_faces(phone: Phone, keyboard: bool = False) -> list[str]:
    """Press and hold the cup (a pointer, or Space), read the dice, let go."""
    page = phone.page
    cup = page.locator("#real-cup")
    if keyboard:
        cup.focus()
        page.keyboard.down(" ")
    else:
        cup.scroll_into_view_if_needed()
        box = cup.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
    expect(cup).to_have_attribute("data-lifted", "true")
    faces = [d.get_attribute("data-face") or "" for d in page.locator("#real-cup-dice .die").all()]
    if keyboard:
        page.keyboard.up(" ")
    else:
        page.mouse.up()
    expect(cup).to_have_attribute("data-lifted", "false")
    expect(page.locator("#real-cup-dice .die")).to_have_count(0)  # nothing to glance at
    return faces


# --------------------------------------------------------------------------- the first page


def test_the_first_page_opens_a_real_table_seated_by_roll(
    browser: Browser, shared_server: LiveServer, shots: Shots
) -> None:
    host = Phone(browser, "Ana", "es", {})
    page = host.page
    page.goto(shared_server.url + "/")
    expect(page.locator("#real-start")).to_have_text(text_of("es", "index.real_button"))
    shots.take(host, "start", both=True)
    page.tap("#real-start")
    expect(page.locator("#create-form")).to_have_attribute("data-mode", "real")
    expect(page.locator("#create-turn-seconds")).to_be_hidden()
    expect(page.locator("#bots-list")).to_be_hidden()
    page.fill("#create-name", "Ana")
    page.select_option("#create-seats", "2")
    shots.take(host, "create", both=True)
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    expect(host.main()).to_have_attribute("data-status", "lobby")
    code = page.locator("#table-code").inner_text().strip()
    assert get_table(shared_server, code)["real"] is not None
    link = page.locator("#invite-link")
    expect(link).to_have_attribute("data-source", "invite")
    with api(shared_server) as http:
        invite = http.get(f"/api/tables/{code}/invite").json()
    expect(link).to_have_attribute("href", invite["url"])
    qr = page.locator("#real-qr")
    expect(qr).to_have_attribute("src", f"/t/{code}/qr.svg")
    page.wait_for_function("document.getElementById('real-qr').naturalWidth > 0")
    # The test server listens on 127.0.0.1 only: the lobby says how phones can reach it.
    expect(page.locator("#real-local")).to_contain_text("dudo serve --host 0.0.0.0")
    expect(page.locator("#real-seating-roll")).to_be_checked()
    shots.take(host, "lobby", axe=True, both=True)

    friend = Phone(browser, "Bo", "it", {})
    join_by_link(friend, invite["url"])
    shots.take(friend, "join")
    page.click("#start-button")
    for phone in (host, friend):
        expect(phone.page.locator("#real-rolls")).to_be_visible()
        expect(phone.page.locator("#real-rolls-order")).not_to_be_empty()
        shots.take(phone, "seating-roll")
    # Every phone shows the same roll: each player's die, and each tie's re-roll.
    rolled = [
        [
            (d.get_attribute("data-player"), d.locator(".die").get_attribute("data-face"))
            for d in p.page.locator("#real-rolls-list .real-roll").all()
        ]
        for p in (host, friend)
    ]
    assert rolled[0] == rolled[1] and len(rolled[0]) >= 2, rolled
    for phone in (host, friend):
        shake(phone)
        shots.take(phone, "roll-shaken")
    for phone in (host, friend):
        phone.close()
        assert not phone.errors, phone.errors


# --------------------------------------------------------------------------- a whole game


class Game:
    """Three phones at one real table, and what the test saw of its reveals."""

    def __init__(self, browser: Browser, server: LiveServer) -> None:
        created = new_table(
            server,
            seats=3,
            real=True,
            preset="dudo",
            options={"dice_per_player": 2, "pass_hands": []},
        )
        self.server, self.code = server, str(created["code"])
        self.host = Phone(browser, "Ana", "es", {self.code: created["token"]})
        self.bo = Phone(browser, "Bo", "it", {})
        self.cy = Phone(browser, "Cy", "en", {})
        self.phones = [self.host, self.bo, self.cy]
        self.counts: list[int] = []  # each reveal's count, as the phones showed it
        self.cy_player = -1  # Cy's player number, once Cy's phone is away

    def alive(self) -> list[Phone]:
        return [p for p in self.phones if p.open]

    def phone_of(self, player: int) -> Phone | None:
        return next((p for p in self.alive() if p.player() == player), None)

    def order(self) -> list[int]:
        """The players still in, clockwise (the host's list of players follows view.order)."""
        items = self.host.page.locator('#players > li[data-out="false"]').all()
        return [int(li.get_attribute("data-player") or -1) for li in items]

    def counts_now(self) -> dict[int, int]:
        """Each player's dice, as the host's page shows them."""
        items = self.host.page.locator("#players > li").all()
        return {
            int(li.get_attribute("data-player") or -1): int(li.locator(".pcount .num").inner_text())
            for li in items
        }

    def to_move(self) -> int:
        return int(self.host.main().get_attribute("data-to-move") or -1)

    def after(self, player: int) -> int:
        """The next player round the table whose phone is here (``player`` again when the
        others are away: they spoke, and ``player`` calls)."""
        order = self.order()
        at = order.index(player)
        for step in range(1, len(order) + 1):
            nxt = order[(at + step) % len(order)]
            if self.phone_of(nxt) is not None:
                return nxt
        raise AssertionError("no phone left to call")

    def before(self, player: int) -> int:
        order = self.order()
        return order[order.index(player) - 1]

    def over(self) -> bool:
        return self.host.page.locator("#game-over").is_visible()

    def close_reveals(self) -> None:
        for phone in self.alive():
            phone.page.evaluate(
                "() => { const box = document.getElementById('reveal');"
                " if (box && !box.hidden) document.getElementById('reveal-dismiss').click(); }"
            )


def seat_as_we_sit(game: Game, shots: Shots) -> None:
    """The host chooses "as we sit" and moves Ana down twice (Bo, Cy, Ana clockwise: Bo
    opens)."""
    page = game.host.page
    page.check("#real-seating-sit")
    order = page.locator("#real-order > li")
    expect(order).to_have_count(3)
    order.nth(0).locator("button.order-down").click()
    order.nth(1).locator("button.order-down").click()
    expect(order.nth(2)).to_have_attribute("data-seat", "0")
    shots.take(game.host, "seating", axe=True, both=True)
    page.click("#start-button")
    for phone in game.phones:
        expect(phone.main()).to_have_attribute("data-status", "playing")
    want = [game.phones[seat].player() for seat in (1, 2, 0)]
    game.host.page.wait_for_function(
        "(want) => [...document.querySelectorAll('#players > li')]"
        ".map((li) => Number(li.dataset.player)).join() === want.join()",
        arg=want,
    )


def choose_if_asked(game: Game, shots: Shots) -> None:
    """The obliger chooses an open round (the host, for a phone that is away)."""
    if game.host.main().get_attribute("data-phase") != "choose_visibility":
        return
    turn = game.host.main().get_attribute("data-turn") or ""
    mover = game.phone_of(game.to_move())
    if mover is not None:
        shots.take(mover, "choose")
        mover.page.tap("#action-open")
    else:
        shots.take(game.host, "away-choose", both=True)
        game.host.page.tap('#real-away .real-choose-for[data-action="open"]')
    expect(game.host.main()).not_to_have_attribute("data-turn", turn)


def shake_all(game: Game, shots: Shots) -> None:
    """Every phone here shakes its cup; the host plays on for a phone that is away."""
    cups = [p for p in game.alive() if p.page.locator("#real-panel").is_visible()]
    for phone in cups:
        shots.take(phone, "shake")
        shake(phone)
        shots.take(phone, "shaken")
    if not game.cy.open and game.cy_player in game.order():
        play_on = game.host.page.locator(f'.real-play-on[data-player="{game.cy_player}"]')
        expect(play_on).to_be_visible()
        expect(game.bo.page.locator("#real-away")).to_be_visible()  # every phone is told
        shots.take(game.host, "away", axe=True, both=True)
        shots.take(game.bo, "away")
        play_on.tap()
    for phone in cups:
        expect(phone.page.locator("#real-prompt")).to_have_attribute("data-prompt", "speak")
    for phone in cups:
        shots.take(phone, "speak")


def wait_turn_after(game: Game, turn: str) -> None:
    for phone in game.alive():
        expect(phone.main()).not_to_have_attribute("data-turn", turn)


def enter_bid(game: Game, shots: Shots) -> None:
    """The player to move enters their bid with the quick entry, on their turn."""
    mover = game.phone_of(game.to_move())
    assert mover is not None
    mover.page.tap("#real-enter")
    expect(mover.page.locator("#actions")).to_be_visible()
    expect(mover.page.locator("#action-call")).to_be_hidden()  # the calls are the big buttons'
    shots.take(mover, "enter", both=True)
    turn = mover.main().get_attribute("data-turn") or ""
    mover.page.tap("#bid-send")
    wait_turn_after(game, turn)
    expect(mover.page.locator("#actions")).to_be_hidden()  # the entry was for this bid


def enter_out_of_turn(game: Game, shots: Shots, bid: str) -> Phone:
    """A phone that is not to move enters what it says: the server takes it as said aloud."""
    phone = next(p for p in game.alive() if p.player() != game.to_move())
    phone.page.tap("#real-enter")
    expect(phone.page.locator("#real-picker")).to_have_attribute("data-mode", "bid")
    set_bid(phone.page, bid)
    shots.take(phone, "said", both=True)
    turn = phone.main().get_attribute("data-turn") or ""
    phone.page.tap("#real-picker-send")
    expect(phone.page.locator("#real-picker")).to_be_hidden()
    wait_turn_after(game, turn)
    expect(game.host.page.locator("#standing-bid .bid")).to_have_attribute("data-bid", bid)
    return phone


def set_bid(page: Page, bid: str) -> None:
    quantity, face = (int(n) for n in bid.split("x"))
    while int(page.locator("#real-q").inner_text()) < quantity:
        page.tap("#real-q-more")
    while int(page.locator("#real-q").inner_text()) > quantity:
        page.tap("#real-q-less")
    page.tap(f'#real-faces .face-pick[data-face="{face}"]')
    expect(page.locator("#real-picker-send")).to_have_attribute("data-bid", bid)


def call(
    game: Game, shots: Shots, caller: int, bid: str | None, refused: str | None = None
) -> None:
    """``caller`` taps Dudo!, finds the player before them chosen as the bidder, sets ``bid``
    (None: the bid entered stands, as the picker offers it) and confirms. ``refused``: a bid
    tried first, which the server refuses; the picker says why and stays open."""
    phone = game.phone_of(caller)
    assert phone is not None
    page = phone.page
    page.tap("#real-call")
    picker = page.locator("#real-picker")
    expect(picker).to_have_attribute("data-mode", "call")
    whose = page.locator(f'input[name="real-whose"][value="{game.before(caller)}"]')
    expect(whose).to_be_checked()
    entered = game.host.page.locator("#standing-bid .bid")
    standing = (entered.get_attribute("data-bid") or "") if entered.count() else ""
    if standing:  # the picker offers the bid entered last
        expect(page.locator("#real-picker-send")).to_have_attribute("data-bid", standing)
    if refused is not None:
        set_bid(page, refused)
        page.tap("#real-picker-send")
        error = page.locator("#real-picker-error")
        expect(error).to_have_attribute("data-code", "illegal")
        expect(error).not_to_be_empty()
        shots.take(phone, "refused", both=True)
    set_bid(page, bid or standing)
    shots.take(phone, "picker", axe=True, both=True)
    page.tap("#real-picker-send")
    expect(picker).to_be_hidden()


def see_reveal(game: Game, shots: Shots, before: dict[int, int]) -> None:
    """Every phone shows the reveal with one count (as many dice lit as counted); the loser's
    cup then holds one die less, by itself (a loser out of dice has no cup any more)."""
    seen = set()
    losers = ""
    for phone in game.alive():
        reveal = phone.page.locator("#reveal")
        # Open again: the last round\'s reveal, dismissed, keeps its attributes.
        expect(reveal).to_be_visible()
        expect(reveal).to_have_attribute("data-stage", "done")
        count = int(reveal.get_attribute("data-count") or -1)
        expect(phone.page.locator("#reveal-hands .die.counted")).to_have_count(count)
        seen.add(count)
        losers = reveal.get_attribute("data-losers") or ""
        shots.take(phone, "reveal")
    assert len(seen) == 1, seen
    game.counts.append(seen.pop())
    game.close_reveals()
    over = game.over()
    for phone in game.alive():
        if phone.name not in losers.split(",") or over:
            continue
        left = before[phone.player()] - 1
        if left:
            expect(phone.page.locator("#real-cup")).to_have_attribute("data-count", str(left))
            shots.take(phone, "die-less")
        else:  # out of the game: the table as a spectator sees it, no cup
            expect(phone.page.locator("#real-panel")).to_be_hidden()
            shots.take(phone, "out")


def false_bid(game: Game, entered: str) -> str:
    """A bid above the entered one that the dice under every cup do not hold (aces wild)."""
    faces = [int(face) for phone in game.alive() for face in lift_faces(phone)]
    above = int(entered.split("x")[0]) + 1
    for face in (6, 5, 4, 3, 2):
        quantity = max(above, 1 + sum(f in (face, 1) for f in faces))
        if quantity <= len(faces):
            return f"{quantity}x{face}"
    raise AssertionError(f"every bid above {entered} holds: {faces}")


def reload_mid_round(game: Game) -> None:
    """Bo's phone reloads after shaking: the same link gives the same cup back, shaken."""
    faces = lift_faces(game.bo)
    assert faces and "?" not in faces
    game.bo.page.reload()
    expect(game.bo.page.locator("#real-cup")).to_have_attribute("data-shaken", "true")
    assert lift_faces(game.bo, keyboard=True) == faces


def play_round(game: Game, shots: Shots) -> None:
    """A round said aloud: the phone after the opener taps Dudo! on a bid the opener (or the
    phone away before it) said."""
    choose_if_asked(game, shots)
    shake_all(game, shots)
    before = game.counts_now()
    caller = game.after(game.to_move())
    call(game, shots, caller, f"2x{2 + len(game.counts) % 5}")
    see_reveal(game, shots, before)


def test_three_phones_play_a_whole_game(
    browser: Browser, shared_server: LiveServer, shots: Shots
) -> None:
    game = Game(browser, shared_server)
    try:
        game.host.page.goto(f"{shared_server.url}/t/{game.code}")
        expect(game.host.main()).to_have_attribute("data-status", "lobby")
        link = game.host.page.locator("#invite-link")
        expect(link).to_have_attribute("data-source", "invite")
        for phone in (game.bo, game.cy):
            join_by_link(phone, link.get_attribute("href") or "")
        seat_as_we_sit(game, shots)
        expect(game.bo.page.locator("#real-rolls")).to_be_hidden()  # no roll: the host's order

        # Round 1: every cup shaken, Bo's phone reloads, Bo (the opener) enters a bid, Cy
        # says a bid higher than the dice hold (the test lifts every cup), Ana calls it: Cy
        # loses a die, and obliges next round.
        shake_all(game, shots)
        reload_mid_round(game)
        before = game.counts_now()
        enter_bid(game, shots)
        entered = game.host.page.locator("#standing-bid .bid").get_attribute("data-bid") or ""
        call(game, shots, game.host.player(), false_bid(game, entered))
        see_reveal(game, shots, before)
        assert game.counts_now()[game.cy.player()] == 1

        # Round 2: Cy's phone goes away; Cy obliges, and the host chooses for Cy and shakes
        # Cy's cup; Ana enters a bid out of turn (said aloud), Bo calls it.
        game.cy_player = game.cy.player()
        game.cy.away()
        expect(game.host.main()).to_have_attribute("data-phase", "choose_visibility")
        choose_if_asked(game, shots)
        shake_all(game, shots)
        before = game.counts_now()
        said = enter_out_of_turn(game, shots, "2x3")
        caller = game.after(said.player())
        bid = None if game.before(caller) == said.player() else "3x3"
        call(game, shots, caller, bid, refused="1x3")
        see_reveal(game, shots, before)

        while not game.over():
            play_round(game, shots)
        for phone in game.alive():
            expect(phone.page.locator("#game-over")).to_be_visible()
            shots.take(phone, "over")
        check_record(game)
    finally:
        for phone in game.phones:
            phone.close()
    errors = [e for p in game.phones for e in p.errors]
    assert not errors, errors


def check_record(game: Game) -> None:
    """The counts the phones showed are the engine's: the record, replayed, reveals the same."""
    game_id = int(str(get_table(game.server, game.code)["game"]))
    record = record_of(game.server, game_id)
    assert record["setup"]["spoken"] is True
    events = replay(record).events
    assert [e.count for e in events if isinstance(e, Revealed)] == game.counts
