"""The words a person types to command a terminal screen, in English, Spanish and Italian.

Command words for ``dudo play`` live in one table (:data:`PLAY_WORDS`), matched like the dice
cup's (case- and accent-insensitive, :func:`normalize`), so ``ayuda``, ``aiuto`` and ``help``
all work whatever the display language. These are words read, not said: what the screens
say is in the message catalogue (:mod:`dudo.terminal.texts`).
"""

from __future__ import annotations

import enum
import unicodedata

__all__ = ["PLAY_WORDS", "PlayCommand", "normalize", "parse_play_command"]


def normalize(word: str) -> str:
    """``word`` trimmed, case-folded and without accents: how command words are compared."""
    decomposed = unicodedata.normalize("NFKD", word.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


class PlayCommand(enum.Enum):
    HELP = "help"
    HINT = "hint"
    MOVES = "moves"
    RULES = "rules"
    TABLE = "table"
    QUIT = "quit"


# English words first, then Spanish and Italian ones, stored without accents (see normalize).
# None of them may be a game word (a call, a face, a number), or it would shadow that action.
PLAY_WORDS: dict[PlayCommand, tuple[tuple[str, ...], tuple[str, ...]]] = {
    PlayCommand.HELP: (("?", "help", "h"), ("ayuda", "aiuto")),
    PlayCommand.HINT: (
        ("hint", "odds"),
        ("pista", "probabilidades", "suggerimento", "probabilita"),
    ),
    PlayCommand.MOVES: (("moves", "all"), ("jugadas", "mosse")),
    PlayCommand.RULES: (("rules",), ("reglas", "regole")),
    PlayCommand.TABLE: (("table", "status"), ("mesa", "tavolo")),
    PlayCommand.QUIT: (("quit", "exit", "q"), ("salir", "esci")),
}
_PLAY_LOOKUP: dict[str, PlayCommand] = {
    word: cmd for cmd, (english, others) in PLAY_WORDS.items() for word in (*english, *others)
}


def parse_play_command(word: str) -> PlayCommand | None:
    """The ``dudo play`` command named by ``word`` in any of the languages, or None."""
    return _PLAY_LOOKUP.get(normalize(word))
