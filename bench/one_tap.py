"""One tap to a game against bots: how long from the tap on "Play against bots" on the first
page to the table page showing the running game with the player's dice.

Run by hand (not a test; the browser test checks that the tap gives the game):

    python bench/one_tap.py [--repeats 7] [--chromium /usr/bin/chromium]

It starts ``dudo serve`` on 127.0.0.1 with a fresh temporary SQLite data folder, then, each
repeat in a new browser context of Chromium (a phone, 390×844, no cache), opens the first page,
waits until it is ready, and measures with ``time.perf_counter`` from the click until
``main#table-main`` says ``playing`` and the first of the player's dice is visible. It prints
each time, the median and the worst. The first repeat pays Chromium's own start-up of a page
process, as a person's first visit does.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lobby_latency import free_port, start_server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        port = free_port()
        server = start_server(Path(folder), port)
        browser = playwright.chromium.launch(executable_path=args.chromium)
        try:
            for n in range(args.repeats):
                context = browser.new_context(viewport={"width": 390, "height": 844})
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{port}/")
                page.fill("#play-name", f"Ana{n}")
                expect(page.locator("#bots-level option").first).to_be_attached()
                start = time.perf_counter()
                page.click("#play-bots")
                expect(page.locator("main#table-main")).to_have_attribute(
                    "data-status", "playing", timeout=30_000
                )
                expect(page.locator("#my-dice .die").first).to_be_visible(timeout=30_000)
                times.append(time.perf_counter() - start)
                print(f"tap {n + 1}: {times[-1]:.2f} s", flush=True)
                context.close()
        finally:
            browser.close()
            server.terminate()
            server.wait()
    print(f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s")


if __name__ == "__main__":
    main()
