"""The security headers: on every answer of a real ``dudo serve`` (every route of the app, every
static file, every kind of error), and the web client working under its Content-Security-Policy
in a real Chromium (no page of it needs inline script or style)."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator, Sequence

import httpx
from fastapi.routing import APIRoute, APIWebSocketRoute
from playwright.sync_api import Browser, ConsoleMessage, Page, expect
from starlette.routing import BaseRoute, Mount

from dudo.server.app import create_app
from dudo.server.routes.pages import WEB_DIR

from .conftest import LiveServer, api, bearer, get_table, host_post, new_table
from .test_browser import create_table, is_over, take_turn

EXPECTED = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
GAME_SECONDS = 120.0


def assert_secured(response: httpx.Response) -> None:
    where = f"{response.request.method} {response.request.url.path} ({response.status_code})"
    for name, value in EXPECTED.items():
        assert response.headers.get(name) == value, (
            f"{where}: {name} is {response.headers.get(name)!r}"
        )
    policy = response.headers.get("content-security-policy", "")
    directives = {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}
    assert directives.get("script-src") == ["'self'"], f"{where}: CSP {policy!r}"
    assert directives.get("style-src") == ["'self'"], f"{where}: CSP {policy!r}"
    assert directives.get("frame-ancestors") == ["'none'"], f"{where}: CSP {policy!r}"
    assert directives.get("object-src") == ["'none'"], f"{where}: CSP {policy!r}"
    features = response.headers.get("permissions-policy", "")
    assert "camera=()" in features and "geolocation=()" in features, f"{where}: {features!r}"
    assert "vibrate" not in features, "the dice cup vibrates the phone"


def all_routes(routes: Sequence[BaseRoute]) -> Iterator[BaseRoute]:
    """The app's routes, with those of included routers (which newer FastAPI versions keep
    wrapped, each under its ``original_router``) listed one by one."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from all_routes(inner.routes)
        else:
            yield route


def concrete(path: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: values[m[1]], path)


def test_every_route_static_file_and_error_carries_the_headers(
    shared_server: LiveServer,
) -> None:
    created = new_table(shared_server, seats=3, bots=["easy"])
    code, token = created["code"], created["token"]
    with api(shared_server) as http:
        cup = http.post("/api/cups").json()
        values = {
            "code": code,
            "seat": "1",
            "game_id": "1",
            "cup_id": cup["id"],
            "op": "roll",
            "lang": "en",
            "player_id": "nobody",
            "family": "perudo",
            "rater": "bot:easy",
            "lesson": "dudo",
            "name": "dudo",
        }
        auth = {"/api/cups": bearer(cup["token"]), "/api/tables": bearer(token)}
        app = create_app("sqlite://")
        checked = 0
        for route in all_routes(app.routes):
            if isinstance(route, APIRoute):
                headers = next((h for p, h in auth.items() if route.path.startswith(p)), {})
                for method in sorted(route.methods or ()):
                    assert_secured(
                        http.request(method, concrete(route.path, values), headers=headers)
                    )
                    checked += 1
            elif isinstance(route, APIWebSocketRoute):
                # A plain GET of the WebSocket's path (no upgrade) is answered over HTTP.
                assert_secured(http.get(concrete(route.path, values)))
                checked += 1
            elif isinstance(route, Mount) and route.path == "/static":
                for file in sorted(WEB_DIR.rglob("*")):
                    if file.is_file() and "__" not in file.name:
                        response = http.get(f"/static/{file.relative_to(WEB_DIR).as_posix()}")
                        assert response.status_code == 200, response.url
                        assert_secured(response)
                        checked += 1
        assert checked > 40, f"only {checked} answers checked: routes not found"
        errors = [
            http.get("/no/such/page"),
            http.get("/static/no-such-file.js"),
            http.put("/api/tables"),  # 405
            http.get("/api/tables/NOPE22"),  # 404 from a route
            http.post(f"/api/tables/{code}/start"),  # 401: no token
            http.post("/api/tables", content="{", headers={"Content-Type": "application/json"}),
            http.post("/api/tables", json={"name": "Ana", "pad": "x" * 20_000}),  # 413
            http.get("/openapi.json"),
            http.head("/"),
            http.options("/api/tables"),
        ]
    assert {r.status_code for r in errors} >= {200, 401, 404, 405, 413, 422}
    for response in errors:
        assert_secured(response)


