"""The leaderboard and profile pages and the profile JSON, on a real server and database.

A known set of finished games is written with the store (rated and unrated, several presets, a
player who left early, two bots of one level in a game, a deleted player, a game still in
play), then a server is started on that database. The profile JSON must count exactly those
games (on SQLite and PostgreSQL), refuse whoever is nobody with a 404, and hold nothing private;
a rated game really played on the server shows in its player's profile. In Chromium (phone in
es and it, desktop in en; dark and light themes) the leaderboard shows the API's rows in its
order with its ratings (people with a provisional rating only once "Show provisional players"
is ticked, each rating with its "?"), the profile page shows the profile's numbers, one chart
point per rated game, links to replays and opponents; axe-core finds nothing serious, no
English shows on a Spanish or Italian page, and screenshots go to ``artifacts/screenshots``
(``ratings-*``, ``profile-*``)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from playwright.sync_api import Browser, Page, expect

from dudo.records import replay
from dudo.server import ratings
from dudo.server.routes.ratings import profile_json
from dudo.server.storage import Place, Store

from .conftest import (
    CHROMIUM,
    Json,
    LiveServer,
    Player,
    api,
    get_table,
    host_post,
    play_turns,
    words,
)
from .test_browser import screenshot_dir
from .test_players import new_player
from .test_rated import rated_table

ANA, BO, CY = "ana-player-1", "bo-player-2", "cy-player-3"
NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy"}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}

#: The finished games written to the database, oldest first: (preset, rated family or None,
#: [(rater, place, left early)]). Cy's account is deleted afterwards.
GAMES: list[tuple[str, str | None, list[tuple[str, int, bool]]]] = [
    ("perudo", "perudo", [(ANA, 1, False), (BO, 2, False), ("bot:hard", 3, False)]),
    ("perudo", "perudo", [(ANA, 3, True), (BO, 1, False), ("bot:hard", 2, False)]),
    ("perudo", "perudo", [(ANA, 1, False), ("bot:hard", 2, False), (CY, 3, False)]),
    ("perudo", "perudo", [(ANA, 2, False), ("bot:hard", 1, False), ("bot:medium", 3, False)]),
    ("cacho", "cacho", [(ANA, 1, False), ("bot:easy", 2, False), ("bot:easy", 3, False)]),
    ("dudo-legacy", None, [("bot:hard", 1, False), (ANA, 2, False)]),
]
#: A game still in play: no profile may show it, nor its table's code.
UNFINISHED_CODE = "INPLAY7"


def seat_json(number: int, rater: str) -> Json:
    if rater.startswith("bot:"):
        level = rater.removeprefix("bot:")
        return {"seat": number, "name": f"Bot {number}", "kind": "bot", "level": level}
    return {
        "seat": number,
        "name": NAMES[rater],
        "kind": "human",
        "level": None,
        "player_id": rater,
    }


def write_known_games(url: str) -> list[int]:
    """The games of :data:`GAMES` (and one in play) in the database at ``url``; their ids."""
    store = Store(url)
    ids = []
    try:
        for player_id, name in NAMES.items():
            assert store.create_player(player_id, name, name.lower(), f"hash-{player_id}")
        for number, (preset, rated, seats) in enumerate(GAMES):
            code = f"KNOWN{number}"
            store.create_table(code, preset, {}, {"seats": len(seats)}, [], public=True)
            players = [seat_json(i, rater) for i, (rater, _, _) in enumerate(seats)]
            game_id = store.start_game(code, 1, number, {}, players, rated=rated)
            places = tuple(
                Place(i, place, left, acted=True) for i, (_, place, left) in enumerate(seats)
            )
            winner = next(i for i, (_, place, _) in enumerate(seats) if place == 1)
            store.finish_game(code, game_id, winner, 4, {}, places=places)
            ids.append(game_id)
        store.create_table(UNFINISHED_CODE, "perudo", {}, {"seats": 2}, [], public=True)
        store.start_game(
            UNFINISHED_CODE, 1, 0, {}, [seat_json(0, ANA), seat_json(1, "bot:hard")], rated="perudo"
        )
        store.delete_player(CY)
    finally:
        store.close()
    return ids


def check_anas_profile(profile: Json, ids: list[int]) -> None:
    """Ana's profile is exactly what :data:`GAMES` make of it."""
    assert (profile["rater"], profile["name"]) == (ANA, "Ana")
    assert (profile["games"], profile["wins"]) == (6, 3)
    assert profile["by_preset"] == [
        {"preset": "perudo", "games": 4, "wins": 2, "win_rate": 0.5},
        {"preset": "cacho", "games": 1, "wins": 1, "win_rate": 1.0},
        {"preset": "dudo-legacy", "games": 1, "wins": 0, "win_rate": 0.0},
    ]
    recent = [
        (g["game"], g["preset"], g["rated"], g["place"], g["players"], g["left_early"])
        for g in profile["recent"]
    ]
    assert recent == [
        (ids[5], "dudo-legacy", None, 2, 2, False),
        (ids[4], "cacho", "cacho", 1, 3, False),
        (ids[3], "perudo", "perudo", 2, 3, False),
        (ids[2], "perudo", "perudo", 1, 3, False),
        (ids[1], "perudo", "perudo", 3, 3, True),
        (ids[0], "perudo", "perudo", 1, 3, False),
    ]
    assert all(isinstance(g["finished"], float) for g in profile["recent"])
    # The deleted player is no one's opponent; two easy bots in a game are one, met once.
    assert profile["opponents"] == [
        {"rater": "bot:hard", "name": None, "games": 5, "wins_against": 2},
        {"rater": BO, "name": "Bo", "games": 2, "wins_against": 1},
        {"rater": "bot:easy", "name": None, "games": 1, "wins_against": 1},
        {"rater": "bot:medium", "name": None, "games": 1, "wins_against": 1},
    ]
    assert set(profile["ratings"]) == {"perudo", "cacho"}
    perudo = profile["ratings"]["perudo"]
    assert perudo["games"] == 4
    assert [h["game"] for h in perudo["history"]] == ids[:4]
    assert [h["place"] for h in perudo["history"]] == [1, 3, 1, 2]
    for h in perudo["history"]:
        assert h["rating"] == ratings.shown(h["mu_after"])
    assert perudo["rating"] == perudo["history"][-1]["rating"]
    assert perudo["provisional"] is True, "four rated games: provisional"
    assert profile["provisional_games"] == ratings.PROVISIONAL_GAMES


