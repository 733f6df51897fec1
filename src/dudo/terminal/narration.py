"""Turning engine events into sentences for the terminal: shared by the game and the replay.

This module owns the words both screens use: dice and hands (:func:`dice_text`,
:func:`hand_text`), option values and the rules as a preset plus house rules
(:func:`option_text`, :func:`rules_label`), what an obliging round's visibility, face change
and a pass hand mean (:data:`VISIBILITY_TEXT`, :data:`FACE_CHANGE_TEXT`,
:data:`PASS_HAND_TEXT`), and the :class:`Narrator`, which prints every public engine event
(seating, rounds, actions, reveals, dice lost and won, eliminations, the winner) as lines on
a rich console. Every word is in the chosen language, from the message catalogue
(:mod:`dudo.terminal.texts`); the English dictionaries here are kept for callers that print
English.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from dudo.engine.actions import (
    CALL,
    DOUBT_PASS,
    PASS,
    SPOT_ON,
    Action,
    Bid,
    ObligeChoice,
    RevealBid,
)
from dudo.engine.events import (
    BidMade,
    Called,
    DiceLost,
    DieWon,
    Eliminated,
    Event,
    GameOver,
    ObligingRound,
    PassDoubted,
    Passed,
    Revealed,
    RoundCancelled,
    RoundStarted,
    SeatingDecided,
    SeatingRolled,
    SpotOnClaimed,
    VisibilityChosen,
)
from dudo.engine.rules import PRESETS, ObligeFaceChange, PassHand, Rules
from dudo.notation import face_name, format_action
from dudo.terminal.texts import counted, template
from dudo.terminal.texts import dice as dice_words
from dudo.terminal.texts import text as message

__all__ = [
    "FACE_CHANGE_TEXT",
    "PASS_HAND_TEXT",
    "VISIBILITY_TEXT",
    "Narrator",
    "dice_text",
    "hand_text",
    "option_text",
    "rules_label",
]

#: An obliging round's visibility in English (the message keys are ``visibility_<value>``).
VISIBILITY_TEXT = {v: template("en", f"visibility_{v}") for v in ("normal", "closed", "open")}

#: Who may change the face in an obliging round, in English (keys ``face_change_<value>``).
FACE_CHANGE_TEXT = {c: template("en", f"face_change_{c.value}") for c in ObligeFaceChange}

#: The special hands of a pass, in English (keys ``hand.<value>``, the web client's too).
PASS_HAND_TEXT = {h: template("en", f"hand.{h.value}") for h in PassHand}

#: The events that end a claim: shown in brief narration too.
_RESULTS = (DiceLost, DieWon, RoundCancelled, Eliminated, GameOver)

_Claim = Called | SpotOnClaimed | PassDoubted

#: The action word shown for each claim ("call", "spot on", "doubt the pass").
_CLAIM_ACTIONS: dict[type, Action] = {Called: CALL, SpotOnClaimed: SPOT_ON, PassDoubted: DOUBT_PASS}


def dice_text(count: int) -> str:
    """``"1 die"``, ``"3 dice"``."""
    return dice_words("en", count)


def hand_text(dice: Sequence[int]) -> str:
    """``"1 3 3"``, or ``"-"`` for no dice."""
    return " ".join(str(d) for d in dice) if dice else "-"


def option_text(value: object) -> str:
    """A rule option's value as typed in ``--set OPTION=VALUE``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(str(v) for v in value) or "none"
    if value is None:
        return "none"
    return str(value)


def rules_label(rules: Rules, preset_name: str | None, lang: str = "en") -> str:
    """The rules as a preset plus house rules: ``"dudo"``, ``"dudo with house rules
    cruzado=true"`` (in ``lang``); the closest preset when ``preset_name`` is none or not a
    preset. Preset and option names stay as typed on the command line."""
    closest = preset_name
    if closest not in PRESETS:
        closest = min(PRESETS, key=lambda n: len(rules.differences(PRESETS[n])))
    text = closest
    if preset_name is not None and preset_name != closest:
        text = message(lang, "closest_preset", name=preset_name, closest=closest)
    changes = rules.differences(PRESETS[closest])
    if changes:
        shown = ", ".join(f"{k}={option_text(v)}" for k, (v, _) in changes.items())
        text = message(lang, "house_rules", preset=text, changes=shown)
    return text


