"""Hints for learners at a table created with ``hints`` on: the numbers a seated player gets
are those of :mod:`dudo.odds`, :mod:`dudo.bots` and :mod:`dudo.review` for that player's own
view, they never depend on dice the player cannot see, a table without hints (or a watcher)
gets none of them, and in a real browser the panel shows the same percentages, worded in the
page's language, with the review once the game is over. Screenshots at phone and desktop
sizes go to ``artifacts/screenshots/``."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from dudo.bots import make_adviser
from dudo.engine.actions import Bid
from dudo.engine.fair import chance_for
from dudo.engine.game import Game
from dudo.engine.rules import PRESETS
from dudo.engine.view import PlayerView
from dudo.notation import parse_action
from dudo.odds import view_odds
from dudo.review import Decision, review
from dudo.server.learner import hints_json, odds_json, suggestion, suggestion_seed

from .conftest import (
    CHROMIUM,
    InProcessServer,
    LiveServer,
    Player,
    api,
    close_reveal,
    get_table,
    host_post,
    new_table,
    play_turns,
    settle,
    words,
)
from .test_accessibility import serious_problems
from .test_browser import screenshot_dir

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
HINT_FRAMES = ("hints", "odds", "suggest", "review")

Json = dict[str, Any]


def started(server: LiveServer, **body: Any) -> tuple[str, str, Player]:
    """A started table of Ana and two hard bots (hints on unless told), with Ana connected
    and to move."""
    body.setdefault("hints", True)
    created = new_table(server, seats=3, bots=["hard", "hard"], **body)
    code, token = created["code"], created["token"]
    ana = Player(server, code, token, name="Ana")
    host_post(server, code, "start", token)
    ana.until(lambda f: f["type"] == "update", "the first update")
    settle([ana])
    return code, token, ana


def live_view(server: InProcessServer, code: str, player: int = 0) -> tuple[PlayerView, int, int]:
    """The engine's view for ``player`` at the live table, its turn and the game id."""

    def read() -> tuple[PlayerView, int, int]:
        table = server.app.state.hall.tables[code]
        return table.game.view(player), len(table.game.history), table.game_id

    result: tuple[PlayerView, int, int] = server.call(read)
    return result


def ask(player: Player, frame: Json) -> Json:
    player.send(frame)
    return player.until(lambda f: f["type"] in (frame["type"], "error"), f"the {frame['type']}")


@pytest.fixture
def seeded(in_process: Callable[..., InProcessServer]) -> InProcessServer:
    return in_process(dice=random.Random(2024))


# ------------------------------------------------------------------------------ server


def test_the_hints_are_the_odds_and_the_bot_of_the_players_own_view(
    seeded: InProcessServer,
) -> None:
    code, _, ana = started(seeded)
    with ana:
        # Bid until Ana is to move with a bid standing, so there is one to judge.
        view, turn, game_id = live_view(seeded, code)
        while view.standing_bid is None:
            assert ana.view is not None
            ana.act(next(a for a in ana.view["legal"] if "x" in a))
            settle([ana])
            view, turn, game_id = live_view(seeded, code)
        assert view.my_turn and view.standing_bid is not None

        hints = ask(ana, {"type": "hints"})
        odds = view_odds(view, view.standing_bid)
        assert hints["turn"] == turn and hints["game"] == game_id
        assert hints["standing"] == str(view.standing_bid)
        assert hints["chance"] == float(odds.probability)  # type: ignore[arg-type]
        assert hints["spot_on"] == float(odds.spot_on)  # type: ignore[arg-type]
        assert hints["expected"] == {str(f): float(odds.expected[f]) for f in odds.faces}
        assert hints["unknown"] == view.unknown_count
        assert hints["known"] == len(view.known_dice)
        for face in odds.faces:
            for quantity in range(1, view.dice_in_play + 1):
                exact = view_odds(view, Bid(quantity, face)).probability
                assert hints["at_least"][str(face)][quantity - 1] == float(exact)  # type: ignore[arg-type]

        chosen = [b for b in view.legal_actions if isinstance(b, Bid)][3]
        answer = ask(ana, {"type": "odds", "action": str(chosen)})
        direct = view_odds(view, chosen)
        assert answer == {
            "type": "odds",
            "game": game_id,
            "turn": turn,
            "action": str(chosen),
            "chance": float(direct.probability),  # type: ignore[arg-type]
            "spot_on": float(direct.spot_on),  # type: ignore[arg-type]
        }
        # Spoken forms are read as any action is.
        spoken = ask(ana, {"type": "odds", "action": f"{chosen.quantity} x {chosen.face}"})
        assert spoken["chance"] == answer["chance"]

        suggested = ask(ana, {"type": "suggest"})
        bot = make_adviser("hard", random.Random(suggestion_seed(game_id, turn, 0)))
        assert suggested["level"] == "hard"
        assert suggested["action"] == str(bot.choose(view))
        assert suggested["turn"] == turn
        assert ask(ana, {"type": "suggest"}) == suggested  # kept, not worked out again

        # Bad questions get a clear error and change nothing.
        refused = ask(ana, {"type": "odds", "action": "call"})
        assert refused["type"] == "error" and refused["code"] == "unknown_action"
        assert "not a bid" in refused["message"]
        refused = ask(ana, {"type": "odds", "action": "banana"})
        assert refused["type"] == "error" and refused["code"] == "unknown_action"
        refused = ask(ana, {"type": "review"})
        assert refused["code"] == "not_over"
        assert live_view(seeded, code)[1] == turn

        # A watcher gets no hints.
        with Player(seeded, code, None, name="watcher") as watcher:
            for kind in ("hints", "suggest"):
                assert ask(watcher, {"type": kind})["code"] == "not_a_player"


