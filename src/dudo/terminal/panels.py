"""What ``dudo play`` shows of a game: the opening lines, the table, your dice, your options,
the help, every legal move and the rules in play.

:class:`Panels` is a :class:`~dudo.terminal.narration.Narrator` that also draws these from a
:class:`~dudo.engine.view.PlayerView` (what you, in seat 0, know); the game loop that reads
your moves is :class:`dudo.terminal.screen.Screen`. Every word is in the game's language, from
the message catalogue (:mod:`dudo.terminal.texts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Console
from rich.text import Text

from dudo.bots import Bot
from dudo.engine.actions import (
    CALL,
    DOUBT_PASS,
    PASS,
    SPOT_ON,
    Action,
    Bid,
    Call,
    DoubtPass,
    ObligeChoice,
    Pass,
    RevealBid,
    SpotOn,
)
from dudo.engine.errors import NotationError
from dudo.engine.rules import AcesFrom, AcesTo, Direction, RaiseMode, Rules
from dudo.engine.view import PlayerView
from dudo.notation import face_name, format_action, parse_action
from dudo.terminal.narration import Narrator, hand_text, option_text, rules_label
from dudo.terminal.texts import counted
from dudo.terminal.texts import dice as dice_words

__all__ = ["SHOWN_BIDS", "Panels", "is_bid"]

#: How many of the lowest legal bids the screen lists.
SHOWN_BIDS = 5


def is_bid(action: Action) -> bool:
    return isinstance(action, Bid | RevealBid)


class Panels(Narrator):
    """The game as you see it from seat 0, with ``bots`` in the other seats; ``preset_name``
    and ``seed`` are shown in the opening lines only."""

    def __init__(
        self,
        console: Console,
        names: Sequence[str],
        rules: Rules,
        lang: str,
        *,
        you: int | None,
        bots: Mapping[int, Bot],
        preset_name: str | None,
        seed: int | None,
        naming: str = "usual",
    ) -> None:
        super().__init__(console, names, rules, lang, you=you, naming=naming)
        self.seat = 0  # yours
        self.bots = bots
        self.preset_name = preset_name
        self.seed = seed

    def faces_of(self, dice: Sequence[int]) -> str:
        return ", ".join(face_name(d, self.lang, naming=self.naming) for d in dice)

    def said_bid(self, canonical: str) -> str:
        """A bid the engine names in notation (``3x4``), said in the game's language."""
        try:
            return self.say(parse_action(canonical, self.rules.faces))
        except NotationError:  # e.g. a face the dice do not have: the notation as it is
            return canonical

    def reveal_example(self) -> str:
        """A raise with reveal-and-reroll as typed in the game's language: 5x3 muestra 3,3."""
        return format_action(RevealBid(Bid(5, 3), (3, 3)), self.lang)

    def choice_words(self) -> str:
        first, second = (format_action(ObligeChoice(o), self.lang) for o in (True, False))
        return self.t("either", first=first, second=second)

    def intro(self) -> None:
        n = len(self.names)
        rules = rules_label(self.rules, self.preset_name, self.lang)
        self.console.print(
            Text(self.t("intro_title", players=n, rules=rules), "bold"), soft_wrap=True
        )
        levels = "/".join(sorted({bot.name for bot in self.bots.values()}))
        bots = ", ".join(self.names[1:])
        seed = self.t("intro_seed", seed=self.seed) if self.seed is not None else ""
        self.line(
            counted(
                self.lang,
                "intro_bots",
                n - 1,
                name=self.names[0],
                level=levels,
                names=bots,
                lang=self.lang,
                seed=seed,
            ),
            indent=0,
        )
        self.line(
            self.t(
                "intro_type",
                calls=", ".join(format_action(a, self.lang) for a in self.call_kinds()),
            ),
            indent=0,
        )

    def call_kinds(self) -> list[Action]:
        kinds: list[Action] = [CALL]
        if self.rules.spot_on:
            kinds.append(SPOT_ON)
        if self.rules.pass_hands:
            kinds.extend([PASS, DOUBT_PASS])
        return kinds

    def play_sequence(self, v: PlayerView, start: int) -> list[int]:
        """Every seat (eliminated ones too) in play order, starting after ``start``."""
        order = v.order
        step = 1 if v.rules.direction is Direction.CLOCKWISE else -1
        i = order.index(start)
        return [order[(i + step * k) % len(order)] for k in range(1, len(order) + 1)]

    def table(self, v: PlayerView) -> None:
        self.line(self.t("table", direction=self.t(str(v.rules.direction))))
        last: dict[int, Action] = {}
        for p, a in v.round_actions:
            last[p] = a
        seq = self.play_sequence(v, v.opener)
        seq = seq[-1:] + seq[:-1]  # the opener first
        for p in seq:
            marker = ">" if p == v.to_move else " "
            who = f"{self.name(p):<{self.name_width}}"
            count = v.dice_counts[p]
            if count == 0:
                self.line(f"{marker} {who}  {self.t('game.out')}", style="dim", indent=4)
                continue
            row = Text(
                f"{marker} {who}  {dice_words(self.lang, count):<7}",
                style="bold" if p == v.to_move else "",
            )
            if p in last:
                row.append(f"  {format_action(last[p], self.lang)}")
            tags = []
            if v.obliging and p == v.obliger:
                tags.append(self.t("tag_obliges"))
            elif p in v.obliged:
                tags.append(self.t("tag_obliged"))
            if tags:
                row.append(f"  ({', '.join(tags)})", style="dim")
            row.rstrip()
            self.line(row, indent=4)
        self.line(self.t("dice_in_play", count=v.dice_in_play))

    def your_dice(self, v: PlayerView) -> None:
        if v.dice_counts[self.seat] == 0:
            return
        aside = v.set_aside[self.seat]
        if v.my_dice is not None:
            text = Text(self.t("your_dice"))
            text.append(hand_text(v.my_dice), style="bold cyan")
            if v.my_dice:
                text.append(f"  ({self.faces_of(v.my_dice)})")
            if aside:
                text.append(self.t("face_up_yours", dice=hand_text(aside)))
            self.line(text)
        elif v.phase == "choose_visibility":
            self.line(self.t("dice_not_rolled"))
        elif v.visibility == "closed":
            self.line(self.t("dice_hidden_closed"))
        elif v.visibility == "open":
            self.line(self.t("dice_hidden_open"))
        seen = [
            (p, dice)
            for p, dice in enumerate(v.seen_dice)
            if p != self.seat and dice and v.dice_counts[p]
        ]
        if seen:
            shown = "; ".join(f"{self.name(p)} {hand_text(d)}" for p, d in seen)
            self.line(self.t("you_see" if v.visibility == "open" else "face_up", hands=shown))

    def status(self, v: PlayerView) -> None:
        """Your turn: the table, your dice, this round's bids, the standing bid, options."""
        self.console.print()
        self.table(v)
        self.your_dice(v)
        bids = [(p, a) for p, a in v.round_actions]
        if bids:
            shown = ", ".join(f"{self.name(p)} {format_action(a, self.lang)}" for p, a in bids)
            self.line(self.t("this_round", bids=shown))
        if v.standing_bid is not None and v.bidder is not None:
            self.line(
                self.about("standing", v.bidder, bid=self.say(v.standing_bid)),
                style="bold",
            )
            if v.passer is not None:
                self.line(self.about("passed", v.passer))
        self.options(v)

    def options(self, v: PlayerView) -> None:
        if not v.my_turn:
            return
        legal = v.legal_actions
        if v.phase == "choose_visibility":
            self.line(
                self.t(
                    "you_oblige",
                    choices=self.choice_words(),
                    open=self.visibility("open"),
                    closed=self.visibility("closed"),
                )
            )
            return
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            label = self.t("lowest_openings" if v.standing_bid is None else "lowest_raises")
            shown = ", ".join(self.say(b) for b in bids[:SHOWN_BIDS])
            more = self.t("more_bids", count=len(bids)) if len(bids) > SHOWN_BIDS else ""
            self.line(f"{label}: {shown}{more}")
        others = [a for a in legal if not is_bid(a)]
        if others:
            self.line(self.t("or", actions=", ".join(format_action(a, self.lang) for a in others)))
        if any(isinstance(a, RevealBid) for a in legal):
            self.line(self.t("reveal_tip", example=self.reveal_example()), style="dim")

    def options_hint(self, v: PlayerView) -> str:
        bids = [a for a in v.legal_actions if isinstance(a, Bid)]
        others = [a for a in v.legal_actions if not is_bid(a)]
        parts = []
        if bids:
            label = self.t("lowest_openings" if v.standing_bid is None else "lowest_raises")
            parts.append(f"{label.lower()}: " + ", ".join(str(b) for b in bids[:SHOWN_BIDS]))
        if others:
            words = ", ".join(format_action(a, self.lang) for a in others)
            parts.append(self.t("or_lower", actions=words) if parts else words)
        return self.t("you_may", options="; ".join(parts)) if parts else ""

    def help(self, v: PlayerView) -> None:
        rules = self.rules
        self.console.print()
        self.line(self.t("how_to"), style="bold", indent=0)
        self.line(self.t("help_bid"))
        if v.obliging:
            self.line(self.t("help_obliging", change=self.face_change()))
        else:
            self.line(self.raise_text())
            if rules.aces_wild:
                self.line(self.aces_text())
        legal = v.legal_actions
        self.line(self.t("now_you_may"), style="bold", indent=0)
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            kind = "help_open" if v.standing_bid is None else "help_raise"
            low, high = bids[0], bids[-1]
            if len(bids) == 1:
                self.line(self.t(f"{kind}_one", low=low, low_words=self.say(low)))
            else:
                self.line(
                    self.t(
                        kind,
                        count=len(bids),
                        low=low,
                        high=high,
                        low_words=self.say(low),
                        high_words=self.say(high),
                    )
                )
        for a in legal:
            word = format_action(a, self.lang)
            if isinstance(a, Call) and a.by is None:
                self.line("- " + self.t("help_call", word=word))
            elif isinstance(a, SpotOn):
                reward = self.t(
                    "reward_gain" if str(rules.spot_on_reward) == "gain" else "reward_cancel"
                )
                self.line("- " + self.t("help_spot_on", word=word, reward=reward))
            elif isinstance(a, Pass):
                hands = ", ".join(self.pass_hand(h) for h in sorted(rules.pass_hands))
                self.line("- " + self.t("help_pass", word=word, hands=hands))
            elif isinstance(a, DoubtPass):
                self.line("- " + self.t("help_doubt_pass", word=word))
        if any(isinstance(a, ObligeChoice) for a in legal):
            first, second = (format_action(ObligeChoice(o), self.lang) for o in (True, False))
            self.line(
                "- "
                + self.t(
                    "help_oblige_choice",
                    open=first,
                    closed=second,
                    open_text=self.visibility("open"),
                    closed_text=self.visibility("closed"),
                )
            )
        if any(isinstance(a, RevealBid) for a in legal):
            self.line(self.t("help_reveal", example=self.reveal_example()))
        if rules.cruzado:
            self.line(self.t("help_cruzado"))
        self.line(self.t("commands"), indent=0)

    def raise_text(self) -> str:
        mode = self.rules.raise_mode
        if mode is RaiseMode.ANY_FACE:
            return self.t("raise_any_face")
        if mode is RaiseMode.NONDECREASING:
            return self.t("raise_nondecreasing")
        order = (
            "1x2 < ... < 1x6 < 1x1 < 2x2 < ..."
            if str(self.rules.aces_rank) == "high"
            else "1x1 < 1x2 < ... < 1x6 < 2x1 < ..."
        )
        return self.t("raise_index", order=order)

    def aces_text(self) -> str:
        rules = self.rules
        natural = self.t("aces_natural") if rules.wild_needs_natural else ""
        text = self.t("aces_help", natural=natural)
        if rules.raise_mode is not RaiseMode.INDEX:
            to = self.t(
                "to_ceil_half" if rules.aces_to is AcesTo.CEIL_HALF else "to_floor_half_plus_one"
            )
            back = self.t(
                "back_double_plus_one"
                if rules.aces_from is AcesFrom.DOUBLE_PLUS_ONE
                else "back_double"
            )
            text += self.t("aces_switch", to=to, back=back)
        return text

    def all_moves(self, v: PlayerView) -> None:
        legal = v.legal_actions
        if not legal:
            self.line(self.t("nothing_to_do"))
            return
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            by_quantity: dict[int, list[str]] = {}
            for b in bids:
                by_quantity.setdefault(b.quantity, []).append(str(b))
            self.line(self.t("bids_count", count=len(bids)), style="bold")
            for shown in by_quantity.values():
                self.line(" ".join(shown), indent=4)
        reveals = [a for a in legal if isinstance(a, RevealBid)]
        if reveals:
            self.line(self.t("reveals_count", count=len(reveals)), style="bold")
            self.line(", ".join(format_action(a, self.lang) for a in reveals), indent=4)
        others = [a for a in legal if not is_bid(a)]
        if others:
            self.line(
                self.t(
                    "other_actions", actions=", ".join(format_action(a, self.lang) for a in others)
                )
            )

    def show_rules(self) -> None:
        rules = rules_label(self.rules, self.preset_name, self.lang)
        self.line(self.t("rules_title", rules=rules), style="bold", indent=0)
        # Option names and values as typed in --set, so they can be copied to the command line.
        for option, value in self.rules.to_dict().items():
            self.line(f"{option} = {option_text(value)}")
