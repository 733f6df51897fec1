"""Which abstract rounds of its book should ``hard`` play? Local best responses against each bar.

Run by hand (not a test), after building the book (``dudo solve-game --rules dudo``):

    python bench/claims_recall.py [--rules dudo] [--position 3v3 5v5] [--recall 2 3 4 99]
                                  [--games 400] [--seed 0] [--workers 2]

``hard`` plays an abstract round of its book only if the round remembers at least
``min_recall`` bids (the book's ``min_recall``, :data:`dudo.solver.book.PLAY_RECALL` when it
was built), else its lookahead. For each position and each ``--recall`` given as the
bot's ``min_recall`` (99: the lookahead everywhere beyond the whole-tree rounds), a local best
response plays ``--games`` rounds against it (:func:`dudo.exploit.lbr`, half in each
seat), and the table gives its mean payoff a round with a 95% interval: a lower bound on how
exploitable ``hard`` is there. The book is the one ``hard`` finds for the rules
(``$DUDO_HOME/strategies``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time

from dudo.bots import make_bot
from dudo.bots.book import BookBot
from dudo.engine import preset
from dudo.exploit import lbr
from dudo.solver.book import find_book
from dudo.terminal.exploit import parse_position


def measure(cell: tuple[str, str, int, int, int]) -> tuple[str, int, float, float, float]:
    rules_name, position_text, recall, games, seed = cell
    rules = preset(rules_name)
    bot = make_bot("hard", random.Random(seed))
    assert isinstance(bot, BookBot)
    bot.min_recall = recall
    started = time.perf_counter()
    found = lbr(rules, parse_position(position_text), bot, games, seed)
    return position_text, recall, found.value, found.half_width, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="dudo")
    parser.add_argument("--position", nargs="+", default=["3v3", "5v5"])
    parser.add_argument("--recall", nargs="+", type=int, default=[2, 3, 4, 99])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rules = preset(args.rules)
    book = find_book(rules)
    if book is None:
        raise SystemExit(f"no book for {args.rules}: build one with dudo solve-game first")
    print(f"book {book.directory} (its min_recall: {book.min_recall})")
    for text in args.position:
        position = parse_position(text)
        kind = book.kind(position) if book.key(position) == position else None
        recall = book.abstract(position).recall if kind == "abstract" else None
        print(
            f"  {text}: {kind or 'not in the book'}"
            + (f", remembers {recall} bids" if recall else "")
        )
    cells = [(args.rules, p, r, args.games, args.seed) for p in args.position for r in args.recall]
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(measure, cells)
    print(f"\nLBR against hard under {args.rules}, {args.games} rounds a cell (+1/-1 a round)")
    print("position  min_recall  LBR mean  ±95%    seconds")
    for text, recall, value, half, seconds in results:
        print(f"{text:>8}  {recall:>10}  {value:+8.3f}  {half:.3f}  {seconds:7.0f}")


if __name__ == "__main__":
    main()