class Narrator:
    """Prints engine events as sentences on ``console``; call :meth:`event` with every
    public event, in order.

    ``names`` are the seats' display names and ``lang`` the language of face names, bids and
    call words. ``you`` is the seat spoken to in the second person ("You lose 1 die", "calls
    your 3x4"; its name should be "You"); None narrates in the third person only.
    ``hidden_dice(seat)``, for a narrator that may show every hand, gives a seat's hidden dice
    so a re-roll shows what came up. ``round_counts`` adds everyone's dice count to each
    round's opening line; ``seating`` says how the play order was decided ("drawn at random").

    With :attr:`brief` set, a round is a single line (the claim and what decided it) followed
    by the dice lost or won, eliminations and the winner.
    """

    def __init__(
        self,
        console: Console,
        names: Sequence[str],
        rules: Rules,
        lang: str,
        *,
        you: int | None = None,
        hidden_dice: Callable[[int], Sequence[int]] | None = None,
        round_counts: bool = False,
        seating: str = "",
        naming: str = "usual",
    ) -> None:
        self.console = console
        self.names = tuple(names)
        self.rules = rules
        self.lang = lang
        #: How faces are named in words: "usual" (twos, threes) or "traditional" (ducks, trains).
        self.naming = naming
        self.you = you
        self.hidden_dice = hidden_dice
        self.round_counts = round_counts
        self.seating = seating
        self.brief = False
        self.name_width = max(len(n) for n in self.names)
        self.claim: _Claim | None = None  # what the next reveal decides
        self.round = 0
        self.seating_rolls = 0

    # ------------------------------------------------------------------------ words

    def line(self, text: str | Text, style: str = "", indent: int = 2) -> None:
        body = text if isinstance(text, Text) else Text(text, style=style)
        self.console.print(Text(" " * indent) + body, soft_wrap=True)

    def name(self, player: int) -> str:
        return self.names[player]

    def t(self, key: str, /, **fields: object) -> str:
        """Message ``key`` in the game's language."""
        return message(self.lang, key, **fields)

    def about(self, key: str, player: int, **fields: object) -> str:
        """Message ``key`` about ``player``: its ``_you`` form if that is the seat spoken to."""
        return self.t(
            key + "_you" if player == self.you else key, name=self.names[player], **fields
        )

    def visibility(self, value: str) -> str:
        """What an obliging round's visibility (normal, closed, open) means."""
        return self.t(f"visibility_{value}")

    def face_change(self) -> str:
        """Who may change the face in an obliging round under these rules."""
        return self.t(f"face_change_{self.rules.oblige_face_change.value}")

    def pass_hand(self, hand: PassHand) -> str:
        return self.t(f"hand.{hand.value}")

    def say(self, action: Action) -> str:
        """An action in the game's language, a bid with its words: ``4x5 (cuatro quinas)``,
        ``dudo``."""
        short = format_action(action, self.lang)
        bid = action.bid if isinstance(action, RevealBid) else action
        if isinstance(bid, Bid):
            return f"{short} ({format_action(bid, self.lang, 'long', self.naming)})"
        return short

    def hands(self, hands: Sequence[Sequence[int]]) -> None:
        """Every hand still in play, one a line under the players' names."""
        for p, hand in enumerate(hands):
            if hand:
                self.line(f"{self.name(p):<{self.name_width}}  {hand_text(hand)}", "cyan", 4)

    def claim_text(self, claim: _Claim) -> str:
        """``"calls Ana's 4x5"``, ``"claims your 4x5 is exact"``, ``"doubts Ana's pass"``."""
        if isinstance(claim, PassDoubted):
            return self.about("doubts_pass", claim.passer)
        if isinstance(claim, SpotOnClaimed):
            return self.about("spot_on", claim.bidder, bid=claim.bid)
        late = self.t("out_of_turn") if claim.out_of_turn else ""
        return self.about("calls", claim.bidder, bid=claim.bid) + late

    def verdict(self, e: Revealed) -> str:
        """What the reveal decided: the count of the bid's face, or the passer's hand."""
        if e.bid is not None and e.count is not None:
            bid = e.bid
            if bid.face == 1:
                counting = "aces_only"
            elif not e.wild_aces:
                counting = "aces_not_wild"
            elif self.rules.wild_needs_natural:
                counting = "aces_wild_natural"
            else:
                counting = "aces_wild"
            if isinstance(self.claim, SpotOnClaimed):
                verdict = "exact" if e.count == bid.quantity else "not_exact"
            else:
                verdict = "stands" if e.count >= bid.quantity else "fails"
            return self.t(
                "count",
                faces=face_name(bid.face, self.lang, plural=True, naming=self.naming),
                counting=self.t(counting),
                count=e.count,
                bid=self.say(bid),
                verdict=self.t(verdict),
            )
        if e.passer is not None:
            holds = self.about("holds", e.passer, hand=hand_text(e.hands[e.passer]))
            if e.pass_hand is None:
                return self.t("pass_bluff", holds=holds)
            return self.t("pass_good", holds=holds, hand=self.pass_hand(e.pass_hand))
        return ""

    # ----------------------------------------------------------------------- events

    def event(self, e: Event) -> None:
        """Narrate ``e`` (in full, or briefly when :attr:`brief` is set)."""
        if isinstance(e, RoundStarted):
            self.round = e.number
        elif isinstance(e, Called | SpotOnClaimed | PassDoubted):
            self.claim = e
        if not self.brief:
            self.full(e)
        elif isinstance(e, Revealed) and self.claim is not None:
            what = f"{self.name(self.claim.player)} {self.claim_text(self.claim)}"
            self.line(f"{self.t('round', number=self.round)}: {what}. {self.verdict(e)}", indent=0)
        elif isinstance(e, _RESULTS):
            self.full(e)
        if isinstance(e, Revealed):
            self.claim = None

    def full(self, e: Event) -> None:
        name = self.name
        if isinstance(e, SeatingRolled):
            self.seating_rolls += 1
            label = "ev.seating_rolled" if self.seating_rolls == 1 else "tie_reroll"
            self.line(
                self.t(label, rolls=", ".join(f"{name(p)} {v}" for p, v in e.rolls)), indent=0
            )
        elif isinstance(e, SeatingDecided):
            how = f", {self.seating}" if self.seating else ""
            # e.order lists the seats clockwise; counterclockwise play runs back round them.
            seats = e.order if e.direction == "clockwise" else e.order[:1] + e.order[:0:-1]
            order = ", ".join(name(p) for p in seats)
            direction = self.t(str(e.direction))
            self.line(self.t("play_order", direction=direction, how=how, order=order), indent=0)
        elif isinstance(e, RoundStarted):
            self.console.print()
            title = self.t("round", number=e.number)
            title += self.t("obliging_title") if e.obliging else ""
            self.console.rule(Text(title, style="bold"))
            text = self.about("opens", e.opener)
            if self.round_counts:
                counts = ", ".join(f"{name(p)} {c}" for p, c in enumerate(e.dice_counts) if c)
                text += self.t("in_play", counts=counts, total=sum(e.dice_counts))
            self.line(text, indent=0)
        elif isinstance(e, ObligingRound):
            how = (
                self.t("obliger_chooses") if e.visibility is None else self.visibility(e.visibility)
            )
            who = self.about("obliges", e.player)
            self.line(
                self.t("obliging_line", who=who, change=self.face_change(), how=how),
                style="magenta",
                indent=0,
            )
        elif isinstance(e, VisibilityChosen):
            how = self.visibility("open" if e.open else "closed")
            self.line(f"{name(e.player)}: {format_action(ObligeChoice(e.open), self.lang)} ({how})")
        elif isinstance(e, BidMade):
            text = f"{name(e.player)}: {self.say(e.bid)}"
            if e.revealed:
                rerolled = dice_words(self.lang, e.rerolled)
                text += self.t("sets_aside", aside=hand_text(e.revealed), rerolled=rerolled)
                if self.hidden_dice is not None:
                    text += f": {hand_text(self.hidden_dice(e.player))}"
            self.line(text)
        elif isinstance(e, Passed):
            said = f"{format_action(PASS, self.lang)} ({self.t('claims_hand')})"
            self.line(f"{name(e.player)}: {said}")
        elif isinstance(e, Called | SpotOnClaimed | PassDoubted):
            word = format_action(_CLAIM_ACTIONS[type(e)], self.lang)
            self.line(f"{name(e.player)}: {word} ({self.claim_text(e)})", style="bold")
        elif isinstance(e, Revealed):
            self.line(self.t("all_dice"))
            self.hands(e.hands)
            shown = self.verdict(e)
            if shown:
                self.line(shown, style="bold")
        elif isinstance(e, DiceLost):
            lost = dice_words(self.lang, e.count)
            left = counted(self.lang, "left_you" if e.player == self.you else "left", e.remaining)
            self.line(self.about("loses", e.player, dice=lost, left=left), "yellow")
        elif isinstance(e, DieWon):
            self.line(self.about("wins_die", e.player, remaining=e.remaining), "green")
        elif isinstance(e, RoundCancelled):
            self.line(self.t("cancelled"), "green")
        elif isinstance(e, Eliminated):
            self.line(self.about("out", e.player), style="red")
        elif isinstance(e, GameOver):
            self.console.print()
            rounds = counted(self.lang, "games.rounds", self.round)
            text = self.about("winner", e.winner, rounds=rounds)
            self.line(text, style="bold green", indent=0)
