"""``dudo odds``: the exact chance of a bid from your dice, printed for people.

The numbers come from :func:`dudo.odds.bid_odds`; this module reads the command line's
text (a bid in any notation, dice as ``1,3,3,5,6``) and prints the answer: the chance the
bid is true and exactly right, then a table with each face's expected count and its highest
bid that is at least even money, with the bid one higher, all in the language given
(``lang``; a decimal comma in Spanish and Italian). Exit codes: 0, or 2 for bad input (one
line saying what was wrong; its reason is English).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from rich.console import Console
from rich.table import Table
from rich.text import Text

from dudo.engine.actions import Bid
from dudo.engine.errors import DudoError
from dudo.engine.rules import rules_from_settings
from dudo.notation import LANGUAGES, face_name, format_action, parse_action
from dudo.odds import BidOdds, bid_odds
from dudo.terminal.narration import rules_label
from dudo.terminal.review import counting_text
from dudo.terminal.texts import chance, decimal
from dudo.terminal.texts import text as message

__all__ = ["odds_command", "parse_dice"]

_SEPARATORS = re.compile(r"[\s,;]+")


def parse_dice(what: str, text: str | None) -> tuple[int, ...]:
    """Dice (or dice counts) written as ``1,3,3,5,6`` or with spaces; empty or None: none."""
    if text is None:
        return ()
    dice = []
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        if not token.isdigit():
            raise DudoError(f"{what}: {token!r} is not a whole number; write them like 1,3,3,5,6")
        dice.append(int(token))
    return tuple(dice)


def odds_command(
    bid_words: Sequence[str],
    *,
    dice: str | None = None,
    unknown: int | None = None,
    others: str | None = None,
    revealed: str | None = None,
    rules_name: str = "dudo",
    settings: Sequence[str] = (),
    obliging: bool = False,
    exact: bool = False,
    lang: str = "en",
    console: Console,
) -> int:
    """Print the odds of the bid in ``bid_words`` (joined by spaces; none: every face's
    expected count and likeliest bids). Returns the exit code: 0, or 2 for bad input."""
    try:
        if lang not in LANGUAGES:
            languages = ", ".join(LANGUAGES)
            raise DudoError(message("en", "unknown_language", lang=repr(lang), languages=languages))
        rules = rules_from_settings(rules_name, settings)
        text = " ".join(bid_words).strip()
        bid = _bid(text, rules.faces) if text else None
        counts = None if others is None else parse_dice("--others", others)
        yours = parse_dice("--dice", dice)
        seen = parse_dice("--revealed", revealed)
        odds = bid_odds(
            rules, yours, unknown, others=counts, revealed=seen, obliging=obliging, bid=bid
        )
    except DudoError as exc:
        console.print(Text(message(lang, "error", error=exc), style="red"), soft_wrap=True)
        return 2
    header = message(
        lang,
        "odds_header",
        dice=_dice_text(yours, lang),
        seen=message(lang, "odds_seen", dice=_dice_text(seen, lang)) if seen else "",
        unknown=odds.unknown,
        rules=rules_label(rules, rules_name.strip().lower(), lang),
        counting=counting_text(odds.counting, obliging, lang),
    )
    console.print(Text(header), soft_wrap=True)
    _show(console, odds, exact, lang)
    return 0


def _bid(text: str, faces: int) -> Bid:
    action = parse_action(text, faces)
    if not isinstance(action, Bid):
        raise DudoError(f"{text!r} is not a bid; give one such as 5x3 or 'five threes'")
    return action


def _dice_text(dice: Sequence[int], lang: str) -> str:
    return " ".join(str(d) for d in dice) or message(lang, "no_dice")


def _show(console: Console, odds: BidOdds, exact: bool, lang: str) -> None:
    bid = odds.bid
    if bid is not None and odds.probability is not None and odds.spot_on is not None:
        words = format_action(bid, lang, "long")
        line = Text(message(lang, "odds_true", bid=bid, words=words), style="bold")
        line.append(chance(lang, odds.probability), style="bold green")
        if exact:
            line.append(f"  = {_fraction(odds.probability)}")
        console.print(line, soft_wrap=True)
        line = Text(message(lang, "odds_exact"))
        line.append(chance(lang, odds.spot_on), style="bold")
        if exact:
            line.append(f"  = {_fraction(odds.spot_on)}")
        console.print(line, soft_wrap=True)
    table = Table(title=None, show_edge=False, pad_edge=False)
    table.add_column(message(lang, "col_face"))
    for key in ("col_expected", "col_highest", "col_chance", "col_one_more", "col_chance"):
        table.add_column(message(lang, key), justify="right")
    for face in odds.faces:
        expected = odds.expected[face]
        shown = decimal(lang, expected, 2) + (f" = {_fraction(expected)}" if exact else "")
        best = odds.likeliest(face)
        higher = Bid((best[0].quantity if best else 0) + 1, face)
        row = [
            f"{face} {face_name(face, lang, plural=True)}",
            shown,
            str(best[0]) if best else "-",
            chance(lang, best[1]) if best else "",
            str(higher),
            chance(lang, odds.at_least(higher)),
        ]
        table.add_row(*row, style="bold" if bid is not None and face == bid.face else "")
    console.print(table)


def _fraction(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)
