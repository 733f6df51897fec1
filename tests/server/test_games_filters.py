"""The list of finished games, filtered: ``GET /api/games?mine=1`` (the games of the player of
``Authorization: Player <key>``; 401 without a player's key), ``rated=1`` or ``0``,
``preset=<preset>`` and ``family=<rated family>``, together or alone; a value the list does
not take is a 400 that says which parameter and what it takes. Known games are written with
the store, then a server is started on that database. In Chromium (a phone, in Italian) the
/games page's filters ask for those games, keep the filters in the page's address (reloaded,
the list is the same) and say so when the filters find nothing; screenshot
``games-filters-phone-it.png`` goes to ``artifacts/screenshots``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from playwright.sync_api import Browser, expect

from dudo.server import players as P
from dudo.server.storage import GameFilter, Place, Store
from dudo.server.storage.schema import games_table

from .conftest import CHROMIUM, Json, LiveServer, api, words
from .test_browser import screenshot_dir

ANA, BO = "ana-filter-1", "bo-filter-2"
KEYS = {ANA: "ana-secret-key-for-filters", BO: "bo-secret-key-for-filters"}
NAMES = {ANA: "Ana", BO: "Bo"}

#: The finished games, oldest first: (preset, rated family or None, players).
GAMES: list[tuple[str, str | None, list[str]]] = [
    ("perudo", "perudo", [ANA, BO]),
    ("cacho", None, [ANA, "bot:easy"]),
    ("dudo-legacy", None, [BO, "bot:easy"]),
    ("dudo", "dudo", [BO, "bot:hard"]),
    ("liars-dice", None, ["bot:easy", "bot:hard"]),
]


def seat_json(number: int, who: str) -> Json:
    if who.startswith("bot:"):
        level = who.removeprefix("bot:")
        return {"seat": number, "name": f"Bot {number}", "kind": "bot", "level": level}
    return {"seat": number, "name": NAMES[who], "kind": "human", "level": None, "player_id": who}


def write_games(url: str) -> list[int]:
    """The games of :data:`GAMES` in the database at ``url``; their ids, oldest first."""
    store = Store(url)
    ids = []
    try:
        for player_id, name in NAMES.items():
            assert store.create_player(player_id, name, name.lower(), P.key_hash(KEYS[player_id]))
        for number, (preset, rated, seats) in enumerate(GAMES):
            code = f"FILTER{number}"
            store.create_table(code, preset, {}, {"seats": len(seats)}, [], public=True)
            players = [seat_json(i, who) for i, who in enumerate(seats)]
            game_id = store.start_game(code, 1, number, {}, players, rated=rated)
            places = tuple(Place(i, i + 1, acted=True) for i in range(len(seats)))
            store.finish_game(code, game_id, 0, 3, {}, places=places)
            ids.append(game_id)
    finally:
        store.close()
    return ids


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, list[int]]]:
    folder = tmp_path_factory.mktemp("games-filters")
    url = f"sqlite:///{folder / 'dudo.sqlite3'}"
    ids = write_games(url)
    server = LiveServer(folder, url)
    server.start()
    yield server, ids
    server.kill()


def listed(server: LiveServer, key: str | None = None, **params: str) -> list[int]:
    headers = {"Authorization": f"Player {key}"} if key else {}
    with api(server) as http:
        answer = http.get("/api/games", params=params, headers=headers)
    assert answer.status_code == 200, answer.text
    return [game["id"] for game in answer.json()["games"]]


def test_each_filter_keeps_its_games(site: tuple[LiveServer, list[int]]) -> None:
    server, ids = site
    newest = ids[::-1]

    def of(*numbers: int) -> list[int]:
        return [ids[n] for n in sorted(numbers, reverse=True)]

    assert listed(server) == newest
    assert listed(server, KEYS[ANA], mine="1") == of(0, 1)
    assert listed(server, KEYS[BO], mine="true") == of(0, 2, 3)
    assert listed(server, KEYS[ANA], mine="0") == newest  # 0: everyone's
    assert listed(server, rated="1") == of(0, 3)
    assert listed(server, rated="0") == of(1, 2, 4)
    assert listed(server, preset="perudo") == of(0)
    assert listed(server, preset="dudo") == of(3)
    assert listed(server, family="dudo") == of(2, 3)  # every dudo-* preset plays as Dudo
    assert listed(server, preset="dudo-legacy", family="perudo") == []
    assert listed(server, KEYS[BO], mine="1", rated="1", preset="dudo") == of(3)
    assert listed(server, KEYS[BO], mine="1", rated="1", limit="1") == of(3)
    assert listed(server, KEYS[ANA], mine="1", preset="liars-dice") == []


def test_mine_needs_a_players_key(site: tuple[LiveServer, list[int]]) -> None:
    server, _ = site
    with api(server) as http:
        for headers in ({}, {"Authorization": "Player nobody-has-this-key"}):
            answer = http.get("/api/games", params={"mine": "1"}, headers=headers)
            assert answer.status_code == 401, answer.text
            assert answer.json()["code"] == "player_key_needed"


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ({"mine": "yes"}, "mine: 1 or 0 (true or false), not 'yes'"),
        ({"rated": "2"}, "rated: 1 or 0 (true or false), not '2'"),
        ({"rated": ""}, "rated: 1 or 0"),
        ({"preset": "poker"}, "preset: one of dudo, dudo-legacy"),
        ({"preset": "PERUDO"}, "not 'PERUDO'"),
        ({"family": "dudo-legacy"}, "family: one of dudo, perudo, cacho, liars-dice"),
    ],
)
def test_a_bad_filter_is_a_400_that_says_why(
    site: tuple[LiveServer, list[int]], params: dict[str, str], says: str
) -> None:
    server, _ = site
    with api(server) as http:
        answer = http.get("/api/games", params=params)
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["code"] == "bad_filter", body
    assert says in body["detail"], body
    assert body["params"] == {"name": next(iter(params))}, body


def test_the_store_filters_alike_on_sqlite_and_postgresql(db_url: str) -> None:
    ids = write_games(db_url)
    store = Store(db_url)
    try:

        def found(only: GameFilter) -> list[int]:
            return [game.id for game in store.recent_games(50, only)]

        assert found(GameFilter()) == ids[::-1]
        assert found(GameFilter(rater=BO)) == [ids[3], ids[2], ids[0]]
        assert found(GameFilter(rated=True)) == [ids[3], ids[0]]
        assert found(GameFilter(rated=False)) == [ids[4], ids[2], ids[1]]
        assert found(GameFilter(presets=("dudo", "dudo-legacy"))) == [ids[3], ids[2]]
        assert found(GameFilter(rater=ANA, rated=True, presets=("perudo",))) == [ids[0]]
        assert found(GameFilter(presets=())) == []
        assert found(GameFilter(rater="nobody")) == []
    finally:
        store.close()


def test_mine_reads_the_players_games_through_an_index(tmp_path: Path) -> None:
    """The player's games are found through game_players' index on rater, not a scan."""
    url = f"sqlite:///{tmp_path / 'dudo.sqlite3'}"
    write_games(url)
    store = Store(url)
    try:
        where = GameFilter(rater=ANA).where()
        with store.engine.connect() as c:
            query = sa.select(games_table.c.id).where(*where)
            compiled = query.compile(c, compile_kwargs={"literal_binds": True})
            plan = c.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}").all()
        text = json.dumps([list(row) for row in plan])
        assert "game_players_rater" in text, text
    finally:
        store.close()


needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)


@needs_chromium
def test_the_filters_on_a_phone_in_italian(
    browser: Browser, site: tuple[LiveServer, list[int]]
) -> None:
    server, ids = site
    text = words("it")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(
        "localStorage.setItem('dudo.lang', 'it');"
        f"localStorage.setItem('dudo.player.key', {json.dumps(KEYS[BO])});"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    main = page.locator("#games-main")
    shown = page.locator("#games-list a.game-link")

    def ids_shown() -> list[int]:
        return [int(a.get_attribute("data-game") or "0") for a in shown.all()]

    try:
        page.goto(f"{server.url}/games")
        expect(main).to_have_attribute("data-state", "ready")
        expect(main).to_have_attribute("data-count", str(len(ids)))
        expect(page.locator("#games-mine + span")).to_have_text(text["games.filter_mine"])
        page.check("#games-mine")
        expect(main).to_have_attribute("data-count", "3")
        assert ids_shown() == [ids[3], ids[2], ids[0]]
        page.check("#games-rated")
        expect(main).to_have_attribute("data-count", "2")
        expect(page.locator("#games-preset option[value='perudo']")).to_have_text("Perudo")
        page.select_option("#games-preset", "perudo")
        expect(main).to_have_attribute("data-count", "1")
        assert ids_shown() == [ids[0]]
        assert page.url.endswith("/games?mine=1&rated=1&preset=perudo"), page.url
        page.screenshot(path=str(screenshot_dir() / "games-filters-phone-it.png"))

        # Reloaded (or shared), the address gives the same list and the same filters.
        page.reload()
        expect(main).to_have_attribute("data-state", "ready")
        expect(main).to_have_attribute("data-count", "1")
        expect(page.locator("#games-mine")).to_be_checked()
        expect(page.locator("#games-rated")).to_be_checked()
        expect(page.locator("#games-preset")).to_have_value("perudo")

        # Nothing found: the page says the filters found nothing, and how to see every game.
        page.select_option("#games-preset", "cacho")
        expect(main).to_have_attribute("data-count", "0")
        expect(page.locator("#games-none")).to_be_visible()
        expect(page.locator("#games-none-text")).to_have_text(text["games.empty_filtered"])
        expect(page.locator("#games-empty")).to_be_hidden()
        page.screenshot(path=str(screenshot_dir() / "games-filters-empty-phone-it.png"))
        page.click("#games-clear")
        expect(main).to_have_attribute("data-count", str(len(ids)))
        expect(page.locator("#games-mine")).not_to_be_checked()

        # A link with a value the list does not take: the server's reason, in Italian.
        page.goto(f"{server.url}/games?rated=maybe")
        expect(main).to_have_attribute("data-state", "refused")
        expect(page.locator("#games-none-text")).to_have_text(
            text["error.bad_filter"].replace("{name}", "rated")
        )
    finally:
        context.close()
    assert not errors, errors
