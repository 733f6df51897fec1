"""``dudo odds``: the printed chances checked against brute force over every roll of the
unknown dice, counted by the engine; bad input exits 2 with one line."""

from __future__ import annotations

import io
import itertools
import os
import subprocess
import sys
from collections.abc import Sequence
from fractions import Fraction
from math import comb

import pytest
from rich.console import Console

from dudo.engine import Bid, count_matching
from dudo.odds import format_chance
from dudo.terminal.odds_screen import odds_command, parse_dice


def brute_force(
    bid: Bid, known: Sequence[int], unknown: int, *, wild: bool, needs_natural: bool
) -> tuple[Fraction, Fraction]:
    """(P(true), P(exactly right)) over every roll of the unknown dice, counted by the engine."""
    true = exact = 0
    rolls = 0
    for roll in itertools.product(range(1, 7), repeat=unknown):
        count = count_matching([known, roll], bid.face, wild, needs_natural)
        rolls += 1
        true += count >= bid.quantity
        exact += count == bid.quantity
    return Fraction(true, rolls), Fraction(exact, rolls)


def odds(*args: str, **kw: object) -> tuple[int, str]:
    """Run the command in this process, as the CLI does, on a console writing to a string."""
    console = Console(file=io.StringIO(), width=120)
    code = odds_command(list(args), console=console, **kw)  # type: ignore[arg-type]
    return code, console.file.getvalue()  # type: ignore[attr-defined]


