"""The browser client's pages, each with the shared top bar put in once at start."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse

from dudo.server.routes.games import MAX_GAME_ID

WEB_DIR = Path(__file__).resolve().parent.parent.parent / "web"
PAGES = ("index.html", "table.html", "cup.html", "games.html", "replay.html")
_TOPBAR = re.compile(r"^  <!-- topbar -->\n(?P<items>(?:.*\n)*?)  <!-- /topbar -->\n", re.MULTILINE)


def render_page(name: str) -> str:
    """A page of the web client with the shared top bar (``web/topbar.html``) put in for
    its topbar markers: the page's own items after the brand, and its nav link marked
    as the current page."""
    html = (WEB_DIR / name).read_text(encoding="utf-8")
    partial = (WEB_DIR / "topbar.html").read_text(encoding="utf-8")
    header = partial[partial.index("  <header") :]
    here = f'<a href="/{name.removesuffix(".html")}"'
    header = header.replace(here + " ", here + ' aria-current="page" ')
    found = _TOPBAR.search(html)
    if found is None:
        raise RuntimeError(f"web/{name} has no topbar markers")
    header = header.replace("    <!-- page items -->\n", found["items"])
    return html[: found.start()] + header + html[found.end() :]


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

    @router.get("/cup")
    async def cup_page() -> HTMLResponse:
        return page("cup.html")

    @router.get("/games")
    async def games_page() -> HTMLResponse:
        return page("games.html")

    @router.get("/games/{game_id}")
    async def replay_page(game_id: int) -> HTMLResponse:
        if not 0 < game_id <= MAX_GAME_ID:
            raise HTTPException(404, f"there is no finished game {game_id}")
        return page("replay.html")

    return router
