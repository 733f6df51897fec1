"""Turning engine events into sentences for the terminal: shared by the game and the replay.

This module owns the words both screens use: dice and hands (:func:`dice_text`,
:func:`hand_text`), option values and the rules as a preset plus house rules
(:func:`option_text`, :func:`rules_label`), what an obliging round's visibility, face change
and a pass hand mean (:data:`VISIBILITY_TEXT`, :data:`FACE_CHANGE_TEXT`,
:data:`PASS_HAND_TEXT`), and the :class:`Narrator`, which prints every public engine event
(seating, rounds, actions, reveals, dice lost and won, eliminations, the winner) as lines on
a rich console. Face names, bids in words and call words are in the chosen language; the
rest is English.
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

VISIBILITY_TEXT = {
    "normal": "everyone sees their own dice",
    "closed": "closed: only players holding one die see their own dice",
    "open": "open: everyone sees every hand but their own",
}

FACE_CHANGE_TEXT = {
    ObligeFaceChange.NOBODY: "nobody may change the face: raise the quantity only",
    ObligeFaceChange.SINGLE_DIE: "only players holding one die may change the face",
    ObligeFaceChange.SINGLE_DIE_VETERAN: (
        "only one-die players who have had their own obliging round may change the face"
    ),
}

PASS_HAND_TEXT = {
    PassHand.FULL_HOUSE: "a full house",
    PassHand.FIVE_KIND: "five of a kind",
    PassHand.FIVE_DIFFERENT: "five different faces",
}

#: The events that end a claim: shown in brief narration too.
_RESULTS = (DiceLost, DieWon, RoundCancelled, Eliminated, GameOver)

_Claim = Called | SpotOnClaimed | PassDoubted

#: The action word shown for each claim ("call", "spot on", "doubt the pass").
_CLAIM_ACTIONS: dict[type, Action] = {Called: CALL, SpotOnClaimed: SPOT_ON, PassDoubted: DOUBT_PASS}


def dice_text(count: int) -> str:
    """``"1 die"``, ``"3 dice"``."""
    return f"{count} {'die' if count == 1 else 'dice'}"


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


def rules_label(rules: Rules, preset_name: str | None) -> str:
    """The rules as a preset plus house rules: ``"dudo"``, ``"dudo with house rules
    cruzado=true"``; the closest preset when ``preset_name`` is none or not a preset."""
    closest = preset_name
    if closest not in PRESETS:
        closest = min(PRESETS, key=lambda n: len(rules.differences(PRESETS[n])))
    text = closest
    if preset_name is not None and preset_name != closest:
        text = f"{preset_name} (closest preset: {closest})"
    changes = rules.differences(PRESETS[closest])
    if changes:
        shown = ", ".join(f"{k}={option_text(v)}" for k, (v, _) in changes.items())
        text += f" with house rules {shown}"
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
    ) -> None:
        self.console = console
        self.names = tuple(names)
        self.rules = rules
        self.lang = lang
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

    def subject(self, player: int, third: str, second: str) -> str:
        """``"Ana loses"`` or, for you, ``"You lose"``."""
        return f"{self.names[player]} {second if player == self.you else third}"

    def t(self, key: str, **fields: object) -> str:
        """Message ``key`` in the game's language."""
        return message(self.lang, key, **fields)

    def about(self, key: str, player: int, **fields: object) -> str:
        """Message ``key`` about ``player``: its ``_you`` form if that is the seat spoken to."""
        return self.t(
            key + "_you" if player == self.you else key, name=self.names[player], **fields
        )

    def possessive(self, player: int) -> str:
        return "your" if player == self.you else f"{self.names[player]}'s"

    def say(self, action: Action) -> str:
        """An action in the game's language, a bid with its words: ``4x5 (cuatro quinas)``,
        ``dudo``."""
        short = format_action(action, self.lang)
        bid = action.bid if isinstance(action, RevealBid) else action
        if isinstance(bid, Bid):
            return f"{short} ({format_action(bid, self.lang, 'long')})"
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
                faces=face_name(bid.face, self.lang, plural=True),
                counting=self.t(counting),
                count=e.count,
                bid=self.say(bid),
                verdict=self.t(verdict),
            )
        if e.passer is not None:
            holds = f"{self.subject(e.passer, 'holds', 'hold')} {hand_text(e.hands[e.passer])}"
            if e.pass_hand is None:
                return f"{holds}, no special hand: the pass was a bluff"
            return f"{holds}, {PASS_HAND_TEXT[e.pass_hand]}: the pass was good"
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
        name, subject = self.name, self.subject
        if isinstance(e, SeatingRolled):
            self.seating_rolls += 1
            label = "Seating roll" if self.seating_rolls == 1 else "Tie re-roll"
            self.line(f"{label}: {', '.join(f'{name(p)} {v}' for p, v in e.rolls)}", indent=0)
        elif isinstance(e, SeatingDecided):
            how = f", {self.seating}" if self.seating else ""
            # e.order lists the seats clockwise; counterclockwise play runs back round them.
            seats = e.order if e.direction == "clockwise" else e.order[:1] + e.order[:0:-1]
            order = ", ".join(name(p) for p in seats)
            self.line(f"Play order ({e.direction}{how}): {order}", indent=0)
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
                "the obliger chooses open or closed before the roll"
                if e.visibility is None
                else VISIBILITY_TEXT.get(e.visibility, e.visibility)
            )
            change = FACE_CHANGE_TEXT[self.rules.oblige_face_change]
            self.line(
                f"Obliging round: {subject(e.player, 'obliges', 'oblige')}. Aces are not wild; "
                f"no spot-on or pass; {change}; {how}.",
                style="magenta",
                indent=0,
            )
        elif isinstance(e, VisibilityChosen):
            how = VISIBILITY_TEXT["open" if e.open else "closed"]
            self.line(f"{name(e.player)}: {format_action(ObligeChoice(e.open), self.lang)} ({how})")
        elif isinstance(e, BidMade):
            text = f"{name(e.player)}: {self.say(e.bid)}"
            if e.revealed:
                text += f"; sets aside {hand_text(e.revealed)} face up and re-rolls "
                text += dice_text(e.rerolled)
                if self.hidden_dice is not None:
                    text += f": {hand_text(self.hidden_dice(e.player))}"
            self.line(text)
        elif isinstance(e, Passed):
            self.line(f"{name(e.player)}: {format_action(PASS, self.lang)} (claims a special hand)")
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
            self.line(self.about("loses", e.player, dice=lost, remaining=e.remaining), "yellow")
        elif isinstance(e, DieWon):
            self.line(self.about("wins_die", e.player, remaining=e.remaining), "green")
        elif isinstance(e, RoundCancelled):
            self.line("Exactly right: nobody loses a die and the round is re-dealt", "green")
        elif isinstance(e, Eliminated):
            self.line(self.about("out", e.player), style="red")
        elif isinstance(e, GameOver):
            self.console.print()
            text = self.about("winner", e.winner, rounds=self.round)
            self.line(text, style="bold green", indent=0)