def run_dudo(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="120")
    return subprocess.run(
        [sys.executable, "-m", "dudo", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_wild_needs_natural_is_exact_where_a_binomial_is_not() -> None:
    # Two aces and a duck known, no queen: the aces count for queens only if one of the four
    # unknown dice is a natural queen. Counting "queen or ace" as a binomial says 4x5 is true
    # whenever two of the four unknown dice are queens or aces; the exact chance is lower.
    bid, known, unknown = Bid(4, 5), [1, 1, 2], 4
    true, exact = brute_force(bid, known, unknown, wild=True, needs_natural=True)
    hit = Fraction(2, 6)  # a queen or an ace
    binomial = 1 - sum(comb(unknown, k) * hit**k * (1 - hit) ** (unknown - k) for k in range(2))
    assert true != binomial  # the case does tell the two apart
    result = run_dudo(
        "odds", "four", "queens", "--dice", "1,1,2", "--unknown", "4",
        "--set", "wild_needs_natural=true", "--exact",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"4x5 (four fives) is true: {format_chance(true)}  = {true}" in out
    assert f"Exactly right (spot on): {format_chance(exact)}  = {exact}" in out
    assert "aces are wild, but only for a face with a natural die on the table" in out
    # Without the house rule the same bid is the plain count.
    plain, _ = brute_force(bid, known, unknown, wild=True, needs_natural=False)
    assert plain == binomial
    code, text = odds("4x5", dice="1,1,2", unknown=4, exact=True)
    assert code == 0 and f"is true: {format_chance(plain)}  = {plain}" in text


def test_obliging_round_counts_aces_as_aces() -> None:
    bid, known = Bid(3, 3), [1, 3, 3]
    wild, _ = brute_force(bid, known, 3, wild=True, needs_natural=False)
    natural, exact = brute_force(bid, known, 3, wild=False, needs_natural=False)
    assert wild != natural
    code, out = odds("3x3", dice="1,3,3", unknown=3, obliging=True, exact=True)
    assert code == 0
    assert "obliging round: aces are not wild" in out
    assert f"is true: {format_chance(natural)}  = {natural}" in out
    assert f"spot on): {format_chance(exact)}  = {exact}" in out
    code, out = odds("3x3", dice="1,3,3", unknown=3, exact=True)
    assert f"is true: {format_chance(wild)}  = {wild}" in out


def test_revealed_dice_are_known_and_leave_the_unknown() -> None:
    bid = Bid(4, 3)
    true, exact = brute_force(bid, [3, 3, 3], 3, wild=True, needs_natural=False)
    # The other player holds 5 dice and has set two trains aside: 3 are unknown.
    code, out = odds("4x3", dice="3", others="5", revealed="3,3", exact=True)
    assert code == 0, out
    assert "Your dice: 3; seen: 3 3; unknown dice: 3;" in out
    assert f"is true: {format_chance(true)}  = {true}" in out
    assert f"spot on): {format_chance(exact)}  = {exact}" in out


def test_without_a_bid_the_table_lists_each_face() -> None:
    result = run_dudo("odds", "--dice", "1,3,3,5,6", "--unknown", "20", "--lang", "es")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "se cumple" not in out
    # Each face once, with its expected count: trains 3 known + 20 unknown * 2/6; in Spanish
    # with a decimal comma.
    for face in ("ases", "tontos", "trenes", "cuadras", "quinas", "senas"):
        assert face in out
    assert "9,67" in out and "10x3" in out and "52,1%" in out
    assert "Cara" in out and "Esperado" in out and "Expected" not in out


def test_words_and_languages_of_the_bid() -> None:
    code, out = odds("cinco", "trenes", dice="", unknown=10, lang="es")
    assert code == 0
    assert "5x3 (cinco trenes) se cumple: " in out
    assert "Tus dados: ninguno; dados desconocidos: 10; reglas dudo; los ases son comodines." in out
    code, out = odds("cinque", "tre", dice="3", unknown=4, lang="it")
    assert code == 0
    assert "5x3 (cinque tre) regge: " in out and "Esatta (calza): " in out
    assert "I tuoi dadi: 3; dadi ignoti: 4; regole dudo; gli assi sono jolly." in out


@pytest.mark.parametrize(
    ("args", "kw", "message"),
    [
        (["5x3"], {"dice": "1,7", "unknown": 3}, "dice: a die shows 7; faces are 1..6"),
        (["5x3"], {"dice": "1,a", "unknown": 3}, "--dice: 'a' is not a whole number"),
        (["5x3"], {"dice": "1,2,3,4,5,6", "unknown": 3}, "a hand holds at most 5 dice"),
        (["5x3"], {"dice": "1", "unknown": -2}, "unknown: -2 is negative"),
        (["5x3"], {"dice": "1", "unknown": None}, "give either the number of unknown dice"),
        (["5x3"], {"dice": "1", "unknown": 3, "others": "5"}, "give either"),
        (["5x3"], {"dice": "1", "others": "2", "revealed": "3,3,3"}, "the other players hold"),
        (["5x3"], {"dice": "1", "others": "6"}, "a player holds 6 dice"),
        (["5x9"], {"dice": "1", "unknown": 3}, "there is no face 9"),
        (["call"], {"dice": "1", "unknown": 3}, "'call' is not a bid"),
        (["blah"], {"dice": "1", "unknown": 3}, "'blah' is not a bid or call"),
        (["5x3"], {"dice": "1", "unknown": 3, "rules_name": "nope"}, "unknown preset 'nope'"),
        (["5x3"], {"dice": "1", "unknown": 3, "settings": ["faces=x"]}, "faces="),
        (["5x3"], {"dice": "1", "unknown": 3, "lang": "fr"}, "unknown language 'fr'"),
        (
            ["5x3"],
            {"dice": "1", "unknown": 3, "rules_name": "liars-dice", "obliging": True},
            "these rules have no obliging rounds",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], kw: dict[str, object], message: str
) -> None:
    code, out = odds(*args, **kw)
    assert code == 2
    assert out.startswith("error: ") and message in out, out
    assert out.count("\n") == 1


def test_bad_input_from_the_command_line_exits_2() -> None:
    result = run_dudo("odds", "5x3", "--dice", "9", "--unknown", "3")
    assert result.returncode == 2
    assert result.stdout.strip() == "error: dice: a die shows 9; faces are 1..6"
    assert "Traceback" not in result.stderr


def test_parse_dice() -> None:
    assert parse_dice("d", "1,3, 3 5;6") == (1, 3, 3, 5, 6)
    assert parse_dice("d", "") == () and parse_dice("d", None) == ()
