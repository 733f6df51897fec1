"""Five phones and a shared screen at one real table, in real Chromium against a real server:
a whole game of ``dudo`` with every bid said aloud (none entered), and a whole game of
``perudo`` with every bid entered. Short games (two dice each) keep the suite's time.

Every phone (390x844, touch) shakes its cup each round; in ``dudo`` the player after the
opener taps "Dudo!" and picks the bid said and whose it was; in ``perudo`` the opener and the
next player enter their bids and the third calls the bid entered. Every phone and the screen
show the reveal with the same count, and that count is the engine's (the record, replayed).
Every WebSocket frame every phone and the screen received is checked against the replayed
record with the visibility rules (``test_no_leak``'s oracle): no hidden die reaches anyone, in
an open obliging round a phone never receives its own dice, and the screen none at all."""

from __future__ import annotations

import json
from typing import Any, cast

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, expect

from dudo.engine.events import Revealed
from dudo.records import replay

from .conftest import LiveServer, get_table, join, new_table, record_of
from .test_no_leak import Conn, check_frames, ground_truth
from .test_real_table_browser import PHONE, set_bid

Json = dict[str, Any]
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]
LANGS = ["es", "it", "en", "es", "it"]


class Seat:
    """A phone (or the screen): its page, and every frame its sockets received."""

    def __init__(self, context: BrowserContext, name: str, seat: int | None) -> None:
        self.context, self.name, self.seat = context, name, seat
        self.page: Page = context.new_page()
        self.page.set_default_timeout(20_000)
        self.frames: list[tuple[str, Json]] = []
        self.errors: list[str] = []
        self.page.on("websocket", self.listen)
        self.page.on("pageerror", lambda exc: self.errors.append(f"{name}: {exc}"))

    def listen(self, socket: WebSocket) -> None:
        def got(payload: str | bytes) -> None:
            text = payload if isinstance(payload, str) else payload.decode()
            self.frames.append((text, json.loads(text)))

        socket.on("framereceived", got)

    def main(self) -> Any:
        return self.page.locator("main#table-main")

    def player(self) -> int:
        return int(self.main().get_attribute("data-player") or "-1")


