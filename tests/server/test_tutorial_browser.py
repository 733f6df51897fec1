"""The tutorial in a real browser (Debian's Chromium driven by Playwright), as a newcomer
plays it: on a phone (390×844), in Spanish and in Italian, the test does only what the coach
says, reading the page as a person does (the bid the coach names, the words of the button it
says to tap) and tapping by visible text or role. On the way it makes one move the game
refuses (the engine's reason shows, and nothing changes) and one legal move the step does
not ask for (the coach says why it wants the other). The controls stay on the first screen
at every step, and axe-core finds nothing serious on the way. Screenshots of the key steps
go to the screenshot folder (``tutorial-{step}-phone-{es,it}.png``), and one of a lesson on a
desktop in English (``tutorial-desktop-en.png``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, expect

from .conftest import CHROMIUM, LiveServer, words
from .test_accessibility import serious_problems
from .test_browser import PHONE, screenshot_dir

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)

DESKTOP = {"width": 1366, "height": 900}

#: The screenshot taken at each step of the dudo lesson (its index), before the move.
SHOTS = {0: "bid", 1: "aces", 3: "obliging", 5: "paso-hand", 6: "paso"}


class Learner:
    """A browser page on the tutorial, with the words of its language."""

    def __init__(self, browser: Browser, server: LiveServer, lang: str, viewport: dict[str, int]):
        self.context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        self.context.add_init_script(f"localStorage.setItem('dudo.lang', {json.dumps(lang)});")
        self.page = self.context.new_page()
        self.page.set_default_timeout(10_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.server = server
        self.lang = lang
        self.words = words(lang)

    def word(self, key: str, **params: str) -> str:
        text = self.words[key]
        for name, value in params.items():
            text = text.replace("{" + name + "}", value)
        return text

    @property
    def main(self) -> Locator:
        return self.page.locator("#learn-main")

    def step(self) -> int:
        return int(self.main.get_attribute("data-step") or "0")

    def shot(self, name: str) -> None:
        # Once the reveal's card has popped up (its animation is a quarter of a second).
        self.page.evaluate(
            "() => Promise.all(document.getAnimations()"
            ".filter((a) => a.effect.getTiming().iterations !== Infinity).map((a) => a.finished))"
        )
        self.page.screenshot(path=str(screenshot_dir() / f"tutorial-{name}.png"))

    def controls_on_screen(self) -> None:
        """Every control of the move is on the first screen: nothing to scroll to, up, down
        or sideways."""
        assert self.page.evaluate("window.scrollY") == 0
        size = self.page.viewport_size or {"width": 0, "height": 0}
        assert self.page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        height = size["height"]
        for box in self.page.locator("#learn-moves button:visible").all():
            found = box.bounding_box()
            assert found is not None and found["y"] + found["height"] <= height, found

    def asked_bid(self) -> tuple[int, str] | None:
        """The bid the coach asks for, as shown: (quantity, face name)."""
        asked = self.page.locator("#coach-text .coach-do .bid")
        if not asked.count():
            return None
        found = re.fullmatch(r"(\d+)\s*×\s*(.+)", asked.inner_text().strip())
        assert found is not None, asked.inner_text()
        return int(found[1]), found[2].strip()

    def make_bid(self, quantity: int, face: str) -> None:
        """Pick the face, step the quantity to ``quantity`` and tap the bid button."""
        moves = self.page.locator("#learn-moves")
        moves.locator("#learn-faces").get_by_role("button", name=face, exact=True).click()
        shown = self.page.locator("#learn-quantity")
        for _ in range(40):
            now = int(shown.inner_text())
            if now == quantity:
                break
            key = "bid.more" if now < quantity else "bid.less"
            moves.get_by_role("button", name=self.words[key], exact=True).click()
            expect(shown).not_to_have_text(str(now))
        bid = self.word("act.bid", bid=f"{quantity} × {face}")
        moves.get_by_role("button", name=bid, exact=True).click()

    def tap_call(self) -> None:
        """Tap the button whose words the coach names."""
        words = self.page.locator("#coach-text .coach-do").inner_text().strip()
        self.page.locator("#learn-moves").get_by_role("button", name=words, exact=True).click()

    def follow(self) -> None:
        """Do what the coach says at this step, and close the reveal it leads to."""
        before = self.step()
        asked = self.asked_bid()
        if asked is not None:
            self.make_bid(*asked)
        else:
            self.tap_call()
        expect(self.main).not_to_have_attribute("data-step", str(before))

    def close_reveal(self, shot: str | None = None) -> None:
        reveal = self.page.locator("#learn-reveal")
        if not reveal.is_visible():
            return
        expect(reveal.locator(".die.counted").first).to_be_visible()
        if shot:
            self.shot(shot)
            assert serious_problems(self.page) == []
        reveal.get_by_role("button", name=self.words["reveal.dismiss"], exact=True).click()
        expect(reveal).to_be_hidden()


@pytest.fixture
def opened(browser: Browser) -> Iterator[list[Learner]]:
    learners: list[Learner] = []
    yield learners
    for learner in learners:
        learner.context.close()
        assert learner.errors == [], learner.errors


def refused_move(learner: Learner) -> None:
    """At the obliging round, try another face: the game refuses it with its reason."""
    page = learner.page
    note = page.locator("#coach-note")
    step = learner.step()
    asked = learner.asked_bid()
    assert asked is not None
    other_face = page.locator("#learn-faces .face-pick").nth(5).get_attribute("aria-label") or ""
    learner.make_bid(asked[0], other_face)
    expect(note).to_have_attribute("data-verdict", "illegal")
    reason = learner.words["reason.oblige_same_face"]
    expect(note).to_have_text(learner.word("learn.refused", reason=reason))
    assert learner.step() == step


def other_move(learner: Learner) -> None:
    """At the raise, bid a legal raise the step does not ask for: the coach says why not."""
    note = learner.page.locator("#coach-note")
    asked = learner.asked_bid()
    assert asked is not None
    face = learner.page.locator("#learn-faces .face-pick").nth(3).get_attribute("aria-label")
    learner.make_bid(asked[0], face or "")
    expect(note).to_have_attribute("data-verdict", "other")
    expect(note).to_contain_text(learner.words["learn.dudo.raise_other"].split("{bid}")[0])


def play_the_dudo_lesson(learner: Learner) -> None:
    page = learner.page
    page.goto(learner.server.url + "/tutorial")
    lesson = page.get_by_role("link", name=re.compile(re.escape(learner.words["learn.dudo.title"])))
    assert serious_problems(page) == []
    lesson.click()
    expect(learner.main).to_have_attribute("data-state", "playing")
    lang = learner.lang
    while learner.main.get_attribute("data-state") == "playing":
        step = learner.step()
        learner.controls_on_screen()
        if step in SHOTS:
            learner.shot(f"{SHOTS[step]}-phone-{lang}")
        if step == 1:
            other_move(learner)
        if step == 3:
            refused_move(learner)
            learner.shot(f"refused-phone-{lang}")
            assert serious_problems(page) == []
        learner.follow()
        names = {0: "bid-answer", 2: "dudo-reveal", 4: "calzo-reveal", 6: "paso-reveal"}
        learner.close_reveal(f"{names[step]}-phone-{lang}" if step in names else None)
    expect(learner.main).to_have_attribute("data-state", "done")
    expect(page.get_by_role("link", name=learner.words["learn.play_real"])).to_be_visible()
    expect(page.locator("#coach-text")).to_have_text(re.compile(r"\S"))
    learner.shot(f"end-phone-{lang}")


@pytest.mark.parametrize("lang", ["es", "it"])
def test_a_newcomer_finishes_the_dudo_lesson_on_a_phone(
    lang: str, browser: Browser, shared_server: LiveServer, opened: list[Learner]
) -> None:
    learner = Learner(browser, shared_server, lang, PHONE)
    opened.append(learner)
    play_the_dudo_lesson(learner)


def test_the_perudo_lesson_on_a_desktop_in_english(
    browser: Browser, shared_server: LiveServer, opened: list[Learner]
) -> None:
    learner = Learner(browser, shared_server, "en", DESKTOP)
    opened.append(learner)
    page = learner.page
    page.goto(shared_server.url + "/tutorial/perudo")
    expect(learner.main).to_have_attribute("data-state", "playing")
    # Perudo has no Paso: no button for it.
    expect(page.get_by_role("button", name=learner.words["act.pass"])).to_have_count(0)
    # A call cannot open a round: the engine's reason, about "you".
    page.get_by_role("button", name=learner.words["act.call"]).click()
    reason = learner.words["reason.opener_must_bid_you"]
    expect(page.locator("#coach-note")).to_have_text(learner.word("learn.refused", reason=reason))
    learner.follow()
    learner.shot("desktop-en")
    while learner.main.get_attribute("data-state") == "playing":
        learner.follow()
        learner.close_reveal()
    expect(learner.main).to_have_attribute("data-state", "done")
    # A reload keeps the lesson where it was; Start again starts it over.
    page.reload()
    expect(learner.main).to_have_attribute("data-state", "done")
    page.get_by_role("button", name=learner.words["learn.restart"]).click()
    expect(learner.main).to_have_attribute("data-step", "0")
