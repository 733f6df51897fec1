"""The game loop of ``dudo play``: you against computer players on one console.

:class:`Screen` narrates every event, asks for your move at your turn (a bid or call in any
notation, or a command word), lets the bots play theirs, offers the out-of-turn calls of
cruzado, and says why typed text is no move or a move is not allowed: the notation's or the
engine's code worded in the game's language, as the web client words it (:meth:`Screen.unread`,
:meth:`Screen.reason`). What it draws is :class:`~dudo.terminal.panels.Panels`'.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from rich.console import Console

from dudo.bots import Bot, out_of_turn_call
from dudo.engine.actions import CALL, Action, Bid, Call, ObligeChoice
from dudo.engine.errors import IllegalActionError, NotationCode, NotationError, Reason
from dudo.engine.events import Eliminated, RoundStarted, VisibilityChosen
from dudo.engine.game import Game
from dudo.engine.view import PlayerView
from dudo.notation import face_name, format_action, parse_action
from dudo.review import Decision
from dudo.terminal.commands import PlayCommand, normalize, parse_play_command
from dudo.terminal.panels import Panels, is_bid
from dudo.terminal.review import show_hint
from dudo.terminal.texts import has, placeholders, template
from dudo.terminal.texts import text as message

__all__ = ["BOT_PAUSE", "InputFn", "Quit", "Screen"]

#: Reads one line after showing a prompt, like :func:`input`; raises :class:`EOFError` at
#: the end of input.
InputFn = Callable[[str], str]

#: Seconds a bot waits before acting, when the output is a terminal.
BOT_PAUSE = 0.6

_YES = frozenset({"y", "yes", "s", "si"})  # compared normalized: "sí", "sì" match


class Quit(Exception):
    """The player stops the game; ``status`` goes into the record's meta data."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Screen(Panels):
    """One game on the console: the human in seat 0, bots in the other seats."""

    def __init__(
        self,
        game: Game,
        names: tuple[str, ...],
        bots: Mapping[int, Bot],
        console: Console,
        read: InputFn,
        lang: str,
        preset_name: str | None,
        seed: int | None,
        naming: str = "usual",
    ) -> None:
        spoken_to = names[0].casefold() in {"you", message(lang, "you_name").casefold()}
        if spoken_to:  # the default name is shown as the language's "you"
            names = (message(lang, "you_name"), *names[1:])
        super().__init__(
            console,
            names,
            game.view(0).rules,
            lang,
            you=0 if spoken_to else None,
            bots=bots,
            preset_name=preset_name,
            seed=seed,
            naming=naming,
        )
        self.game = game
        self.read = read
        self.pause = BOT_PAUSE if console.is_terminal else 0.0
        self.seen_events = 0
        self.decisions: list[Decision] = []  # yours, with the view you had, for the review

    def view(self) -> PlayerView:
        return self.game.view(self.seat)

    # --------------------------------------------------------------------- the game

    def run(self) -> None:
        self.intro()
        self.narrate()
        while True:
            v = self.view()
            if v.is_over or v.to_move is None:
                return
            mover = v.to_move
            if mover == self.seat:
                self.your_turn()
            else:
                self.bot_turn(mover)
            self.narrate()
            self.out_of_turn_calls(mover)

    def push(self, action: Action) -> None:
        self.game.push(action)

    def bot_turn(self, seat: int) -> None:
        if self.pause and not self.brief:
            time.sleep(self.pause)
        self.push(self.bots[seat].choose(self.game.view(seat)))

    def out_of_turn_calls(self, last: int) -> None:
        """Under cruzado: after an action that leaves a bid standing, you (unless you just
        acted) and then the bots, in play order from the bidder, may call it out of turn."""
        if not self.rules.cruzado:
            return
        v = self.view()
        if v.is_over or v.standing_bid is None or v.bidder is None or v.phase != "bidding":
            return
        mine = Call(by=self.seat)
        if (
            last != self.seat
            and not self.brief
            and mine in v.legal_actions
            and self.ask_out_of_turn(v)
        ):
            self.push(mine)
            self.decisions.append(Decision(v, mine))
            self.narrate()
            return
        for seat in self.play_sequence(v, v.bidder):
            bot = self.bots.get(seat)
            if bot is None:
                continue
            call = out_of_turn_call(bot, self.game.view(seat))
            if call is not None:
                self.push(call)
                self.narrate()
                return

    def ask_out_of_turn(self, v: PlayerView) -> bool:
        assert v.standing_bid is not None and v.bidder is not None and v.to_move is not None
        word = format_action(CALL, self.lang)
        prompt = self.about(
            "out_of_turn_ask", v.bidder, bid=v.standing_bid, next=self.name(v.to_move), word=word
        )
        while True:
            text = self.read(prompt).strip()
            if not text:
                return False
            if self.command(text, v):
                continue
            try:
                action = parse_action(text, self.rules.faces)
            except NotationError as exc:
                self.line(self.t("not_understood_short", error=self.unread(text, exc)), "red")
                continue
            if isinstance(action, Call):
                return True
            self.line(self.t("out_of_turn_only", name=self.name(v.to_move), word=word), "red")

    # ------------------------------------------------------------------- your turn

    def your_turn(self) -> None:
        v = self.view()
        self.status(v)
        while True:
            text = self.read(self.t("prompt")).strip()
            if not text:
                self.line(self.t("empty"), style="red")
                continue
            v = self.view()
            if self.command(text, v):
                continue
            try:
                action = parse_action(text, self.rules.faces)
            except NotationError as exc:
                self.line(self.t("not_understood", error=self.unread(text, exc)), style="red")
                continue
            problem = self.problem(action, v)
            if problem is None:
                try:
                    self.push(action)
                    self.decisions.append(Decision(v, action))
                    return
                except IllegalActionError as exc:
                    problem = self.illegal(action, exc)
            self.line(self.t("not_allowed", problem=problem), style="red")
            hint = self.options_hint(v)
            if hint:
                self.line(hint)

    def problem(self, action: Action, v: PlayerView) -> str | None:
        """Why ``action`` is not yours to make now, in words for you; None: ask the engine."""
        if v.phase == "choose_visibility":
            if isinstance(action, ObligeChoice):
                return None
            return self.t("must_choose", choices=self.choice_words())
        if v.standing_bid is None and not is_bid(action):
            return self.t("reason.opener_must_bid_you")
        return None

    def unread(self, typed: str, exc: NotationError) -> str:
        """Why ``typed`` is no bid or call: the notation's code worded in the game's language
        (``notation.<code>``), with an example in that language where it gives one."""
        if exc.code is None:  # not a reading mistake: say plainly that it is no move
            return self.t("notation.not_a_move", text=typed)
        fields: dict[str, object] = dict(exc.params)
        faces = self.rules.faces
        quantity, face = fields.get("quantity"), fields.get("face")
        if exc.code is NotationCode.QUANTITY_NO_FACE and isinstance(quantity, int):
            fields["example"] = self.say(Bid(quantity, min(3, faces)))
        elif exc.code is NotationCode.FACE_NO_QUANTITY and isinstance(face, int):
            fields["example"] = self.say(Bid(5, face))
        else:
            fields["example"] = self.reveal_example()
        return self.t(f"notation.{exc.code}", **fields)

    def illegal(self, action: Action, exc: IllegalActionError) -> str:
        """Why the engine refused ``action``: its reason code worded in the game's language
        (:meth:`reason`)."""
        found = exc.args[0] if exc.args else None
        if not isinstance(found, Reason):  # raised without a code: ask the engine again
            found = self.game.problem(action)
        if found is None:
            return self.t("not_legal", action=self.say(action))
        return self.reason(found)

    def reason(self, reason: Reason) -> str:
        """An engine :class:`Reason` in the game's language, from the ``reason.<code>`` texts
        the web client words it with too. Bids in its parameters are said with their words, a
        face by name, a player by name (the ``_you`` form for you); a refused raise names
        both bids, and a refused bid the bid, where the reason's words do not."""
        params = reason.params
        fields: dict[str, object] = {}
        for name, value in params.items():
            if name in ("bid", "new", "standing") and isinstance(value, str):
                fields[name] = self.said_bid(value)
            elif name == "face" and isinstance(value, int) and 1 <= value <= self.rules.faces:
                fields[name] = face_name(value, self.lang, naming=self.naming)
            elif name == "dice" and isinstance(value, str):
                fields[name] = value.replace(",", ", ")
            elif name == "player" and isinstance(value, int):
                fields[name] = self.name(value)
            else:
                fields[name] = value
        key = f"reason.{reason.code}"
        count = params.get("count")
        if isinstance(count, int):
            key += "_one" if count == 1 else "_other"
        elif self.you is not None and params.get("player") == self.you and has(key + "_you"):
            key += "_you"
        body = self.t(key, **fields)
        named = placeholders(template(self.lang, key))
        if "new" in fields and "standing" in fields and not named & {"new", "standing"}:
            return self.t("reason_raise", reason=body, **fields)
        if "bid" in fields and "bid" not in named:
            return self.t("reason_bid", reason=body, **fields)
        return body

    def command(self, text: str, v: PlayerView) -> bool:
        """Handle a screen command (a word in any language); False when ``text`` is not one."""
        cmd = parse_play_command(text)
        if cmd is PlayCommand.HELP:
            self.help(v)
        elif cmd is PlayCommand.HINT:
            show_hint(self, v)
        elif cmd is PlayCommand.MOVES:
            self.all_moves(v)
        elif cmd is PlayCommand.RULES:
            self.show_rules()
        elif cmd is PlayCommand.TABLE:
            self.status(v)
        elif cmd is PlayCommand.QUIT:
            answer = self.read(self.t("quit_ask"))
            if normalize(answer) in _YES:
                raise Quit("quit", self.t("leave"))
            self.line(self.t("play_on"))
        else:
            return False
        return True

    # -------------------------------------------------------------------- narration

    def narrate(self) -> None:
        """Print the events since the last call (all public), then the dice of a new deal."""
        v = self.view()
        new = v.events[self.seen_events :]
        self.seen_events = len(v.events)
        dealt = False
        for e in new:
            self.event(e)
            if isinstance(e, RoundStarted | VisibilityChosen):
                dealt = True
            if isinstance(e, Eliminated) and e.player == self.seat and not v.is_over:
                self.brief = True
                self.console.print()
                self.line(self.t("out_brief"), style="bold", indent=0)
        if dealt and not self.brief and not v.is_over and not v.my_turn:
            # A new deal: the table and your dice (at your turn the status shows them).
            self.table(v)
            self.your_dice(v)