def test_a_profile_counts_exactly_the_finished_games(db_url: str) -> None:
    """The store's profile on SQLite and PostgreSQL alike."""
    ids = write_known_games(db_url)
    store = Store(db_url)
    try:
        anas = store.profile(ANA)
        assert anas is not None
        check_anas_profile(profile_json(anas), ids)
        easy = store.profile("bot:easy")
        assert easy is not None and easy.name is None
        # Two easy bots in one game: one game, placed at the better of their places.
        assert (easy.games, easy.wins) == (1, 0)
        assert [(g.game, g.place) for g in easy.recent] == [(ids[4], 2)]
        assert [o.rater for o in easy.opponents] == [ANA]
        hard = store.profile("bot:hard")
        assert hard is not None and (hard.games, hard.wins) == (5, 2)
        assert store.profile(CY) is None, "a deleted player has no profile"
        assert store.profile("nobody") is None
        # A few queries whatever the number of games: none per game.
        statements: list[str] = []
        sa.event.listen(
            store.engine, "before_cursor_execute", lambda *args: statements.append(args[2])
        )
        store.profile(ANA)
        many = len(statements)
        statements.clear()
        store.profile(BO)  # two games to Ana's six
        assert many == len(statements) <= 6, statements
    finally:
        store.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, list[int]]]:
    """A server on a database holding the known games, and those games' ids."""
    folder = tmp_path_factory.mktemp("rating-pages")
    url = f"sqlite:///{folder / 'dudo.sqlite3'}"
    ids = write_known_games(url)
    server = LiveServer(folder, url)
    server.start()
    yield server, ids
    server.kill()


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


