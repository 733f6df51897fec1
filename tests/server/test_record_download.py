"""A finished game's record as a file: ``GET /api/games/<id>/record?download=1`` answers the
same bytes as the plain route with ``Content-Disposition: attachment; filename="dudo-<id>.json"``
(the plain route stays inline, for programs), an unknown game is a 404 either way; in a real
browser the replay page's and /games' "Download the record" links save that file, and
``dudo verify`` accepts the file saved. Screenshots go to ``artifacts/screenshots`` (or
``$DUDO_SCREENSHOTS``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from typer.testing import CliRunner

from dudo.cli import app as cli

from .conftest import CHROMIUM, LiveServer, Match, api, play_turns, record_of, words
from .test_browser import screenshot_dir

#: One die each and no spot-on: a game of a few rounds.
QUICK = {"dice_per_player": 1, "pass_hands": "none", "spot_on": False}

needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (bash .ci/run installs it)",
)


def finished_game(server: LiveServer, seed: int) -> int:
    """A game of Ana, a bot and Bo played to its end: the game's id."""
    match = Match(server, start=False, options=QUICK)
    try:
        game_id: int = match.start()["game"]
        play_turns(match.players, random.Random(seed))
    finally:
        match.close()
    return game_id


def verify_file(path: Path) -> tuple[int, str]:
    """``dudo verify`` on a saved file: its exit code and output."""
    result = CliRunner().invoke(cli, ["verify", str(path), "--lang", "en"])
    return result.exit_code, result.output


def test_the_download_is_the_record_as_an_attachment(shared_server: LiveServer) -> None:
    game_id = finished_game(shared_server, 5)
    with api(shared_server) as http:
        inline = http.get(f"/api/games/{game_id}/record")
        download = http.get(f"/api/games/{game_id}/record", params={"download": "1"})
    assert inline.status_code == 200 and download.status_code == 200, download.text
    assert "content-disposition" not in inline.headers
    assert download.headers["content-disposition"] == f'attachment; filename="dudo-{game_id}.json"'
    assert download.headers["content-type"].startswith("application/json")
    assert download.content == inline.content
    assert download.json() == record_of(shared_server, game_id)
    with api(shared_server) as http:
        odd = http.get(f"/api/games/{game_id}/record", params={"download": "maybe"})
    assert odd.status_code == 422 and "must be true or false" in odd.json()["detail"], odd.text
    assert "content-disposition" not in odd.headers


def test_an_unknown_game_has_no_download(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        for path in ("/api/games/999999/record", "/api/games/2147483648/record"):
            for params in ({}, {"download": "1"}):
                answer = http.get(path, params=params)
                assert answer.status_code == 404, (path, params, answer.text)
                assert answer.json()["code"] == "no_finished_game"
                assert "content-disposition" not in answer.headers


@needs_chromium
def test_the_pages_download_links_save_a_record_dudo_verify_accepts(
    browser: Browser, shared_server: LiveServer, tmp_path: Path
) -> None:
    game_id = finished_game(shared_server, 6)
    context = browser.new_context(accept_downloads=True, viewport={"width": 390, "height": 844})
    context.add_init_script("localStorage.setItem('dudo.lang', 'es');")
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    try:
        page.goto(f"{shared_server.url}/games/{game_id}")
        expect(page.locator("#replay-main")).to_have_attribute("data-state", "ready")
        link = page.locator("#replay-download")
        expect(link).to_be_visible()
        expect(link).to_have_text(words("es")["games.download"])
        page.screenshot(path=str(screenshot_dir() / "record-download-replay-es-phone.png"))
        with page.expect_download() as caught:
            link.click()
        download = caught.value
        assert download.suggested_filename == f"dudo-{game_id}.json"
        saved = tmp_path / download.suggested_filename
        download.save_as(saved)
        code, out = verify_file(saved)
        assert code == 0 and out.startswith("fair:"), out
        assert saved.read_bytes() == _inline(shared_server, game_id)

        # The same file from the list of finished games.
        page.goto(f"{shared_server.url}/games")
        row_link = page.locator(f'a.game-download[data-game="{game_id}"]')
        expect(row_link).to_have_text(words("es")["games.download"])
        page.screenshot(path=str(screenshot_dir() / "record-download-games-es-phone.png"))
        with page.expect_download() as caught:
            row_link.click()
        assert caught.value.suggested_filename == f"dudo-{game_id}.json"
        listed = tmp_path / "listed.json"
        caught.value.save_as(listed)
        assert listed.read_bytes() == saved.read_bytes()
    finally:
        context.close()
    assert not errors, errors


def _inline(server: LiveServer, game_id: int) -> bytes:
    with api(server) as http:
        return http.get(f"/api/games/{game_id}/record").content
