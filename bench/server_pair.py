"""Two versions of the server compared in the same minutes: the CPU per action of each.

Run by hand (not a test), with two checkouts of the project (``git worktree add``):

    python bench/server_pair.py OLD NEW [--rounds 4] [--tables 500] [--duration 20]
                                        [--warmup 10]

Runs of ``bench/server_load.py`` one after the other vary by 10-20 % on a shared machine, more
than most changes worth measuring. So each round runs both at once: each checkout's own
``bench/server_load.py`` with its own ``src`` (``PYTHONPATH``), both pinned as that benchmark
pins (so the two servers share core 0 and the two load clients core 1), and whatever slows
the machine slows both. Reported: each round's server CPU per action (``server CPU per
action``, or, from a version that does not print it, its CPU% over its actions per second,
which is coarser), their ratio NEW / OLD, and the median ratio of the rounds.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

PRECISE = re.compile(r"^server CPU per action: ([0-9.]+) ms", re.MULTILINE)


def start(tree: Path, args: argparse.Namespace) -> subprocess.Popen[str]:
    command = [sys.executable, str(tree / "bench" / "server_load.py")]
    command += ["--tables", str(args.tables), "--duration", str(args.duration)]
    command += ["--warmup", str(args.warmup)]
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    return subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def cpu_per_action(output: str, tables: int) -> float:
    """Milliseconds of server CPU per action, from a load run's report."""
    found = PRECISE.search(output)
    if found is not None:
        return float(found[1])
    for line in output.splitlines():
        cells = line.split()
        if cells and cells[0] == str(tables) and len(cells) > 10 and cells[10].endswith("%"):
            return float(cells[10].rstrip("%")) / 100 / float(cells[4]) * 1000
    raise SystemExit(f"no CPU per action in this report:\n{output[-2000:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="a checkout of the version to compare against")
    parser.add_argument("new", type=Path, help="a checkout of the version measured")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    args = parser.parse_args()
    for tree in (args.old, args.new):
        if not (tree / "bench" / "server_load.py").is_file() or not (tree / "src").is_dir():
            raise SystemExit(f"{tree}: not a checkout of dudo (no src/ and bench/server_load.py)")
    ratios = []
    for number in range(1, args.rounds + 1):
        old = start(args.old, args)
        time.sleep(0.5)  # the two servers do not ask for the same free port at once
        new = start(args.new, args)
        old_out, _ = old.communicate()
        new_out, _ = new.communicate()
        old_ms = cpu_per_action(old_out, args.tables)
        new_ms = cpu_per_action(new_out, args.tables)
        ratios.append(new_ms / old_ms)
        print(
            f"round {number}: old {old_ms:.3f} ms, new {new_ms:.3f} ms per action; "
            f"ratio {ratios[-1]:.3f}",
            flush=True,
        )
    print(f"median ratio new/old over {args.rounds} rounds: {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