def test_the_profile_api_and_what_it_refuses(site: tuple[LiveServer, list[int]]) -> None:
    server, ids = site
    with api(server) as http:
        answer = http.get(f"/api/players/{ANA}/profile")
        assert answer.status_code == 200, answer.text
        check_anas_profile(answer.json(), ids)
        # Nothing private: no table code (an invitation), no key, token, secret or seed.
        text = answer.text
        assert UNFINISHED_CODE not in text and "KNOWN" not in text
        assert not keys_of(answer.json()) & {"code", "key", "token", "seat", "secret", "seed"}
        assert "hash-" not in text
        bot = http.get("/api/players/bot:medium/profile").json()
        assert (bot["rater"], bot["name"], bot["games"], bot["wins"]) == ("bot:medium", None, 1, 0)
        for rater, says in [
            ("nobody", "no such player"),
            (CY, "no such player"),  # deleted
            ("bot:grandmaster", "no bot level 'grandmaster'"),
            ("x" * 300, "no such player"),
        ]:
            refused = http.get(f"/api/players/{rater}/profile")
            assert refused.status_code == 404, (rater, refused.text)
            assert refused.json()["code"] == "no_player", refused.text
            assert says in refused.json()["detail"], refused.text
        # Pages: every family has its leaderboard page; an unknown family is a 404.
        for path in ("/ratings", "/ratings/liars-dice", f"/players/{ANA}", "/players/bot:hard"):
            page = http.get(path)
            assert page.status_code == 200 and "text/html" in page.headers["content-type"], path
            assert page.text.count('<header class="topbar">') == 1, path
        assert 'href="/ratings" aria-current="page"' in http.get("/ratings/cacho").text
        missing = http.get("/ratings/poker")
        assert missing.status_code == 404 and missing.json()["code"] == "unknown_preset"


def test_a_rated_game_played_shows_in_the_profile(site: tuple[LiveServer, list[int]]) -> None:
    server, _ = site
    dee = new_player(server, "Dee")
    created = rated_table(server, dee["key"], name="Dee", seats=3, bots=["easy", "hard"])
    code = created["code"]
    host_post(server, code, "start", created["token"])
    with Player(server, code, created["token"], name="Dee") as socket:
        assert play_turns([socket], random.Random(11))["winner"] is not None
    game = get_table(server, code)["game"]
    with api(server) as http:
        record = http.get(f"/api/games/{game}/record").json()
        profile = http.get(f"/api/players/{dee['id']}/profile").json()
    order = replay(record).finishing_order()
    dee_player = next(i for i, p in enumerate(record["players"]) if p["name"] == "Dee")
    place = order.index(dee_player) + 1
    assert (profile["name"], profile["games"], profile["wins"]) == ("Dee", 1, int(place == 1))
    (latest,) = profile["recent"]
    assert (latest["game"], latest["preset"], latest["rated"], latest["place"]) == (
        game,
        "dudo",
        "dudo",
        place,
    )
    assert latest["players"] == 3 and latest["left_early"] is False
    assert profile["by_preset"] == [
        {"preset": "dudo", "games": 1, "wins": int(place == 1), "win_rate": float(place == 1)}
    ]
    assert [h["game"] for h in profile["ratings"]["dudo"]["history"]] == [game]
    assert {o["rater"] for o in profile["opponents"]} == {"bot:easy", "bot:hard"}
    assert code not in json.dumps(profile)


# ------------------------------------------------------------------------------ browser

pytestmark_browser = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)


