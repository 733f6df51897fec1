"""The dice cup in the terminal: ``dudo cup`` (interactive) and ``dudo cup ACTION`` (one shot).

The interactive cup reads one command per line from any line source (a terminal, a pipe, a
list in tests) until ``q`` or end of input, saving the cup after every change so that nothing
is lost if the program is killed. Commands are single letters or words in English, Spanish or
Italian, case- and accent-insensitive; ``?`` lists them.

The one-shot form performs one of :data:`ACTIONS`, saves and prints the result. What the cup
says is in the message catalogue (:mod:`dudo.terminal.texts`), in English unless a caller
gives another ``lang`` (``dudo cup --lang es``).

Entry point for the CLI: :func:`cup_command`. It returns the process exit code: 0 done,
1 the action was impossible or the cup file could not be used, 2 unknown action.
"""

from __future__ import annotations

import enum
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dudo.cup import Cup, CupError
from dudo.cup.storage import (
    CorruptCupFileError,
    cup_path,
    load_cup,
    save_cup,
    set_aside_corrupt,
)
from dudo.terminal.commands import normalize
from dudo.terminal.texts import LANGS, counted, has
from dudo.terminal.texts import text as message

__all__ = [
    "ACTIONS",
    "Command",
    "InputSource",
    "cup_command",
    "parse_command",
    "render_cup",
    "run_cup",
    "run_cup_action",
]

#: Lines of input: an iterable of lines (``sys.stdin``, a list) or a function returning the
#: next line and raising :class:`EOFError` at the end (``input``).
InputSource = Iterable[str] | Callable[[], str]

#: The actions of the one-shot form ``dudo cup ACTION``.
ACTIONS = ("roll", "remove", "add", "hide", "show", "status", "new")


class Command(enum.Enum):
    ROLL = "roll"
    REMOVE = "remove"
    ADD = "add"
    TOGGLE = "toggle"
    HIDE = "hide"
    SHOW = "show"
    STATUS = "status"
    NEW = "new"
    HELP = "help"
    QUIT = "quit"


# The words of each command in English, Spanish and Italian (any of them works whatever the
# display language; the help lists the display language's, the first one naming the action).
# Matched without accents (see _normalize), so "perdí" and "perdi" both work.
_WORDS: dict[Command, dict[str, tuple[str, ...]]] = {
    Command.ROLL: {
        "en": ("r", "roll", "shake"),
        "es": ("tirar", "tira", "lanzar", "agitar"),
        "it": ("lancia",),
    },
    Command.REMOVE: {
        "en": ("-", "remove", "lost", "lose"),
        "es": ("quitar", "perdí"),
        "it": ("togli", "perso"),
    },
    Command.ADD: {
        "en": ("+", "add", "won", "win"),
        "es": ("añadir", "ganar", "gané"),
        "it": ("aggiungi", "vinto"),
    },
    Command.TOGGLE: {"en": ("h", "toggle"), "es": (), "it": ()},
    Command.HIDE: {
        "en": ("hide", "cover"),
        "es": ("tapar", "ocultar"),
        "it": ("copri", "nascondi"),
    },
    Command.SHOW: {"en": ("show",), "es": ("mostrar", "ver"), "it": ("mostra", "vedi")},
    Command.STATUS: {"en": ("s", "status"), "es": ("estado",), "it": ("stato",)},
    Command.NEW: {
        "en": ("n", "new", "reset"),
        "es": ("nuevo", "nueva"),
        "it": ("nuovo", "nuova"),
    },
    Command.HELP: {"en": ("?", "help"), "es": ("ayuda",), "it": ("aiuto",)},
    Command.QUIT: {"en": ("q", "quit", "exit"), "es": ("salir",), "it": ("esci",)},
}
_LOOKUP: dict[str, Command] = {
    normalize(word): cmd
    for cmd, words in _WORDS.items()
    for some in words.values()
    for word in some
}

# The help lists the commands in this order, each explained by cup_help_<command>.
_HELP_ORDER = (
    Command.ROLL,
    Command.REMOVE,
    Command.ADD,
    Command.TOGGLE,
    Command.HIDE,
    Command.SHOW,
    Command.STATUS,
    Command.NEW,
    Command.HELP,
    Command.QUIT,
)

