"""How often each bot calls and how often its calls are right, read from arena records.

Run by hand (not a test):  python bench/call_style.py RUN_FOLDER [RUN_FOLDER ...]

Each folder is a ``dudo arena`` run kept on disk (``--out``). For every bot of the runs:
the rounds it played (it held dice when the round started), the share of them that ended in
its call (in turn or out of turn), and the share of its calls that were right (the bid was
false). ``hard`` against the sparring levels ``caller`` and ``bluffer`` is the intended use::

    dudo arena hard caller --rules liars-dice --dice 5 --common-deals --games 800 --out r1
    python bench/call_style.py r1
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from dudo.engine.events import Called, Revealed, RoundStarted
from dudo.records import read_record, replay


def tally(folders: list[Path]) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Rounds played, calls made and right calls, per bot spec."""
    rounds: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for folder in folders:
        for path in sorted((folder / "games").glob("game-*.json")):
            record = read_record(path)
            bots = [p.bot or p.name for p in record.players]
            pending: Called | None = None
            for event in replay(record).events:
                if isinstance(event, RoundStarted):
                    for seat, dice in enumerate(event.dice_counts):
                        rounds[bots[seat]] += dice > 0
                elif isinstance(event, Called):
                    pending = event
                    calls[bots[event.player]] += 1
                elif isinstance(event, Revealed) and pending is not None:
                    if event.count is not None and event.count < pending.bid.quantity:
                        right[bots[pending.player]] += 1
                    pending = None
    return rounds, calls, right


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+")
    args = parser.parse_args()
    rounds, calls, right = tally(args.folders)
    print("| bot | rounds | calls per round | calls right |")
    print("|---|---:|---:|---:|")
    for bot in sorted(rounds):
        made = calls[bot]
        accuracy = f"{right[bot] / made:.1%}" if made else "-"
        print(f"| {bot} | {rounds[bot]:,} | {made / rounds[bot]:.1%} | {accuracy} |")


if __name__ == "__main__":
    main()