def rating_text(entry: Json, text: dict[str, str]) -> str:
    """A rating as a page writes it: the whole number, and for a provisional one its "?" with
    the words a screen reader hears instead (a visually hidden span)."""
    if not entry["provisional"]:
        return str(entry["rating"])
    games = str(ratings.PROVISIONAL_GAMES)
    return f"{entry['rating']}? ({text['ratings.provisional_other'].replace('{n}', games)})"


def percent(part: int, whole: int, lang: str) -> str:
    value = round(100 * part / whole)
    return f"{value}\u00a0%" if lang == "es" else f"{value}%"


def rater_name(rater: str, name: str | None, text: dict[str, str]) -> str:
    return text[f"bot.{rater.removeprefix('bot:')}"] if rater.startswith("bot:") else str(name)


def open_context(browser: Browser, lang: str, viewport: dict[str, int], scheme: str) -> Page:
    context = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        color_scheme=scheme,  # type: ignore[arg-type]
    )
    context.add_init_script(f"localStorage.setItem('dudo.lang', {json.dumps(lang)})")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def check_page(page: Page, lang: str, name: str) -> list[str]:
    """Screenshot (full page) and what is wrong: axe-core's serious findings, English on an es
    or it page, sideways scrolling."""
    from .test_accessibility import contrast_over_gradients, serious_problems
    from .test_language_scan import PAGE_TEXT, english_ui
    from .test_layout import OVERFLOWING

    page.wait_for_timeout(300)
    page.screenshot(path=str(screenshot_dir() / f"{name}.png"), full_page=True)
    found = [f"{name}: {p}" for p in serious_problems(page) + contrast_over_gradients(page)]
    if lang != "en":
        shown: str = page.evaluate(PAGE_TEXT)
        found += [f"{name}: English {piece!r}" for piece in english_ui(lang) if piece in shown]
    width = page.viewport_size["width"] if page.viewport_size else 0
    if page.evaluate("document.documentElement.scrollWidth") > width:
        found.append(f"{name}: scrolls sideways: {page.evaluate(OVERFLOWING)}")
    return found


def check_leaderboard(
    page: Page, server: LiveServer, family: str, lang: str, provisional: bool = False
) -> None:
    """The page shows the API's leaderboard: without ``provisional``, the one that leaves
    people with a provisional rating out, saying how many it left out."""
    text = words(lang)
    main = page.locator("main#ratings-main")
    expect(main).to_have_attribute("data-state", "ready")
    expect(main).to_have_attribute("data-family", family)
    with api(server) as http:
        answer = http.get(f"/api/ratings/{family}", params={"provisional": int(provisional)})
    board = answer.json()["ratings"]
    hidden = answer.json()["hidden"]
    expect(main).to_have_attribute("data-hidden", str(hidden))
    expect(page.locator("#show-provisional")).to_be_checked(checked=provisional)
    note = page.locator("#provisional-hidden")
    if hidden:
        key = "ratings.hidden_one" if hidden == 1 else "ratings.hidden_other"
        expect(note).to_have_text(text[key].replace("{n}", str(hidden)))
    else:
        expect(note).to_be_hidden()
    assert provisional or not any(r["provisional"] and r["name"] for r in board)
    expect(page.locator("#provisional-legend")).to_be_visible(
        visible=any(r["provisional"] for r in board)
    )
    rows = page.locator("#ratings-rows tr.rating-row")
    expect(rows).to_have_count(len(board))
    expect(page.locator(f'a.family-tab[data-family="{family}"]')).to_have_attribute(
        "aria-current", "page"
    )
    for index, entry in enumerate(board):
        row = rows.nth(index)
        expect(row).to_have_attribute("data-rater", entry["rater"])
        expect(row.locator("td.rank")).to_have_text(str(index + 1))
        expect(row.locator("td.rating")).to_have_text(rating_text(entry, text))
        expect(row).to_have_attribute("data-provisional", "1" if entry["provisional"] else "0")
        expect(row.locator("td.games")).to_have_text(str(entry["games"]))
        link = row.locator("td.name a")
        expect(link).to_have_text(rater_name(entry["rater"], entry["name"], text))
        expect(link).to_have_attribute("href", f"/players/{entry['rater']}")
    # The empty state shows exactly when the family has nobody (Dudo may, by test order).
    expect(page.locator("#ratings-empty")).to_be_visible(visible=not board)


