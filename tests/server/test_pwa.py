"""The installable web client, against a real ``dudo serve`` and a real Chromium: the web app
manifest and its icons, the service worker at ``/sw.js``, and the dice cup working offline
after one visit (rolled and trimmed on the phone, kept across offline reloads), while the
API is never answered from the worker's store.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from dudo.server.routes import pages
from dudo.server.routes.pages import SW_VERSION_MARK, web_version

from .conftest import LiveServer, words
from .test_browser import PHONE, screenshot_dir
from .test_security import POLICY_WORDS

#: One URL of each page of the web client (the table and replay pages need no real table).
PAGE_URLS = ("/", "/t/ABCDE", "/t/ABCDE/screen", "/cup", "/games", "/games/1")
#: What Chromium logs when a fetch fails because the context is offline; expected offline only.
OFFLINE_ERROR = "net::ERR_INTERNET_DISCONNECTED"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header (its IHDR chunk comes first)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.fixture
def client(shared_server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=shared_server.url, timeout=10) as http:
        yield http


def test_the_manifest_is_served_with_its_type_and_its_icons_load(client: httpx.Client) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(answer.content)
    assert manifest["name"] == "Dudo"
    assert manifest["short_name"]
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    colour = re.compile(r"#[0-9a-f]{6}")
    assert colour.fullmatch(manifest["theme_color"])
    assert colour.fullmatch(manifest["background_color"])
    css = client.get("/static/app.css").text
    assert manifest["background_color"] in css, "the splash colour is the page's felt"
    sizes = set()
    purposes = set()
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200, icon["src"]
        assert image.headers["content-type"] == icon["type"] == "image/png"
        width, height = png_size(image.content)
        assert icon["sizes"] == f"{width}x{height}", icon["src"]
        sizes.add(width)
        purposes.add(icon["purpose"])
    assert {192, 512} <= sizes
    assert {"any", "maskable"} <= purposes
    touch = client.get("/static/apple-touch-icon.png")
    assert touch.status_code == 200
    assert png_size(touch.content) == (180, 180)


def test_every_page_links_the_manifest_and_the_icons(client: httpx.Client) -> None:
    for url in PAGE_URLS:
        head = client.get(url).text.split("</head>")[0]
        assert '<link rel="manifest" href="/manifest.webmanifest">' in head, url
        assert '<link rel="apple-touch-icon" href="/static/apple-touch-icon.png">' in head, url
        assert '<meta name="theme-color" content="#0b3d24">' in head, url
        # The light theme's bar colour comes first: the first theme-color whose media matches.
        light = '<meta name="theme-color" content="#f5f2e6" media="(prefers-color-scheme: light)">'
        assert head.index(light) < head.index('<meta name="theme-color" content="#0b3d24">'), url


def test_the_service_worker_is_served_from_the_root_with_its_version(
    client: httpx.Client,
) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    assert answer.headers["service-worker-allowed"] == "/"
    script = answer.text
    assert SW_VERSION_MARK not in script
    assert f'const VERSION = "{web_version()}";' in script
    # Everything it stores answers, and none of it is the API or a socket.
    found = re.search(r"const PRECACHE = \[(.*?)\];", script, re.DOTALL)
    assert found is not None
    stored = re.findall(r'"([^"]+)"', found[1])
    assert "/cup" in stored and "/static/cup.js" in stored
    for url in stored:
        assert not url.startswith(("/api/", "/ws/")), url
        assert client.get(url).status_code == 200, url
    # Every module /cup loads, and every module those import, is stored.
    modules = {"/static/cup.js"}
    pending = ["/static/cup.js"]
    while pending:
        source = client.get(pending.pop()).text
        for name in re.findall(r'^import (?:.* from )?"(/static/[^"]+)";', source, re.MULTILINE):
            if name not in modules:
                modules.add(name)
                pending.append(name)
    assert modules <= set(stored), modules - set(stored)


def watch(page: Page, errors: list[str], offline: list[bool]) -> None:
    """Collect page errors, console errors and policy complaints (a failed fetch is expected
    while ``offline[0]`` is true)."""

    def console(message: ConsoleMessage) -> None:
        if any(word in message.text for word in POLICY_WORDS):
            errors.append(f"{page.url}: policy: {message.text}")
        elif message.type == "error" and not (offline[0] and OFFLINE_ERROR in message.text):
            errors.append(f"{page.url}: console error: {message.text}")

    page.on("console", console)
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: page error: {exc}"))


def worker_ready(page: Page, what: str) -> object:
    """``what`` of the active service worker's registration, failing after 10 s rather than
    waiting for ever (``serviceWorker.ready`` never settles when nothing registers)."""
    return page.evaluate(
        f"""Promise.race([
             navigator.serviceWorker.ready.then((r) => {what}),
             new Promise((_, fail) => setTimeout(() => fail(new Error("no worker")), 10000)),
           ])"""
    )


def faces(page: Page) -> list[str]:
    return [
        str(f)
        for f in page.locator("#cup-dice .die").evaluate_all("ds => ds.map(d => d.dataset.face)")
    ]


def cup_ready(page: Page) -> None:
    expect(page.locator("#cup-main")).to_have_attribute("data-state", "ready")


def test_every_page_registers_the_service_worker(
    browser: Browser, shared_server: LiveServer
) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    page.set_default_timeout(15_000)
    watch(page, errors, [False])
    for url in PAGE_URLS:
        page.goto(shared_server.url + url)
        scope = worker_ready(page, "r.scope")
        assert scope == shared_server.url + "/", url
    # The table page of an unknown code says so with a 404 the page expects; nothing else.
    assert all("404" in e for e in errors), "\n".join(errors)
    context.close()


def test_the_cup_works_offline_after_one_visit(browser: Browser, shared_server: LiveServer) -> None:
    errors: list[str] = []
    offline = [False]
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    page.set_default_timeout(15_000)
    watch(page, errors, offline)
    cup_url = shared_server.url + "/cup"

    # One visit online: the worker installs, stores the cup, and controls the next load.
    page.goto(cup_url)
    cup_ready(page)
    assert worker_ready(page, "!!r.active")
    page.reload()
    cup_ready(page)
    assert page.evaluate("!!navigator.serviceWorker.controller"), "the worker controls /cup"
    expect(page.locator("#cup-main")).to_have_attribute("data-local", "false")
    expect(page.locator("#cup-offline")).to_be_hidden()
    page.click("#cup-roll")
    expect(page.locator('#cup-dice .die[data-face="?"]')).to_have_count(0)
    online_faces = faces(page)
    assert len(online_faces) == 5

    # Offline: the page comes from the worker's store and the cup goes on from its copy.
    offline[0] = True
    context.set_offline(True)
    page.reload()
    cup_ready(page)
    expect(page.locator("#cup-main")).to_have_attribute("data-local", "true")
    expect(page.locator("#cup-offline")).to_be_visible()
    expect(page.locator("#cup-offline")).to_contain_text("this phone")
    assert faces(page) == online_faces
    page.click("#cup-roll")
    page.click("#cup-remove")
    expect(page.locator("#cup-count")).to_have_attribute("data-count", "4")
    four = faces(page)
    assert len(four) == 4 and all(face in "123456" for face in four)
    # Adding rolls only the new die; removing drops the last one; never more than 5 dice.
    page.click("#cup-add")
    expect(page.locator("#cup-count")).to_have_attribute("data-count", "5")
    expect(page.locator("#cup-add")).to_be_disabled()
    assert faces(page)[:4] == four
    page.click("#cup-remove")
    kept = faces(page)
    assert kept == four
    page.click("#cup-hide")
    page.click("#cup-cover")
    expect(page.locator("#cup-main")).to_have_attribute("data-hidden", "false")

    # Another offline reload keeps the dice.
    page.reload()
    cup_ready(page)
    expect(page.locator("#cup-count")).to_have_attribute("data-count", "4")
    assert faces(page) == kept
    page.wait_for_timeout(700)  # the notice and dice settle before the picture
    page.screenshot(path=str(screenshot_dir() / "cup-offline-phone.png"))

    # The API is never answered from the store: offline it fails, and nothing of it is kept.
    fetched = page.evaluate(
        "fetch('/api/presets').then((r) => 'answered ' + r.status, () => 'failed')"
    )
    assert fetched == "failed"
    stored = page.evaluate(
        """caches.keys().then((names) => Promise.all(names.map((name) =>
             caches.open(name).then((c) => c.keys()).then((rs) => rs.map((r) => r.url)))))"""
    )
    urls = [url for group in stored for url in group]
    assert f"{cup_url}" in urls
    assert not [url for url in urls if "/api/" in url or "/ws/" in url], urls

    # Online again: the dice stay on the phone until a new game, which goes back to the server.
    context.set_offline(False)
    offline[0] = False
    page.reload()
    cup_ready(page)
    assert faces(page) == kept
    expect(page.locator("#cup-main")).to_have_attribute("data-local", "true")
    page.click("#cup-new")
    expect(page.locator("#cup-main")).to_have_attribute("data-local", "false")
    expect(page.locator("#cup-count")).to_have_attribute("data-count", "5")
    expect(page.locator("#cup-offline")).to_be_hidden()
    assert not errors, "\n".join(errors)
    context.close()


def test_the_worker_version_changes_with_any_web_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    web = tmp_path / "web"
    shutil.copytree(pages.WEB_DIR, web)
    monkeypatch.setattr(pages, "WEB_DIR", web)
    before = pages.web_version()
    assert pages.web_version() == before, "the version is stable while nothing changes"
    (web / "i18n" / "it.json").write_text("{}", encoding="utf-8")
    changed = pages.web_version()
    assert changed != before
    (web / "icon-192.png").write_bytes(b"")
    assert pages.web_version() != changed
    assert f'"{pages.web_version()}"' in pages.service_worker()


def test_the_installed_app_started_offline_opens_on_the_cup(
    browser: Browser, shared_server: LiveServer, client: httpx.Client
) -> None:
    """The manifest's start page (/) needs the server; after one visit, opening it with no
    connection lands on the dice cup, which works offline and says why it opened, instead of
    the browser's error page. Online, the start page is the home page as ever."""
    start = shared_server.url + json.loads(client.get("/manifest.webmanifest").content)["start_url"]
    errors: list[str] = []
    offline = [False]
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    context.add_init_script("localStorage.setItem('dudo.lang', 'es')")
    page = context.new_page()
    page.set_default_timeout(15_000)
    watch(page, errors, offline)
    page.goto(start)
    expect(page.locator("#play-bots")).to_be_visible()
    assert worker_ready(page, "!!r.active")

    offline[0] = True
    context.set_offline(True)
    page.goto(start)
    cup_ready(page)
    assert page.url == shared_server.url + "/cup?offline=start"
    expect(page.locator("#cup-main")).to_have_attribute("data-local", "true")
    notice = page.locator("#cup-offline-start")
    expect(notice).to_be_visible()
    expect(notice).to_have_text(words("es")["cup.offline_start"])
    page.click("#cup-roll")
    expect(page.locator('#cup-dice .die[data-face="?"]')).to_have_count(0)
    assert len(faces(page)) == 5

    context.set_offline(False)
    offline[0] = False
    page.goto(start)
    assert page.url == start
    expect(page.locator("#play-bots")).to_be_visible()
    assert not errors, "\n".join(errors)
    context.close()