def test_the_review_is_dudo_review_of_the_players_own_decisions(
    seeded: InProcessServer,
) -> None:
    code, _, ana = started(seeded)
    with ana:
        play_turns([ana], random.Random(5))
        ana.sync()

        def read() -> tuple[Game, int, int]:
            table = seeded.app.state.hall.tables[code]
            return table.game, table.seed, table.game_id

        game, seed, game_id = seeded.call(read)
        again = Game(game.rules, game.players, chance=chance_for(seed))
        decisions = []
        for who, action in game.history:
            if who == 0:
                decisions.append(Decision(again.view(0), action))
            again.push(action)
        expected = review(decisions, count=3, seed=game_id)
        got = ask(ana, {"type": "review"})
        assert got["type"] == "review" and got["game"] == game_id and got["player"] == 0
        assert got["decisions"] == len(decisions) and got["level"] == "hard"
        assert len(got["riskiest"]) == len(expected) > 0
        for sent, mine in zip(got["riskiest"], expected, strict=True):
            assert sent["number"] == mine.number
            assert sent["action"] == str(mine.yours.action)
            assert sent["risk"] == float(mine.yours.risk)
            assert sent["chance"] == (
                None if mine.yours.chance is None else float(mine.yours.chance)
            )
            assert sent["same"] == mine.same
            if mine.reviewer is None:
                assert sent["reviewer"] is None
            else:
                assert sent["reviewer"]["action"] == str(mine.reviewer.action)
                assert sent["reviewer"]["risk"] == float(mine.reviewer.risk)
        # During play there is nothing to suggest any more.
        assert ask(ana, {"type": "hints"})["code"] == "no_game"


def test_a_table_without_hints_refuses_them_and_sends_nothing_of_them(
    seeded: InProcessServer,
) -> None:
    _, _, ana = started(seeded, hints=False)
    with ana:
        assert ana.table is not None and ana.table["hints"] is False
        for frame in (
            {"type": "hints"},
            {"type": "odds", "action": "1x2"},
            {"type": "suggest"},
            {"type": "review"},
        ):
            refused = ask(ana, frame)
            assert refused["type"] == "error" and refused["code"] == "hints_off"
            assert refused["for"] == frame["type"]
            assert "hints are off" in refused["message"]
        assert not [f for f in ana.sync() if f["type"] in HINT_FRAMES]
        assert not [f for f in ana.frames if f["type"] in HINT_FRAMES]


