"""The browser client's pages, each with the shared top bar put in once at start."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from dudo.server.errors import ErrorCode, Refused
from dudo.server.routes.games import MAX_GAME_ID
from dudo.server.routes.ratings import check_family
from dudo.server.routes.tutorial import lesson_named

WEB_DIR = Path(__file__).resolve().parent.parent.parent / "web"
PAGES = (
    "index.html",
    "table.html",
    "screen.html",
    "cup.html",
    "games.html",
    "replay.html",
    "ratings.html",
    "profile.html",
    "tutorial.html",
    "learn.html",
    "glossary.html",
    "watch.html",
)
#: Pages whose top-bar link is another page's: the glossary is part of learning the game.
_NAV_OF = {"glossary.html": "/learn"}
_TOPBAR = re.compile(r"^  <!-- topbar -->\n(?P<items>(?:.*\n)*?)  <!-- /topbar -->\n", re.MULTILINE)


def render_page(name: str) -> str:
    """A page of the web client with the shared top bar (``web/topbar.html``) put in for
    its topbar markers: the page's own items after the brand, and its nav link marked
    as the current page."""
    html = (WEB_DIR / name).read_text(encoding="utf-8")
    partial = (WEB_DIR / "topbar.html").read_text(encoding="utf-8")
    header = partial[partial.index("  <header") :]
    here = f'<a href="{_NAV_OF.get(name, "/" + name.removesuffix(".html"))}"'
    header = header.replace(here + " ", here + ' aria-current="page" ')
    found = _TOPBAR.search(html)
    if found is None:
        raise RuntimeError(f"web/{name} has no topbar markers")
    header = header.replace("    <!-- page items -->\n", found["items"])
    return html[: found.start()] + header + html[found.end() :]


#: The stand-in in ``web/sw.js`` for the version of the web client's files.
SW_VERSION_MARK = "__DUDO_WEB_VERSION__"


def web_version() -> str:
    """A short hash of every file of the web client (names and contents): any change to the
    pages, scripts, styles, strings or icons gives the service worker a new version, so a
    phone that installed it refreshes its offline copy of the cup."""
    digest = hashlib.sha256()
    for path in sorted(WEB_DIR.rglob("*")):
        if path.is_file() and path.suffix not in {".py", ".pyc"}:
            digest.update(path.relative_to(WEB_DIR).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def service_worker() -> str:
    """``web/sw.js`` with the current :func:`web_version` put in."""
    script = (WEB_DIR / "sw.js").read_text(encoding="utf-8")
    if SW_VERSION_MARK not in script:
        raise RuntimeError(f"web/sw.js has no {SW_VERSION_MARK} mark")
    return script.replace(SW_VERSION_MARK, web_version())


def pages_router() -> APIRouter:
    """The page routes; the pages are assembled when the router is made."""
    router = APIRouter(include_in_schema=False)
    pages = {name: render_page(name) for name in PAGES}

    def page(name: str) -> HTMLResponse:
        return HTMLResponse(pages[name], headers={"Cache-Control": "no-cache"})

    @router.get("/")
    async def index() -> HTMLResponse:
        return page("index.html")

    @router.get("/t/{code}")
    async def table_page(code: str) -> HTMLResponse:
        return page("table.html")

    @router.get("/t/{code}/screen")
    async def screen_page(code: str) -> HTMLResponse:
        # The shared screen of a table (a laptop or TV at a real table): whether the table
        # exists the page learns from its socket, and says so in its language.
        return page("screen.html")

    @router.get("/cup")
    async def cup_page() -> HTMLResponse:
        return page("cup.html")

    @router.get("/watch")
    async def watch_page() -> HTMLResponse:
        return page("watch.html")

    @router.get("/games")
    async def games_page() -> HTMLResponse:
        return page("games.html")

    @router.get("/games/{game_id}")
    async def replay_page(game_id: int) -> HTMLResponse:
        if not 0 < game_id <= MAX_GAME_ID:
            raise Refused(
                ErrorCode.NO_FINISHED_GAME, f"there is no finished game {game_id}", 404, id=game_id
            )
        return page("replay.html")

    @router.get("/ratings")
    async def ratings_page() -> HTMLResponse:
        return page("ratings.html")

    @router.get("/ratings/{family}")
    async def family_page(family: str) -> HTMLResponse:
        check_family(family)
        return page("ratings.html")

    @router.get("/learn")
    async def learn_page() -> HTMLResponse:
        return page("learn.html")

    @router.get("/learn/glossary")
    async def glossary_page() -> HTMLResponse:
        return page("glossary.html")

    @router.get("/learn/{family}")
    async def learn_family_page(family: str) -> HTMLResponse:
        # One page per rule family; its sentences are made by the page from the family's preset.
        check_family(family)
        return page("learn.html")

    @router.get("/players/{rater}")
    async def profile_page(rater: str) -> HTMLResponse:
        # Whether the player exists the page asks the API (and says so in its language).
        return page("profile.html")

    @router.get("/tutorial")
    @router.get("/tutorial/{lesson}")
    async def tutorial_page(lesson: str | None = None) -> HTMLResponse:
        if lesson is not None:
            lesson_named(lesson)  # an unknown lesson is a 404, in the page's language
        return page("tutorial.html")

    _app_files(router)
    return router


def _app_files(router: APIRouter) -> None:
    """The service worker and the web app manifest, served from the site's root."""
    worker = service_worker()
    manifest = (WEB_DIR / "manifest.webmanifest").read_bytes()

    @router.get("/sw.js")
    async def sw_script() -> Response:
        # Served from the root, not /static/, so the worker's scope covers /cup; no-cache makes
        # the browser check for a new release on every visit.
        return Response(
            worker,
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )

    @router.get("/manifest.webmanifest")
    async def web_manifest() -> Response:
        return Response(
            manifest,
            media_type="application/manifest+json",
            headers={"Cache-Control": "no-cache"},
        )