def test_a_foreign_page_cannot_frame_a_table(shared_server: LiveServer) -> None:
    code = new_table(shared_server)["code"]
    with api(shared_server) as http:
        response = http.get(f"/t/{code}")
    assert response.status_code == 200
    # Both the modern and the old way of saying "never inside a frame".
    policy = response.headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in policy, policy
    assert response.headers.get("x-frame-options") == "DENY"


# --------------------------------------------------------------------------- browser


#: What Chromium writes to the console when a policy header blocks something or is malformed.
POLICY_WORDS = ("Content Security Policy", "Refused to", "Permissions-Policy", "Permissions policy")


def watched_page(browser: Browser, complaints: list[str]) -> Page:
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.set_default_timeout(15_000)

    def console(message: ConsoleMessage) -> None:
        if any(word in message.text for word in POLICY_WORDS):
            complaints.append(f"{page.url}: console {message.type}: {message.text}")

    page.on("console", console)
    page.on("pageerror", lambda exc: complaints.append(f"{page.url}: page error: {exc}"))
    return page


def visit(page: Page, url: str) -> None:
    response = page.goto(url)
    assert response is not None and response.ok, url
    assert "frame-ancestors 'none'" in response.headers.get("content-security-policy", ""), (
        f"{url} is served without the Content-Security-Policy"
    )
    page.wait_for_load_state("networkidle")


def test_every_page_works_under_the_content_security_policy(
    browser: Browser, shared_server: LiveServer
) -> None:
    complaints: list[str] = []
    page = watched_page(browser, complaints)
    visit(page, shared_server.url + "/")
    expect(page.locator("#create-preset option").first).to_be_attached()

    # A table in the lobby, then in a game played to its end through the page.
    code = create_table(page, shared_server)
    visit(page, f"{shared_server.url}/t/{code}")
    expect(page.locator("main#table-main")).to_have_attribute("data-status", "lobby")
    page.click("#start-button")
    expect(page.locator("main#table-main")).to_have_attribute("data-status", "playing")
    expect(page.locator("#my-dice .die")).to_have_count(2)
    rng = random.Random(3)
    deadline = time.monotonic() + GAME_SECONDS
    while not is_over(page):
        assert time.monotonic() < deadline, "the game did not end in time"
        if not take_turn(page, rng):
            time.sleep(0.1)

    # A spectator's view of another table mid-game.
    # Another host: the page's player holds the name "Ana" now.
    other = new_table(shared_server, name="Cy", seats=2, bots=["easy"], bot_seconds=5)
    host_post(shared_server, other["code"], "start", other["token"])
    visit(page, f"{shared_server.url}/t/{other['code']}")
    expect(page.locator("main#table-main")).to_have_attribute("data-status", "playing")

    visit(page, shared_server.url + "/cup")
    page.click("#cup-roll")
    expect(page.locator('#cup-dice .die[data-face="?"]')).to_have_count(0)

    visit(page, shared_server.url + "/games")
    game = {"id": get_table(shared_server, code)["game"]}
    expect(page.locator(f'a.game-link[data-game="{game["id"]}"]')).to_be_attached()
    visit(page, f"{shared_server.url}/games/{game['id']}")
    expect(page.locator("#replay-step")).not_to_be_empty()
    page.click("#replay-next")
    page.click("#replay-last")
    assert not complaints, "\n".join(complaints)


def test_a_framed_table_is_refused_by_the_browser(
    browser: Browser, shared_server: LiveServer
) -> None:
    code = new_table(shared_server)["code"]
    complaints: list[str] = []
    page = watched_page(browser, complaints)
    page.set_content(f'<iframe src="{shared_server.url}/t/{code}"></iframe>')
    page.wait_for_timeout(1000)
    frame = page.frames[-1]
    assert frame is not page.main_frame
    assert not frame.locator("main#table-main").count(), "the table page rendered in a frame"
    assert any("frame-ancestors" in c for c in complaints), complaints