def test_the_hints_never_depend_on_dice_the_player_cannot_see() -> None:
    rules = PRESETS["dudo"]
    mine = [1, 3, 3, 5, 6]
    tables = [
        Game.with_hands(rules, [mine, [2, 2, 2, 2, 2], [6, 6, 6, 4, 4]], seed=1),
        Game.with_hands(rules, [mine, [1, 1, 5, 5, 5], [3, 4, 2, 6, 1]], seed=2),
    ]
    answers = []
    for game in tables:
        game.push(Bid(2, 3))
        game.push(Bid(3, 3))
        game.push(Bid(4, 2))
        view = game.view(0)
        seed = suggestion_seed(1, len(game.history), 0)
        answers.append(
            (
                hints_json(view),
                odds_json(view, Bid(5, 3)),
                odds_json(view, parse_action("5x3 reveal 3,3", 6)),
                suggestion(view, seed),
            )
        )
    assert answers[0] == answers[1]
    # ... and they do change with the player's own dice.
    other = Game.with_hands(rules, [[2, 2, 4, 4, 6], [2, 2, 2, 2, 2], [6, 6, 6, 4, 4]], seed=1)
    assert hints_json(other.view(0)) != hints_json(Game.with_hands(rules, [mine] * 3).view(0))


def test_the_hints_setting_is_checked_and_survives_a_restart(
    live_server: Callable[..., LiveServer],
) -> None:
    server = live_server()
    with api(server) as http:
        bad = http.post("/api/tables", json={"name": "Ana", "hints": "yes"})
    assert bad.status_code == 422
    assert "hints" in bad.json()["detail"]
    plain = new_table(server)
    assert get_table(server, plain["code"])["hints"] is False
    created = new_table(server, hints=True)
    server.restart()
    assert get_table(server, created["code"])["hints"] is True


# ----------------------------------------------------------------------------- browser


def one_decimal(value: float | Decimal, lang: str) -> str:
    """``value`` with one decimal as the page shows it (halves away from zero, as Intl does
    with the exact value of the float), with the language's decimal separator."""
    text = str(Decimal(value).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
    return text if lang == "en" else text.replace(".", ",")


def percent(chance: float, lang: str) -> str:
    """A chance as the page words it in ``lang``: one decimal, never 0 % for a possible
    outcome nor 100 % for a doubtful one; Spanish puts a no-break space before the sign."""
    sign = "\u00a0%" if lang == "es" else "%"
    if chance <= 0:
        return f"0{sign}"
    if chance >= 1:
        return f"100{sign}"
    if chance < 0.001:
        return "<" + percent(0.001, lang)
    if chance > 0.999:
        return ">" + percent(0.999, lang)
    return one_decimal(Decimal(chance) * 100, lang) + sign


def seated(
    browser: Browser, server: LiveServer, code: str, token: str, lang: str, size: Json
) -> Page:
    context = browser.new_context(viewport=size)  # type: ignore[arg-type]
    context.add_init_script(
        f"localStorage.setItem('dudo.lang', {json.dumps(lang)});"
        f"localStorage.setItem('dudo.seat.{code}', {json.dumps(token)});"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.url}/t/{code}")
    return page


pytestmark_browser = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"
)