_YES = frozenset({"y", "yes", "s", "si"})

_GLYPHS = "⚀⚁⚂⚃⚄⚅"
# Pip positions on a 3x3 grid (row, column) for faces 1..6.
_PIPS: dict[int, frozenset[tuple[int, int]]] = {
    1: frozenset({(1, 1)}),
    2: frozenset({(0, 2), (2, 0)}),
    3: frozenset({(0, 2), (1, 1), (2, 0)}),
    4: frozenset({(0, 0), (0, 2), (2, 0), (2, 2)}),
    5: frozenset({(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)}),
    6: frozenset({(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)}),
}
_DIE_WIDTH = 9
_GAP = "  "


# Shared with dudo play's command words, so both screens match words the same way.
_normalize = normalize


def _action_words(lang: str) -> list[str]:
    """The one-shot actions as the display language names them."""
    if lang not in LANGS or lang == "en":
        return list(ACTIONS)
    return [_WORDS[Command(action)][lang][0] for action in ACTIONS]


def parse_command(text: str) -> Command | None:
    """The command named by ``text`` (any case, accents optional), or None if unknown."""
    return _LOOKUP.get(_normalize(text))


# --- drawing ---------------------------------------------------------------------------------


def _die_art(face: int | None) -> list[str]:
    """Five lines drawing one die: ``None`` a covered die, 0 an empty (not rolled) one."""
    rows = []
    for r in range(3):
        if face is None:
            rows.append("│░░░░░░░│")
        else:
            pips = _PIPS.get(face, frozenset())
            rows.append("│ " + " ".join("●" if (r, c) in pips else " " for c in range(3)) + " │")
    return ["╭───────╮", *rows, "╰───────╯"]


def _caption(face: int) -> str:
    return f"{_GLYPHS[face - 1]} {face}"


def _dice_text(faces: Sequence[int | None], width: int) -> Text:
    """Dice drawn side by side with glyph and digit under each shown face; compact if narrow.

    ``None`` is a covered die, 0 a die not rolled yet.
    """
    shown = all(f for f in faces)
    if len(faces) * (_DIE_WIDTH + len(_GAP)) > width:
        # Too narrow for drawn dice: one glyph and digit per die.
        return Text("  ".join(_caption(f) if f else "▒▒▒" for f in faces), style="bold")
    arts = [_die_art(f) for f in faces]
    lines = [_GAP.join(art[i] for art in arts) for i in range(5)]
    if shown:
        lines.append(_GAP.join(_caption(f).center(_DIE_WIDTH) for f in faces if f))
    return Text("\n".join(lines), style="bold", no_wrap=True)


def render_cup(cup: Cup, width: int = 80, lang: str = "en") -> RenderableType:
    """The cup as a panel: the dice drawn large (or covered), and the count as the title."""
    title = counted(lang, "cup_title", cup.count)
    title += message(lang, "cup_hidden_mark") if cup.hidden else ""
    inner = width - 4  # the panel's border and padding
    body: RenderableType
    if cup.out:
        body = Text(message(lang, "cup_out"))
    elif not cup.rolled:
        body = Group(_dice_text([0] * cup.count, inner), Text(message(lang, "cup_not_rolled")))
    elif cup.hidden:
        body = Group(_dice_text([None] * cup.count, inner), Text(message(lang, "cup_hidden")))
    else:
        body = _dice_text(cup.dice, inner)
    return Panel(body, title=title, title_align="left", expand=False)


def _help(lang: str) -> RenderableType:
    title = message(lang, "cup_help_title")
    table = Table(title=title, title_justify="left", show_header=False, box=None, padding=(0, 1))
    table.add_column(no_wrap=True, style="bold")
    table.add_column()
    for cmd in _HELP_ORDER:
        words = _WORDS[cmd]
        # The one-character keys work in every language; then the display language's words.
        keys = [w for w in words["en"] if len(w) == 1] if lang in ("es", "it") else []
        shown = [*keys, *words.get(lang, words["en"])]
        table.add_row(" ".join(shown), message(lang, f"cup_help_{cmd.value}"))
    return table


# --- actions ---------------------------------------------------------------------------------


