"""The odds in ``dudo play``: the ``hint`` command and the after-game review, driven with
scripted input on a console writing to a string; the numbers checked by brute force."""

from __future__ import annotations

import io
import itertools
import random
import re
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

import pytest
from rich.console import Console

from dudo.bots import make_bot
from dudo.engine import (
    CALL,
    PASS,
    Action,
    Bid,
    Call,
    DoubtPass,
    Game,
    RevealBid,
    SpotOn,
    count_matching,
    pass_hand,
    preset,
)
from dudo.engine.view import PlayerView
from dudo.notation import format_action
from dudo.odds import view_odds
from dudo.review import Decision, ReviewedDecision, action_odds, hand_chance, review, riskiest
from dudo.terminal.narration import Narrator
from dudo.terminal.play import play_command, play_game
from dudo.terminal.review import show_review
from dudo.terminal.texts import chance, text

DUDO = preset("dudo")


class Typist:
    """Types ``script``, then (if ``game`` is given) plays seat 0 plainly: calls a standing
    bid less likely true than not, else makes the lowest legal bid; answers 'y' to quitting.
    Without a game, the input ends after the script."""

    def __init__(self, script: Iterable[str] = (), game: Game | None = None) -> None:
        self.buffer = io.StringIO()
        self.console = Console(file=self.buffer, width=100)
        self.script = list(script)
        self.game = game

    @property
    def output(self) -> str:
        return self.buffer.getvalue()

    def __call__(self, prompt: str) -> str:
        if self.script:
            answer = self.script.pop(0)
        elif prompt.startswith("Quit"):
            answer = "y"
        elif self.game is None:
            raise EOFError
        elif "out of turn" in prompt:
            answer = ""
        else:
            answer = format_action(self.plain_move(self.game.view(0)))
        self.buffer.write(prompt + answer + "\n")
        return answer

    @staticmethod
    def plain_move(view: PlayerView) -> Action:
        legal = view.legal_actions
        bids = [a for a in legal if isinstance(a, Bid)]
        if view.standing_bid is not None and CALL in legal:
            true = view_odds(view, view.standing_bid).probability
            if (true is not None and true < Fraction(1, 2)) or not bids:
                return CALL
        return bids[0] if bids else legal[0]


def brute_force(view: PlayerView, bid: Bid) -> tuple[Fraction, Fraction]:
    """(true, exactly right) over every roll of the dice the viewer cannot see."""
    mine = view.my_dice or ()
    true = exact = rolls = 0
    for roll in itertools.product(range(1, 7), repeat=view.unknown_count):
        count = count_matching([mine, roll], bid.face, True, False)
        rolls += 1
        true += count >= bid.quantity
        exact += count == bid.quantity
    return Fraction(true, rolls), Fraction(exact, rolls)


# ------------------------------------------------------------------------------- hint


# Per language: the hint's title, its labels and how the bot's advice is worded.
HINT_WORDS = {
    "en": (
        "Odds from what you see (2 dice known, 2 unknown; aces are wild):",
        ("Standing bid", "true", "exactly right", "Expected counts", "aces", "Safest raises"),
        "hard would play",
    ),
    "es": (
        "Probabilidades según lo que ves (2 dados conocidos, 2 desconocidos; "
        "los ases son comodines):",
        (
            "Apuesta en pie",
            "se cumple",
            "exacta",
            "Recuentos esperados",
            "ases",
            "Subidas más seguras",
        ),
        "El bot hard jugaría",
    ),
    "it": (
        "Probabilità da ciò che vedi (2 dadi noti, 2 ignoti; gli assi sono jolly):",
        ("Puntata in corso", "regge", "esatta", "Conteggi attesi", "assi", "Rilanci più sicuri"),
        "Il bot hard giocherebbe",
    ),
}


@pytest.mark.parametrize(
    ("word", "lang"), [("hint", "en"), ("odds", "es"), ("pista", "es"), ("suggerimento", "it")]
)
def test_hint_shows_the_odds_of_the_standing_bid(word: str, lang: str) -> None:
    game = Game.with_hands(DUDO, [(1, 3), (2, 5)], opener=1, seed=1)
    typist = Typist([word])
    with pytest.raises(EOFError):
        play_game(
            game, {1: make_bot("easy", random.Random(1))}, console=typist.console,
            input_fn=typist, lang=lang,
        )  # fmt: skip
    view = game.view(0)
    bid = view.standing_bid
    assert bid is not None and view.my_turn
    out = typist.output
    title, (standing, true_, exact_, expected, aces, safest_label), advises = HINT_WORDS[lang]
    assert title in out
    true, exact = brute_force(view, bid)
    said = f"{bid} ({format_action(bid, lang, 'long')})"
    assert f"{standing} {said}: {true_} {chance(lang, true)}, {exact_} " in out
    assert f"{exact_} {chance(lang, exact)}" in out
    # Expected trains: your train and ace, plus 2 unknown dice * 2/6.
    mark = re.escape(text(lang, "decimal_mark"))
    assert re.search(rf"{expected}: {aces} 1{mark}3, \w+ 1{mark}7, \w+ 2{mark}7, ", out)
    shown = re.search(rf"{safest_label}: (.*)", out)
    assert shown is not None
    safest = re.findall(r"(\d+)x(\d+) \([^)]*\) ([\d.,]+%)", shown[1])
    assert len(safest) == 3
    for quantity, face, shown_chance in safest:
        raise_ = Bid(int(quantity), int(face))
        assert raise_ in view.legal_actions
        assert shown_chance == chance(lang, brute_force(view, raise_)[0])
    advice = make_bot("hard", random.Random(view.round_number)).choose(view)
    advised = format_action(advice, lang)
    assert re.search(rf"{advises} {re.escape(advised)}\b", out)
    assert not re.search(r"Not understood|No entendido|Non capito", out)