def check_profile(page: Page, server: LiveServer, rater: str, lang: str) -> Json:
    text = words(lang)
    expect(page.locator("main#profile-main")).to_have_attribute("data-state", "ready")
    with api(server) as http:
        profile: Json = http.get(f"/api/players/{rater}/profile").json()
    expect(page.locator("#profile-name")).to_have_text(rater_name(rater, profile["name"], text))
    expect(page.locator("#profile-games")).to_have_text(str(profile["games"]))
    expect(page.locator("#profile-wins")).to_have_text(str(profile["wins"]))
    if profile["games"]:
        expect(page.locator("#profile-rate")).to_have_text(
            percent(profile["wins"], profile["games"], lang)
        )
    presets = page.locator("#profile-preset-rows tr")
    expect(presets).to_have_count(len(profile["by_preset"]))
    for index, entry in enumerate(profile["by_preset"]):
        row = presets.nth(index)
        expect(row).to_have_attribute("data-preset", entry["preset"])
        expect(row.locator("td.games")).to_have_text(str(entry["games"]))
        expect(row.locator("td.wins")).to_have_text(str(entry["wins"]))
        expect(row.locator("td.rate")).to_have_text(percent(entry["wins"], entry["games"], lang))
    families = page.locator("#profile-ratings section.family-rating")
    expect(families).to_have_count(len(profile["ratings"]))
    for family, rating in profile["ratings"].items():
        section = page.locator(f'section.family-rating[data-family="{family}"]')
        expect(section.locator(".family-rating-value")).to_have_text(rating_text(rating, text))
        expect(section.locator(".provisional-note")).to_be_visible(visible=rating["provisional"])
        history = rating["history"]
        chart = section.locator("svg[role='img']")
        expect(section.locator("circle.chart-point")).to_have_count(len(history))
        expect(section.locator(".sr-only table tbody tr")).to_have_count(len(history))
        label = chart.get_attribute("aria-label") or ""
        assert str(history[-1]["rating"]) in label, label
        assert str(history[0]["rating"]) in label or len(history) == 1, label
        assert chart.locator("title").text_content() == label
        shown = [
            int(v)
            for v in section.locator("circle.chart-point").evaluate_all(
                "(cs) => cs.map((c) => c.dataset.rating)"
            )
        ]
        assert shown == [h["rating"] for h in history]
    recent = page.locator("#profile-recent a.game-link")
    expect(recent).to_have_count(len(profile["recent"]))
    assert recent.evaluate_all("(as) => as.map((a) => a.getAttribute('href'))") == [
        f"/games/{g['game']}" for g in profile["recent"]
    ]
    opponents = page.locator("#profile-opponent-rows tr")
    expect(opponents).to_have_count(len(profile["opponents"]))
    for index, entry in enumerate(profile["opponents"]):
        row = opponents.nth(index)
        expect(row.locator("td.name a")).to_have_text(
            rater_name(entry["rater"], entry["name"], text)
        )
        expect(row.locator("td.name a")).to_have_attribute("href", f"/players/{entry['rater']}")
        expect(row.locator("td.games")).to_have_text(str(entry["games"]))
        expect(row.locator("td.ahead")).to_have_text(str(entry["wins_against"]))
    return profile