def _apply(cmd: Command, cup: Cup, rng: random.Random, lang: str) -> tuple[Cup, str]:
    """Perform a cup-changing (or showing) command; return the new cup and what to say.

    Raises :class:`CupError` for an impossible action.
    """
    if cmd is Command.ROLL:
        new = cup.roll(rng)
        said = counted(lang, "cup_rolled", new.count)
        return new, said + (message(lang, "cup_hidden_mark") if new.hidden else "")
    if cmd is Command.REMOVE:
        new = cup.remove_one()
        if new.out:
            return new, message(lang, "cup_lost_last")
        return new, message(lang, "cup_lost", count=new.count)
    if cmd is Command.ADD:
        new = cup.add_one(rng)
        said = message(lang, "cup_won", count=new.count)
        if new.rolled and not new.hidden:
            said += message(lang, "cup_new_die", die=_caption(new.dice[-1]))
        return new, said
    if cmd is Command.TOGGLE:
        cmd = Command.SHOW if cup.hidden else Command.HIDE
    if cmd is Command.HIDE:
        said = "cup_already_hidden" if cup.hidden else "cup_now_hidden"
        return cup.with_hidden(True), message(lang, said)
    if cmd is Command.SHOW:
        said = "cup_now_shown" if cup.hidden else "cup_already_shown"
        return cup.with_hidden(False), message(lang, said)
    if cmd is Command.NEW:
        return cup.reset(), message(lang, "cup_new_game", count=cup.max_dice)
    return cup, ""


def _save(console: Console, cup: Cup, path: Path, lang: str) -> bool:
    try:
        save_cup(cup, path)
    except CupError as err:
        warning = message(lang, "cup_warning")
        console.print(f"[red]{escape(warning)}[/] {escape(_describe(err, lang))}")
        return False
    return True


def _describe(err: CupError, lang: str) -> str:
    """What went wrong, in ``lang`` (an error without a code keeps the library's English)."""
    key = f"cup_error_{err.code}"
    if err.code is None or not has(key):
        return str(err)
    fields: dict[str, object] = dict(err.params)
    if isinstance(err, CorruptCupFileError):
        fields["detail"] = _describe(err.why, lang) if err.why is not None else err.reason
    return message(lang, key, **fields)


def _error(console: Console, err: CupError, lang: str, style: str = "yellow") -> None:
    text = _describe(err, lang)
    console.print(f"[{style}]{escape(text[:1].upper() + text[1:])}[/]")


def _reader(console: Console, source: InputSource) -> Callable[[str], str | None]:
    """A function that shows a prompt and returns the next line, or None at end of input."""
    next_line: Callable[[], str]
    if callable(source):
        next_line = source
    else:
        lines = iter(source)

        def next_from_iterable() -> str:
            try:
                return next(lines)
            except StopIteration:
                raise EOFError from None

        next_line = next_from_iterable

    def read(prompt: str) -> str | None:
        console.print(prompt, end="")
        try:
            return next_line()
        except (EOFError, KeyboardInterrupt):
            console.print()  # end the prompt line
            return None

    return read


def _open_interactive(
    console: Console, path: Path, read: Callable[[str], str | None], lang: str
) -> Cup | None:
    """Load the cup; for a damaged file, offer a fresh cup. None if the player declines."""
    try:
        return load_cup(path)
    except CorruptCupFileError as err:
        _error(console, err, lang, "red")
        answer = read(escape(message(lang, "cup_fresh_ask", name=path.name)))
        if answer is None or _normalize(answer) not in _YES:
            console.print(escape(message(lang, "cup_left_as_is", path=path)))
            return None
        try:
            kept = set_aside_corrupt(path)
        except CupError as rename_err:
            _error(console, rename_err, lang)
            return None
        console.print(escape(message(lang, "cup_damaged_kept", path=kept)))
        cup = Cup.fresh()
        _save(console, cup, path, lang)
        return cup
    except CupError as err:
        _error(console, err, lang)
        return None