def test_hint_at_the_opening_lists_the_safest_openings() -> None:
    game = Game.with_hands(DUDO, [(4, 4, 6), (2, 5)], opener=0, seed=1)
    typist = Typist(["hint"])
    with pytest.raises(EOFError):
        play_game(game, {1: make_bot("easy", random.Random(1))}, console=typist.console,
                  input_fn=typist)  # fmt: skip
    out = typist.output
    assert "Standing bid" not in out.split("Odds from")[1]
    # Certain openings, lowest first: two quads and a hex in hand (no aces: one die only).
    assert "Safest openings: 1x4 (one four) 100%, 1x6 (one six) 100%, 2x4 (two fours) 100%" in out


# ----------------------------------------------------------------------------- review


def test_review_after_quitting_shows_the_risky_bid_and_what_hard_would_do() -> None:
    game = Game.with_hands(DUDO, [(2, 2), (4, 6)], opener=0, seed=1)
    typist = Typist(["4x3", "quit", "y"])
    status = play_game(
        game, {1: make_bot("easy", random.Random(1))}, console=typist.console,
        input_fn=typist, reviewer="hard",
    )  # fmt: skip
    assert status == "quit"
    out = typist.output
    after = out.split("You leave the game.")[1]
    assert "Review: your riskiest decisions, with the odds you faced and what hard would" in after
    assert (
        "Round 1, you: 4x3 (four threes); true 0%. Risk of losing a die: 100% (if called)." in after
    )
    assert re.search(r"\n    hard would have played \d+x\d+ \([^)]*\); true [\d.]+%\.\n", after)


def test_no_decision_no_review_and_safe_decisions_risk_nothing() -> None:
    game = Game.with_hands(DUDO, [(2, 2), (4, 6)], opener=0, seed=1)
    typist = Typist(["quit", "y"])
    play_game(game, {1: make_bot("easy", random.Random(1))}, console=typist.console,
              input_fn=typist)  # fmt: skip
    assert "Review" not in typist.output
    game = Game.with_hands(DUDO, [(2, 2), (4, 6)], opener=0, seed=1)
    typist = Typist(["2x2", "quit", "y"])
    play_game(game, {1: make_bot("easy", random.Random(1))}, console=typist.console,
              input_fn=typist, reviewer="easy")  # fmt: skip
    assert "Review: none of your decisions risked a die." in typist.output


def test_a_whole_game_ends_with_the_review() -> None:
    game = Game(DUDO, 3, seed=11)
    typist = Typist(game=game)
    bots = {seat: make_bot("easy", random.Random(seat)) for seat in (1, 2)}
    assert play_game(game, bots, console=typist.console, input_fn=typist) == "finished"
    out = typist.output
    review_text = out[out.index("Winner: ") :]
    assert "Review: your riskiest decisions" in review_text and "what hard would" in review_text
    assert 1 <= review_text.count("Risk of losing a die:") <= 3


def test_an_unknown_reviewer_is_a_bad_option(tmp_path: Path) -> None:
    console = Console(file=io.StringIO(), width=100)
    code = play_command(
        seed=1, record_dir=tmp_path, console=console, input_fn=Typist(), reviewer="oracle"
    )
    assert code == 2
    out: str = console.file.getvalue()  # type: ignore[attr-defined]
    assert out.startswith("error: unknown bot 'oracle'")