class FiveTable:
    def __init__(self, browser: Browser, server: LiveServer, preset: str) -> None:
        # Two dice each (pass hands need five): short games, the preset's rules otherwise.
        options: Json = {"dice_per_player": 2}
        if preset == "dudo":
            options["pass_hands"] = []
        created = new_table(
            server, name=NAMES[0], seats=5, real=True, preset=preset, options=options
        )
        self.server, self.code = server, str(created["code"])
        tokens = [created["token"]] + [join(server, self.code, n)["token"] for n in NAMES[1:]]
        self.phones: list[Seat] = []
        for seat, (name, lang, token) in enumerate(zip(NAMES, LANGS, tokens, strict=True)):
            context = browser.new_context(
                viewport=PHONE,  # type: ignore[arg-type]
                has_touch=True,
                is_mobile=True,
                reduced_motion="reduce",
            )
            store = {"dudo.lang": lang, f"dudo.seat.{self.code}": token}
            context.add_init_script(
                f"for (const [k, v] of Object.entries({json.dumps(store)}))"
                " localStorage.setItem(k, v);"
            )
            phone = Seat(context, name, seat)
            phone.page.goto(f"{server.url}/t/{self.code}")
            expect(phone.main()).to_have_attribute("data-status", "lobby")
            self.phones.append(phone)
        screen_context = browser.new_context(
            viewport={"width": 1280, "height": 720}, reduced_motion="reduce"
        )
        self.screen = Seat(screen_context, "screen", None)
        self.screen.page.goto(f"{server.url}/t/{self.code}/screen")
        self.host = self.phones[0]
        self.counts: list[int] = []

    def start(self) -> None:
        self.host.page.click("#start-button")
        for phone in self.phones:
            expect(phone.main()).to_have_attribute("data-status", "playing")

    def alive(self) -> list[Seat]:
        return [p for p in self.phones if p.page.locator("#real-panel").is_visible()]

    def phone_of(self, player: int) -> Seat:
        return next(p for p in self.phones if p.player() == player)

    def order(self) -> list[int]:
        items = self.host.page.locator('#players > li[data-out="false"]').all()
        return [int(li.get_attribute("data-player") or -1) for li in items]

    def to_move(self) -> int:
        return int(self.host.main().get_attribute("data-to-move") or -1)

    def turn(self) -> str:
        return self.host.main().get_attribute("data-turn") or ""

    def dice(self) -> int:
        """The dice in play, as the host's page shows them."""
        counts = self.host.page.locator("#players > li .pcount .num").all_inner_texts()
        return sum(int(n) for n in counts)

    def over(self) -> bool:
        return self.host.page.locator("#game-over").is_visible()

    def after(self, player: int) -> int:
        order = self.order()
        return order[(order.index(player) + 1) % len(order)]

    def wait_turn_after(self, turn: str) -> None:
        for phone in self.phones:
            expect(phone.main()).not_to_have_attribute("data-turn", turn)

    def choose_if_asked(self) -> None:
        if self.host.main().get_attribute("data-phase") != "choose_visibility":
            return
        turn = self.turn()
        self.phone_of(self.to_move()).page.tap("#action-open")
        self.wait_turn_after(turn)

    def shake_all(self) -> None:
        """Every phone taps Shake (all at once, as friends do), then sees its cup rolled."""
        cups = self.alive()
        for phone in cups:
            prompt = phone.page.locator("#real-prompt")
            expect(prompt).to_have_attribute("data-prompt", "shake")
            phone.page.tap("#real-shake")
        for phone in cups:
            expect(phone.page.locator("#real-cup")).to_have_attribute("data-shaken", "true")
        for phone in cups:
            prompt = phone.page.locator("#real-prompt")
            expect(prompt).to_have_attribute("data-prompt", "speak")

    def enter(self, phone: Seat) -> None:
        """``phone`` (to move) enters a bid with the quick entry."""
        turn = self.turn()
        phone.page.tap("#real-enter")
        expect(phone.page.locator("#actions")).to_be_visible()
        phone.page.tap("#bid-send")
        self.wait_turn_after(turn)

    def call(self, caller: int, bid: str | None) -> None:
        """``caller`` taps Dudo!; the player before them is preselected as the bidder; ``bid``
        (None: the bid entered, which the picker offers) is confirmed."""
        page = self.phone_of(caller).page
        page.tap("#real-call")
        expect(page.locator("#real-picker")).to_have_attribute("data-mode", "call")
        if bid is not None:
            set_bid(page, bid)
        page.tap("#real-picker-send")
        expect(page.locator("#real-picker")).to_be_hidden()

    def see_reveal(self) -> None:
        """Every phone and the screen show the reveal with one count."""
        seen = set()
        for seat in [*self.phones, self.screen]:
            reveal = seat.page.locator("#reveal")
            # Open again: the last round\'s reveal, dismissed, keeps its attributes.
            expect(reveal).to_be_visible()
            expect(reveal).to_have_attribute("data-stage", "done")
            seen.add(int(reveal.get_attribute("data-count") or -1))
        assert len(seen) == 1, seen
        self.counts.append(seen.pop())
        for phone in self.phones:
            phone.page.evaluate(
                "() => { const box = document.getElementById('reveal');"
                " if (box && !box.hidden) document.getElementById('reveal-dismiss').click(); }"
            )

    def check(self, spoken: bool) -> Json:
        """The counts shown are the engine's; no frame showed anyone a die it must not."""
        game_id = int(str(get_table(self.server, self.code)["game"]))
        record = record_of(self.server, game_id)
        assert [e.count for e in replay(record).events if isinstance(e, Revealed)] == self.counts
        states, events = ground_truth(record)
        for seat in [*self.phones, self.screen]:
            # Every seat is filled, so player N sits in seat N.
            conn = Conn(seat.name, cast(Any, None), seat.seat, player=seat.seat)
            conn.frames = seat.frames
            assert check_frames(conn, states, events, game_id) > 0
        actions = [a["action"] for a in record["actions"]]
        bids = [a for a in actions if a[0].isdigit()]
        said = [a for a in actions if a.startswith("said ")]
        if spoken:
            assert said and not bids, actions
        else:
            assert bids and not said, actions
        return record

    def close(self) -> None:
        for seat in [*self.phones, self.screen]:
            seat.context.close()


@pytest.mark.parametrize("preset", ["dudo", "perudo"])
def test_five_phones_and_a_screen_play_a_whole_game(
    browser: Browser, shared_server: LiveServer, preset: str
) -> None:
    table = FiveTable(browser, shared_server, preset)
    try:
        table.start()
        rounds = 0
        while not table.over():
            table.choose_if_asked()
            table.shake_all()
            opener = table.to_move()
            if preset == "dudo":  # said aloud: the next player calls the opener's bid
                quantity = min(1 + rounds % 3, table.dice())
                table.call(table.after(opener), f"{quantity}x{2 + rounds % 5}")
            else:  # entered: the opener and the next bid, the third calls the bid entered
                table.enter(table.phone_of(opener))
                second = table.after(opener)
                if len(table.order()) > 2:
                    table.enter(table.phone_of(second))
                    second = table.after(second)
                table.call(second, None)
            table.see_reveal()
            rounds += 1
            assert rounds < 40, "the game does not end"
        for phone in table.phones:
            expect(phone.page.locator("#game-over")).to_be_visible()
        table.check(spoken=preset == "dudo")
    finally:
        table.close()
    errors = [e for seat in [*table.phones, table.screen] for e in seat.errors]
    assert not errors, errors