def run_cup(
    console: Console,
    input_lines: InputSource,
    *,
    path: Path | None = None,
    rng: random.Random | None = None,
    lang: str = "en",
) -> int:
    """The interactive cup: read commands from ``input_lines`` until ``q`` or end of input.

    The cup is saved to ``path`` (default: :func:`dudo.cup.storage.cup_path`) after every
    change and on leaving. Returns 0, or 1 if the cup file could not be used or saved.
    """
    path = cup_path() if path is None else path
    rng = random.SystemRandom() if rng is None else rng
    read = _reader(console, input_lines)
    cup = _open_interactive(console, path, read, lang)
    if cup is None:
        return 1
    heading, keys = (escape(message(lang, key)) for key in ("cup_heading", "cup_keys"))
    console.print(f"[bold]{heading}[/]: {keys}")
    console.print(render_cup(cup, console.width, lang))
    saved = True
    while (line := read(escape(message(lang, "cup_prompt")))) is not None:
        cmd = parse_command(line)
        if cmd is None:
            shown = line.strip()
            shown = shown if len(shown) <= 30 else shown[:29] + "…"
            console.print(escape(message(lang, "cup_unknown", text=repr(shown))))
            continue
        if cmd is Command.QUIT:
            break
        if cmd is Command.HELP:
            console.print(_help(lang))
            continue
        try:
            new, said = _apply(cmd, cup, rng, lang)
        except CupError as err:
            _error(console, err, lang)
            continue
        if new != cup:
            cup = new
            saved = _save(console, cup, path, lang)
        if cup.hidden and cmd in (Command.HIDE, Command.TOGGLE):
            console.clear()  # the shown dice must not stay on screen (a no-op when piped)
        if said:
            console.print(escape(said))
        console.print(render_cup(cup, console.width, lang))
    saved = _save(console, cup, path, lang)
    bye = counted(lang, "cup_saved", cup.count) if saved else message(lang, "cup_not_saved")
    console.print(escape(bye))
    return 0 if saved else 1


def run_cup_action(
    action: str,
    console: Console,
    *,
    path: Path | None = None,
    rng: random.Random | None = None,
    lang: str = "en",
) -> int:
    """One action of :data:`ACTIONS` (any accepted word also works): load, act, save, print.

    Returns 0 done, 1 impossible action or unusable cup file, 2 unknown action. ``new``
    also recovers from a damaged cup file, keeping it as ``cup.json.corrupt``.
    """
    cmd = parse_command(action)
    if cmd is None or cmd is Command.QUIT:
        actions = ", ".join(_action_words(lang))
        console.print(
            escape(message(lang, "cup_unknown_action", action=repr(action), actions=actions))
        )
        return 2
    if cmd is Command.HELP:
        console.print(_help(lang))
        return 0
    path = cup_path() if path is None else path
    rng = random.SystemRandom() if rng is None else rng
    try:
        cup = load_cup(path)
    except CorruptCupFileError as err:
        if cmd is not Command.NEW:
            _error(console, err, lang, "red")
            console.print(escape(message(lang, "cup_run_new")))
            return 1
        try:
            kept = set_aside_corrupt(path)
        except CupError as rename_err:
            _error(console, rename_err, lang)
            return 1
        console.print(escape(message(lang, "cup_damaged_file_kept", path=kept)))
        cup = Cup.fresh()
    except CupError as err:
        _error(console, err, lang)
        return 1
    try:
        new, said = _apply(cmd, cup, rng, lang)
    except CupError as err:
        _error(console, err, lang)
        return 1
    if (new != cup or cmd is Command.NEW) and not _save(console, new, path, lang):
        return 1
    if said:
        console.print(escape(said))
    console.print(render_cup(new, console.width, lang))
    return 0


def cup_command(
    action: str | None,
    console: Console,
    stdin: InputSource | None = None,
    *,
    path: Path | None = None,
    rng: random.Random | None = None,
    lang: str = "en",
) -> int:
    """``dudo cup [ACTION]``: with no action the interactive cup reading ``stdin`` (default
    ``sys.stdin``), else one action, saying it all in ``lang``. Returns the process exit code
    (0, 1 or 2, also for an unknown language)."""
    if lang not in LANGS:
        unknown = message("en", "unknown_language", lang=repr(lang), languages=", ".join(LANGS))
        console.print(Text(message("en", "error", error=unknown), style="red"))
        return 2
    if action is None:
        source = sys.stdin if stdin is None else stdin
        return run_cup(console, source, path=path, rng=rng, lang=lang)
    return run_cup_action(action, console, path=path, rng=rng, lang=lang)