@pytestmark_browser
@pytest.mark.parametrize(
    ("lang", "viewport", "scheme"),
    [("es", PHONE, "dark"), ("it", PHONE, "light"), ("en", DESKTOP, "dark")],
    ids=["es-phone", "it-phone-light", "en-desktop"],
)
def test_the_leaderboard_and_profile_pages_match_the_api(
    browser: Browser,
    site: tuple[LiveServer, list[int]],
    lang: str,
    viewport: dict[str, int],
    scheme: str,
) -> None:
    server, ids = site
    text = words(lang)
    size = "phone" if viewport["width"] < 600 else "desktop"
    page = open_context(browser, lang, viewport, scheme)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    problems: list[str] = []

    # The top bar links the leaderboard on every page.
    page.goto(server.url + "/")
    page.click('.topbar nav a[href="/ratings"]')
    check_leaderboard(page, server, "dudo", lang)
    expect(page.locator('.topbar nav a[href="/ratings"]')).to_have_attribute("aria-current", "page")
    page.goto(server.url + "/ratings/perudo")
    check_leaderboard(page, server, "perudo", lang)
    # Everyone here has a provisional rating: shown once asked, and the choice is kept.
    page.check("#show-provisional")
    page.wait_for_url("**/ratings/perudo?provisional=1")
    check_leaderboard(page, server, "perudo", lang, provisional=True)
    problems += check_page(page, lang, f"ratings-{lang}-{size}-{scheme}")
    page.click('a.family-tab[data-family="cacho"]')
    page.wait_for_url("**/ratings/cacho?provisional=1")
    check_leaderboard(page, server, "cacho", lang, provisional=True)
    # A family nobody was rated in yet.
    page.goto(server.url + "/ratings/liars-dice")
    expect(page.locator("#ratings-empty")).to_have_text(
        text["ratings.empty"].replace("{family}", text["family.liars-dice"])
    )
    expect(page.locator("#ratings-rows tr")).to_have_count(0)
    problems += check_page(page, lang, f"ratings-empty-{lang}-{size}-{scheme}")

    # Ana's profile, reached from the leaderboard.
    page.goto(server.url + "/ratings/perudo?provisional=1")
    page.locator(f'tr[data-rater="{ANA}"] td.name a').click()
    page.wait_for_url(f"**/players/{ANA}")
    profile = check_profile(page, server, ANA, lang)
    assert profile["games"] == len(GAMES)
    expect(page.locator("#profile-bot")).to_be_hidden()
    problems += check_page(page, lang, f"profile-{lang}-{size}-{scheme}")
    # A recent game opens its replay.
    page.locator(f'#profile-recent a[data-game="{ids[4]}"]').click()
    page.wait_for_url(f"**/games/{ids[4]}")
    expect(page.locator("#replay-main")).to_be_attached()

    # A bot level's profile, reached from Ana's opponents.
    page.goto(f"{server.url}/players/{ANA}")
    page.locator('#profile-opponent-rows tr[data-rater="bot:hard"] a').click()
    page.wait_for_url("**/players/bot:hard")
    check_profile(page, server, "bot:hard", lang)
    expect(page.locator("#profile-bot")).to_have_text(text["profile.bot_note"])
    problems += check_page(page, lang, f"profile-bot-{lang}-{size}-{scheme}")

    # Nobody by that id: said in the page's language.
    page.goto(f"{server.url}/players/nobody-here")
    expect(page.locator("main#profile-main")).to_have_attribute("data-state", "missing")
    expect(page.locator("#profile-error")).to_have_text(text["error.no_player"])

    # "My profile" in the you dialog: this browser's new player, with nothing played yet.
    page.goto(server.url + "/ratings")
    page.click("#you-button")
    me = page.locator("#you-profile")
    expect(me).to_have_text(text["player.profile_link"])
    page.screenshot(path=str(screenshot_dir() / f"profile-link-{lang}-{size}-{scheme}.png"))
    href = me.get_attribute("href") or ""
    assert href.startswith("/players/") and href != "/players/", href
    me.click()
    page.wait_for_url("**" + href)
    expect(page.locator("main#profile-main")).to_have_attribute("data-state", "ready")
    expect(page.locator("#profile-games")).to_have_text("0")
    expect(page.locator("#profile-no-ratings")).to_have_text(text["profile.no_ratings"])
    expect(page.locator("#profile-no-games")).to_have_text(text["profile.no_games"])
    expect(page.locator("#profile-no-opponents")).to_have_text(text["profile.no_opponents"])
    problems += check_page(page, lang, f"profile-new-{lang}-{size}-{scheme}")
    # Another language chosen on the page words it again, numbers and chart included.
    other = "it" if lang == "en" else "en"
    page.goto(f"{server.url}/players/{ANA}")
    expect(page.locator("main#profile-main")).to_have_attribute("data-state", "ready")
    page.select_option("#lang-select", other)
    check_profile(page, server, ANA, other)
    expect(page.locator("#profile-ratings-heading")).to_have_text(
        words(other)["profile.ratings_heading"]
    )
    page.context.close()
    assert not problems, "\n".join(problems)
    assert not errors, errors