def test_review_ranks_the_riskiest_decisions(tmp_path: Path) -> None:
    # Seat 0 plays plainly against two easy bots; keep each of its decisions with its view.
    game = Game(DUDO, 3, seed=5)
    bots = {seat: make_bot("easy", random.Random(seat)) for seat in (1, 2)}
    decisions: list[Decision] = []
    while not game.is_over and len(decisions) < 40:
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        if seat == 0:
            action = Typist.plain_move(view)
            decisions.append(Decision(view, action))
        else:
            action = bots[seat].choose(view)
        game.push(action)
    assert len(decisions) > 3
    judged = [action_odds(d.view, d.action) for d in decisions]
    top = riskiest(decisions, 3)
    assert len(top) == 3
    risks = [odds.risk for _, _, odds in top]
    assert risks == sorted(risks, reverse=True)
    chosen = {n for n, _, _ in top}
    assert all(j.risk <= risks[-1] for n, j in enumerate(judged, 1) if n not in chosen)
    reviewed = review(decisions, level="hard", count=3, seed=1)
    assert [r.number for r in reviewed] == [n for n, _, _ in top]
    for item in reviewed:
        assert item.reviewer is not None
        assert item.reviewer.action in item.decision.view.legal_actions
        assert item.reviewer_level == "hard"
    # The review is printed one decision per line, with the reviewer's choice below it.
    console = Console(file=io.StringIO(), width=100)
    show_review(Narrator(console, ("You", "Ana", "Beto"), DUDO, "en"), reviewed, len(decisions))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert text.count("Risk of losing a die:") == 3
    assert text.count("\n    hard would ") == 3


# ---------------------------------------------------------------- odds of each action


def test_action_odds_of_calls_spot_on_and_passes() -> None:
    game = Game.with_hands(DUDO, [(1, 3, 3, 4, 6), (2, 5)], opener=1)
    game.push(Bid(3, 3))
    view = game.view(0)
    true, exact = brute_force(view, Bid(3, 3))
    call = action_odds(view, CALL)
    assert (call.bid, call.chance, call.risk) == (Bid(3, 3), true, true)
    spot = action_odds(view, SpotOn())
    assert (spot.chance, spot.risk) == (exact, 1 - exact)
    raise_ = action_odds(view, Bid(4, 3))
    assert raise_.chance == brute_force(view, Bid(4, 3))[0] and raise_.risk == 1 - raise_.chance
    # A pass with no pass hand is a bluff: it loses whenever doubted.
    bluff = action_odds(view, PASS)
    assert (bluff.chance, bluff.risk) == (Fraction(0), Fraction(1))
    # Doubting a pass: the chance that five dice unseen make a pass hand, by enumeration.
    hands = 0
    for roll in itertools.product(range(1, 7), repeat=5):
        hands += pass_hand(roll, DUDO.pass_hands) is not None
    five = Game.with_hands(DUDO, [(1, 2, 3, 4, 6), (2, 2, 5, 5, 5)], opener=1)
    five.push(Bid(2, 5))
    assert PASS in five.view(0).legal_actions  # five different faces: a pass hand
    five.push(PASS)
    seen = five.view(1)
    assert hand_chance(seen, 0) == Fraction(hands, 6**5) == Fraction(1026, 7776)
    assert hand_chance(five.view(0), 0) == 1  # five different: the own hand is known
    assert DoubtPass() in seen.legal_actions
    doubt = action_odds(seen, DoubtPass())
    assert (doubt.chance, doubt.risk) == (Fraction(1026, 7776), Fraction(1026, 7776))


def test_action_odds_of_a_reveal_counts_the_rerolled_dice_as_unknown() -> None:
    rules = DUDO.with_options(reveal_reroll=True)
    game = Game.with_hands(rules, [(3, 3, 2), (2, 4)], opener=1)
    game.push(Bid(1, 4))
    view = game.view(0)
    action = RevealBid(Bid(3, 3), (3, 3))
    assert action in view.legal_actions
    # After the reveal: two trains face up; your duck re-rolled and the other two dice unknown.
    rolls = list(itertools.product(range(1, 7), repeat=3))
    true = sum(count_matching([(3, 3), r], 3, True, False) >= 3 for r in rolls)
    assert action_odds(view, action).chance == Fraction(true, len(rolls))


def test_out_of_turn_call_review_says_what_the_bot_would_do() -> None:
    rules = DUDO.with_options(cruzado=True)
    game = Game.with_hands(rules, [(2, 2), (1, 4, 4), (5, 6)], opener=1)
    game.push(Bid(4, 4))
    view = game.view(0)
    mine = Call(by=0)
    assert mine in view.legal_actions and view.to_move == 2
    decision = Decision(view, mine)
    assert decision.out_of_turn
    (item,) = review([decision], level="hard")
    assert item.yours.bid == Bid(4, 4)
    console = Console(file=io.StringIO(), width=100)
    show_review(Narrator(console, ("You", "Ana", "Beto"), rules, "en"), [item], 1)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Round 1, you: call on 4x4 (four fours) out of turn; the bid was true " in text
    if item.reviewer is None:
        assert "    hard would not have called out of turn." in text
    else:
        assert item.same and "    hard would have done the same." in text
    # A made-up reviewer answer of "no call" reads as such.
    quiet = ReviewedDecision(1, decision, item.yours, "hard", None)
    console = Console(file=io.StringIO(), width=100)
    show_review(Narrator(console, ("You", "Ana", "Beto"), rules, "en"), [quiet], 1)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "hard would not have called out of turn." in text
