"""The "How to play" pages (/learn, /learn/<family>) and the glossary (/learn/glossary).

Served: each page answers 200 with the shared top bar (its Learn link marked as the page), and
an unknown family is a 404 that names the families. Said: on each family's page, in Chromium,
the sentences made from rule options are exactly those the family's preset calls for (read
from the engine's presets here, not written down), each worded as the catalogue says with the
preset's numbers; every worked example agrees with the engine (a bid shown as a raise is one,
a count is the engine's count, a pass hand is one). Seen: in en, es and it on a phone, the top
bar leads to /learn, a family, and from one of its words to that word's glossary entry; axe-core
finds nothing serious, no English shows on a Spanish or Italian page, nothing scrolls sideways,
and screenshots go to ``artifacts/screenshots`` (``learn-*``, ``glossary-*``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from dudo.engine.actions import Bid
from dudo.engine.bids import RaiseContext, raise_problem, uses_ace_arithmetic
from dudo.engine.counting import count_matching, pass_hand
from dudo.engine.rules import PRESETS, Rules
from dudo.server.ratings import FAMILIES

from .conftest import CHROMIUM, LiveServer, api, words
from .test_browser import screenshot_dir
from .test_rating_pages import check_page, open_context

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}

pytestmark_browser = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)


def test_the_learn_pages_are_served(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        for path in ["/learn", "/learn/glossary", *(f"/learn/{f}" for f in FAMILIES)]:
            page = http.get(path)
            assert page.status_code == 200, path
            assert "text/html" in page.headers["content-type"], path
            html = page.text
            assert html.count('<header class="topbar">') == 1, path
            header = html[html.index("<header") : html.index("</header>")]
            assert '<a href="/learn" aria-current="page" class="nav-learn">' in header, path
        # Every other page has the Learn link too, not marked.
        games = http.get("/games").text
        assert '<a href="/learn" class="nav-learn">' in games
        for path in ("/learn/poker", "/learn/Dudo", "/learn/dudo-legacy"):
            missing = http.get(path)
            assert missing.status_code == 404, path
            answer = missing.json()
            assert answer["code"] == "unknown_preset", answer
            assert "is unknown; families are: dudo, perudo, cacho, liars-dice" in answer["detail"]


# ------------------------------------------------------------------------ what is said


def sentence(key: str, **params: Any) -> tuple[str, dict[str, Any]]:
    return key, params


def expected_sentences(r: Rules) -> dict[str, tuple[str, dict[str, Any]]]:
    """The sentences a family's page makes from rule options: option -> (catalogue key, its
    parameters). Options whose value needs no sentence under the preset have none."""
    out = {
        "dice_per_player": sentence("learn.need.dice", dice=r.dice_per_player),
        "seating": sentence(f"learn.turn.seating_{r.seating}", direction=r.direction),
        "next_opener": sentence(f"learn.end.{r.next_opener}"),
    }
    if r.max_players is not None:
        out["max_players"] = sentence(
            "learn.need.players_range", min=r.min_players, max=r.max_players
        )
    else:
        out["min_players"] = sentence("learn.need.players_min", min=r.min_players)
    mode = f"index_{r.aces_rank}" if r.raise_mode == "index" else str(r.raise_mode)
    out["raise_mode"] = sentence(f"learn.raise.{mode}")
    if r.aces_wild:
        out["aces_wild"] = sentence("learn.aces.wild")
        out["open_on_aces"] = sentence(f"learn.aces.open_{r.open_on_aces}")
        if r.wild_needs_natural:
            out["wild_needs_natural"] = sentence("learn.aces.natural")
        if uses_ace_arithmetic(r):
            out["aces_to"] = sentence("learn.aces.to", rule=f"learn.aces.to_{r.aces_to}")
            out["aces_from"] = sentence("learn.aces.from", rule=f"learn.aces.from_{r.aces_from}")
    if r.loss == "difference":
        out["loss"] = sentence("learn.call.loss_difference")
    if r.spot_on:
        out["spot_on"] = sentence("learn.calzo.how")
        out["spot_on_reward"] = sentence(f"learn.calzo.{r.spot_on_reward}", dice=r.dice_per_player)
        if r.spot_on_threshold != "none":
            out["spot_on_threshold"] = sentence(f"learn.calzo.{r.spot_on_threshold}")
        if r.spot_on_min_players > 2:
            out["spot_on_min_players"] = sentence(
                "learn.calzo.min_players", count=r.spot_on_min_players
            )
    if r.pass_hands:
        out["pass_hands"] = sentence("learn.paso.how", dice=r.dice_per_player)
        if r.pass_allows_spot_on:
            out["pass_allows_spot_on"] = sentence("learn.paso.calzo")
        if r.pass_min_players > 2:
            out["pass_min_players"] = sentence("learn.paso.min_players", count=r.pass_min_players)
    if r.oblige:
        out["oblige_face_change"] = sentence(f"learn.obligo.face_{r.oblige_face_change}")
        if r.oblige_visibility != "normal":
            out["oblige_visibility"] = sentence(f"learn.obligo.{r.oblige_visibility}")
        if r.oblige_min_players > 2:
            out["oblige_min_players"] = sentence(
                "learn.obligo.min_players", count=r.oblige_min_players
            )
    return out


def expected_sections(r: Rules) -> list[str]:
    sections = ["need", "goal", "turn", "raise"]
    sections += ["aces"] if r.aces_wild else []
    sections += ["call"]
    sections += ["calzo"] if r.spot_on else []
    sections += ["paso"] if r.pass_hands else []
    sections += ["obligo"] if r.oblige else []
    return [*sections, "end"]


def worded(text: dict[str, str], key: str, params: dict[str, Any]) -> str:
    """A sentence as the page shows it: the catalogue's words, the game's words (links to the
    glossary) by their own keys, a direction or a rule by theirs, a picture of a die as
    nothing."""
    filled = {name: text[f"learn.word.{name}"] for name in ("dudo", "calzo", "paso", "obligo")}
    filled |= {"doubt_pass": text["learn.word.doubt_pass"], "cup": text["learn.word.cup"]}
    filled |= {"aces": text["learn.word.aces"], "ace": ""}
    for name, value in params.items():
        if name == "direction":
            filled[name] = text[f"learn.direction.{value}"]
        elif name == "rule":
            filled[name] = text[value]
        else:
            filled[name] = str(value)
    return re.sub(r"\{(\w+)\}", lambda m: filled[m[1]], text[key])


def bid(text: str) -> Bid:
    quantity, face = text.split("x")
    return Bid(int(quantity), int(face))


def check_examples(page: Page, rules: Rules) -> int:
    """Every worked example on the page agrees with the engine; how many there are."""
    checked = 0
    contexts = {"normal": RaiseContext.NORMAL, "same_face": RaiseContext.OBLIGE_SAME_FACE}
    for item in page.locator("li.learn-example").all():
        standing, new = (
            bid(item.get_attribute("data-standing") or ""),
            bid(item.get_attribute("data-bid") or ""),
        )
        context = contexts[item.get_attribute("data-context") or ""]
        obliging = context is RaiseContext.OBLIGE_SAME_FACE
        engine = raise_problem(rules, context, standing, new, obliging) is None
        assert (item.get_attribute("data-ok") == "true") == engine, (standing, new, context)
        checked += 1
    for figure in page.locator("figure.learn-count").all():
        hands = [[int(d) for d in h] for h in (figure.get_attribute("data-hands") or "").split(",")]
        face = bid(figure.get_attribute("data-bid") or "").face
        count = count_matching(hands, face, rules.aces_wild, rules.wild_needs_natural)
        assert figure.get_attribute("data-count") == str(count), (hands, face)
        assert figure.locator(".die.counted").count() == count
        checked += 1
    for figure in page.locator("figure.learn-hand").all():
        hand = [int(d) for d in figure.get_attribute("data-dice") or ""]
        assert pass_hand(hand, rules.pass_hands) == figure.get_attribute("data-hand"), hand
        checked += 1
    return checked


@pytestmark_browser
def test_each_family_page_says_what_its_preset_plays(
    browser: Browser, shared_server: LiveServer
) -> None:
    text = words("en")
    page = open_context(browser, "en", DESKTOP, "dark")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    for family in FAMILIES:
        rules = PRESETS[family]
        page.goto(f"{shared_server.url}/learn/{family}")
        main = page.locator("main#learn-main")
        expect(main).to_have_attribute("data-state", "ready")
        expect(main).to_have_attribute("data-family", family)
        shown = page.locator("section.learn-section").evaluate_all(
            "(ss) => ss.map((s) => s.dataset.section)"
        )
        assert shown == expected_sections(rules), family
        wanted = expected_sentences(rules)
        said = page.locator("p.learn-rule").evaluate_all(
            "(ps) => ps.map((p) => [p.dataset.rule, p.innerText.trim()])"
        )
        assert sorted(option for option, _ in said) == sorted(wanted), family
        for option, words_shown in said:
            key, params = wanted[option]
            expected = worded(text, key, params)
            assert words_shown.split() == expected.split(), (family, option)
        assert check_examples(page, rules) >= 7, family
        # The page leads on: the tutorial, a game, the glossary and the other families.
        expect(page.locator("a.learn-tutorial")).to_have_attribute("href", "/tutorial")
        expect(page.locator("a.learn-play")).to_have_attribute("href", "/#play-section")
        expect(page.locator(".learn-others a.learn-family")).to_have_count(len(FAMILIES) - 1)
    page.context.close()
    assert not errors, errors


# ------------------------------------------------------------------------ as people see it


@pytestmark_browser
@pytest.mark.parametrize(
    ("lang", "family", "anchor"),
    [("en", "dudo", "calzo"), ("es", "cacho", "obligo"), ("it", "perudo", "dudo")],
)
def test_learn_then_a_family_then_the_glossary_on_a_phone(
    browser: Browser, shared_server: LiveServer, lang: str, family: str, anchor: str
) -> None:
    text = words(lang)
    page = open_context(browser, lang, PHONE, "dark" if lang != "it" else "light")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    problems: list[str] = []

    # The top bar leads to /learn from any page.
    page.goto(shared_server.url + "/games")
    learn = page.locator(".topbar nav a.nav-learn")
    expect(learn).to_be_visible()
    expect(learn).to_have_accessible_name(text["nav.learn"])
    learn.click()
    page.wait_for_url("**/learn")
    expect(page.locator("main#learn-main")).to_have_attribute("data-state", "ready")
    expect(page.locator("h1")).to_have_text(text["learn.heading"])
    expect(page.locator(".learn-steps > li")).to_have_count(5)
    expect(page.locator("a.learn-family")).to_have_count(len(FAMILIES))
    problems += check_page(page, lang, f"learn-phone-{lang}")

    # A family, chosen from the overview.
    page.locator(f'a.learn-family[data-family="{family}"]').click()
    page.wait_for_url(f"**/learn/{family}")
    main = page.locator("main#learn-main")
    expect(main).to_have_attribute("data-state", "ready")
    expect(page.locator("h1")).to_have_text(
        text["learn.heading_family"].replace("{family}", text[f"family.{family}"])
    )
    expect(page.locator("section.learn-section")).to_have_count(
        len(expected_sections(PRESETS[family]))
    )
    problems += check_page(page, lang, f"learn-{family}-phone-{lang}")

    # A word of the page opens its glossary entry, marked and in view.
    page.locator(f'a.gloss[href="/learn/glossary#{anchor}"]').first.click()
    page.wait_for_url(f"**/learn/glossary#{anchor}")
    expect(page.locator("main#glossary-main")).to_have_attribute("data-state", "ready")
    entry = page.locator(f".glossary-entry#{anchor}")
    expect(entry).to_have_class(re.compile(r"\btarget\b"))
    expect(entry.locator("dd")).to_have_text(text[f"glossary.{anchor}.def"])
    expect(entry).to_be_in_viewport()
    expect(page.locator("a.learn-tutorial")).to_have_attribute("href", "/tutorial")
    expect(page.locator("a.learn-play")).to_have_attribute("href", "/#play-section")
    page.screenshot(path=str(screenshot_dir() / f"glossary-phone-{lang}.png"))
    problems += check_page(page, lang, f"glossary-phone-{lang}-full")
    page.context.close()
    assert not problems, "\n".join(problems)
    assert not errors, errors


@pytestmark_browser
def test_the_learn_pages_on_a_desktop(browser: Browser, shared_server: LiveServer) -> None:
    page = open_context(browser, "en", DESKTOP, "light")
    problems: list[str] = []
    page.goto(shared_server.url + "/learn")
    expect(page.locator("main#learn-main")).to_have_attribute("data-state", "ready")
    problems += check_page(page, "en", "learn-desktop-en")
    page.goto(shared_server.url + "/learn/liars-dice")
    expect(page.locator("main#learn-main")).to_have_attribute("data-family", "liars-dice")
    problems += check_page(page, "en", "learn-liars-dice-desktop-en")
    # Another language chosen on the page words it again.
    page.select_option("#lang-select", "es")
    expect(page.locator("h1")).to_have_text(
        words("es")["learn.heading_family"].replace("{family}", words("es")["family.liars-dice"])
    )
    # (The next page is in English again: the test's browser starts every page in English.)
    page.goto(shared_server.url + "/learn/glossary#spot-on")
    expect(page.locator(".glossary-entry#calzo")).to_have_class(re.compile(r"\btarget\b"))
    problems += check_page(page, "en", "glossary-desktop-en")
    page.context.close()
    assert not problems, "\n".join(problems)