@pytestmark_browser
@pytest.mark.parametrize("lang", ["en", "es"])
def test_provisional_ratings_are_marked_and_hidden_until_asked_on_a_phone(
    browser: Browser, site: tuple[LiveServer, list[int]], lang: str
) -> None:
    """Everyone here has fewer than ten rated games. The leaderboard lists the bot levels and
    says how many people it hides; ticked, it lists them too, each rating on the 1500 scale
    with its "?" (its meaning as a title, and written under the list); Ana's profile shows the
    mark with its meaning written out, a tooltip being out of reach on a phone."""
    server, _ = site
    text = words(lang)
    meaning = text["ratings.provisional_other"].replace("{n}", str(ratings.PROVISIONAL_GAMES))
    page = open_context(browser, lang, PHONE, "light")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.goto(server.url + "/ratings/perudo")
    check_leaderboard(page, server, "perudo", lang)
    expect(page.locator(f'tr[data-rater="{ANA}"]')).to_have_count(0)
    expect(page.locator('tr[data-rater="bot:hard"]')).to_have_count(1)
    expect(page.locator("#provisional-hidden")).to_be_visible()
    page.screenshot(path=str(screenshot_dir() / f"ratings-provisional-hidden-phone-{lang}.png"))
    page.get_by_label(text["ratings.show_provisional"]).check()
    page.wait_for_url("**/ratings/perudo?provisional=1")
    check_leaderboard(page, server, "perudo", lang, provisional=True)
    ana = page.locator(f'tr[data-rater="{ANA}"]')
    mark = ana.locator("td.rating .provisional-mark")
    expect(mark).to_have_text("?")
    expect(mark).to_have_attribute("title", meaning)
    expect(page.locator("#provisional-legend")).to_have_text(f"? {meaning}")
    shown = page.locator("#ratings-rows tr").evaluate_all(
        "(rows) => rows.map((r) => Number(r.dataset.rating))"
    )
    assert shown == sorted(shown, reverse=True) and min(shown) >= ratings.SHOWN_FLOOR, shown
    assert all(1000 < value < 2000 for value in shown), "a few games from 1500"
    problems = check_page(page, lang, f"ratings-provisional-phone-{lang}")

    ana.locator("td.name a").click()
    page.wait_for_url(f"**/players/{ANA}")
    check_profile(page, server, ANA, lang)
    perudo = page.locator('section.family-rating[data-family="perudo"]')
    expect(perudo).to_have_attribute("data-provisional", "1")
    expect(perudo.locator(".family-rating-value .provisional-mark")).to_have_attribute(
        "title", meaning
    )
    expect(perudo.locator(".provisional-note")).to_have_text(f"? {meaning}")
    problems += check_page(page, lang, f"profile-provisional-phone-{lang}")
    page.context.close()
    assert not problems, "\n".join(problems)
    assert not errors, errors