@pytestmark_browser
@pytest.mark.parametrize(
    ("lang", "size", "shot"),
    [
        ("es", PHONE, "learner-phone-es"),
        ("it", DESKTOP, "learner-desktop-it"),
        ("en", PHONE, "learner-phone-en"),
    ],
)
def test_the_panel_shows_the_odds_of_dudo_odds_in_the_pages_language(
    browser: Browser, seeded: InProcessServer, lang: str, size: Json, shot: str
) -> None:
    server = seeded
    said = words(lang)
    created = new_table(server, seats=3, bots=["hard", "hard"], hints=True, bot_seconds=0.3)
    code, token = created["code"], created["token"]
    page = seated(browser, server, code, token, lang, size)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    expect(page.locator("#lobby-hints")).to_have_text(said["lobby.hints_on"])
    host_post(server, code, "start", token)
    expect(page.locator("#status")).to_have_attribute("data-my-turn", "true")
    panel = page.locator("#learner")
    expect(panel).to_be_visible()
    view, turn, _ = live_view(server, code)
    expect(panel).to_have_attribute("data-turn", str(turn))
    odds = view_odds(view, view.standing_bid)
    if view.standing_bid is not None:
        expect(page.locator("#learner-standing-chance")).to_have_text(
            percent(float(odds.probability), lang)  # type: ignore[arg-type]
        )
    for face in odds.faces:
        cell = page.locator(f'#learner-expected [data-face="{face}"] .learner-value')
        expect(cell).to_have_text(one_decimal(float(odds.expected[face]), lang))

    # Pointing at a bid of the full grid shows that bid's chance; picking it keeps it shown.
    page.click("#bid-grid-toggle")
    cell = page.locator('#bid-picker .bid-cell[aria-disabled="false"]').nth(20)
    bid = cell.get_attribute("data-bid")
    assert bid
    cell.hover()
    chance = view_odds(view, parse_action(bid, 6)).probability  # type: ignore[arg-type]
    expect(page.locator("#learner-bid")).to_have_attribute("data-bid", bid)
    expect(page.locator("#learner-bid-chance")).to_have_text(percent(float(chance), lang))  # type: ignore[arg-type]
    cell.click()
    expect(page.locator("#learner-bid-chance")).to_have_text(percent(float(chance), lang))  # type: ignore[arg-type]

    # What hard would play.
    # Asked from the keyboard: the answer comes and the focus stays on the button.
    page.focus("#learner-suggest")
    page.keyboard.press("Enter")
    seed = suggestion_seed(live_view(server, code)[2], turn, 0)
    advice = make_adviser("hard", random.Random(seed)).choose(view)
    expect(page.locator("#learner-suggestion")).to_have_attribute("data-action", str(advice))
    expect(page.locator("#learner-suggest")).to_be_focused()
    page.locator("#learner").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir() / f"{shot}.png"), full_page=True)
    assert serious_problems(page) == []
    assert not errors, errors


@pytestmark_browser
@pytest.mark.parametrize(("lang", "size"), [("en", PHONE), ("it", DESKTOP)])
def test_the_game_over_panel_shows_the_review(
    browser: Browser, seeded: InProcessServer, lang: str, size: Json
) -> None:
    server = seeded
    said = words(lang)
    created = new_table(server, seats=2, bots=["hard"], hints=True)
    code, token = created["code"], created["token"]
    page = seated(browser, server, code, token, lang, size)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    expect(page.locator("#lobby-hints")).to_have_text(said["lobby.hints_on"])
    with Player(server, code, token, name="Ana") as ana:
        host_post(server, code, "start", token)
        ana.until(lambda f: f["type"] == "update", "the first update")
        play_turns([ana], random.Random(3))
        got = ask(ana, {"type": "review"})
    box = page.locator("#learner-review")
    expect(box).to_be_visible(timeout=20_000)
    expect(box.locator("h3")).to_have_text(said["learner.review_title"])
    items = box.locator("li")
    expect(items).to_have_count(len(got["riskiest"]))
    for n, item in enumerate(got["riskiest"]):
        row = items.nth(n)
        expect(row).to_have_attribute("data-action", item["action"])
        expect(row.locator(".learner-risk")).to_have_text(percent(item["risk"], lang))
    # A hint asked for just before the game ended is refused quietly, not as a mistake.
    expect(page.locator("#toast")).not_to_contain_text("no game")
    close_reveal(page)
    box.scroll_into_view_if_needed()
    page.screenshot(
        path=str(screenshot_dir() / f"review-{'phone' if size is PHONE else 'desktop'}-{lang}.png"),
        full_page=True,
    )
    assert not errors, errors


@pytestmark_browser
@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_create_form_offers_hints_and_the_table_keeps_them(
    browser: Browser, shared_server: LiveServer, lang: str
) -> None:
    said = words(lang)
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    context.add_init_script(f"localStorage.setItem('dudo.lang', {json.dumps(lang)});")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(shared_server.url + "/")
    page.click("#create-open")
    box = page.get_by_label(said["create.hints"])
    expect(box).not_to_be_checked()  # off unless chosen
    expect(page.locator("#create-hints-help")).to_have_text(said["create.hints_help"])
    page.fill("#create-name", "Ana")
    box.check()
    page.locator(".hints-choice").filter(
        has=page.locator("#create-hints")
    ).scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir() / f"create-hints-phone-{lang}.png"))
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    expect(page.locator("#lobby-hints")).to_have_text(said["lobby.hints_on"])
    code = page.locator("#table-code").inner_text().strip()
    assert get_table(shared_server, code)["hints"] is True
    context.close()
