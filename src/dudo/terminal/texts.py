"""The terminal's words in English, Spanish and Italian: command words and message templates.

Command words for ``dudo play`` live in one table (:data:`PLAY_WORDS`), matched like the dice
cup's (case- and accent-insensitive), so ``ayuda``, ``aiuto`` and ``help`` all work whatever
the display language. Messages are templates keyed by name with ``str.format`` fields, one
dictionary per language; :func:`text` picks one, :func:`dice` words a count of dice.
"""

from __future__ import annotations

import enum
import unicodedata

__all__ = [
    "LANGS",
    "PLAY_WORDS",
    "TEXTS",
    "PlayCommand",
    "dice",
    "normalize",
    "parse_play_command",
    "text",
]

LANGS = ("en", "es", "it")


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


TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "commands": (
            "Commands: ? or help (your options explained), hint or odds (the odds from what "
            "you see), moves or all (every legal action), "
            "rules (the rules in play), table (the table again), quit (stop; the game is saved)."
        ),
        "prompt": "Your move > ",
        "empty": "Type a bid or call, or ? for help.",
        "not_understood": "Not understood: {error}. Type ? for help.",
        "not_understood_short": "Not understood: {error}",
        "not_allowed": "Not allowed: {problem}",
        "quit_ask": "Quit this game? The record is saved either way. (y/N) > ",
        "leave": "You leave the game.",
        "play_on": "Playing on.",
        "how_to": "How to play your turn:",
        "your_dice": "Your dice: ",
        "this_round": "This round: {bids}",
        "standing": "Standing bid: {bid} by {name}",
        "lowest_openings": "Lowest openings",
        "lowest_raises": "Lowest raises",
        "more_bids": " ... ({count} in all: 'moves' lists them)",
        "or": "Or: {actions}",
        "intro_type": "Type a bid (5x3, five trains), a call ({calls}), ? for help, "
        "hint for the odds, or quit.",
        "die": "die",
        "dice": "dice",
        "table": "Table ({direction}, from the opener):",
        "clockwise": "clockwise",
        "counterclockwise": "counterclockwise",
        "out_short": "out",
        "tag_obliges": "obliges",
        "tag_obliged": "has obliged",
        "dice_in_play": "Dice in play: {count}",
        "all_dice": "All dice:",
        # Narration; a key ending in _you is the line for the player spoken to.
        "count": "Count of {faces} ({counting}): {count} for {bid}: {verdict}",
        "aces_only": "aces only",
        "aces_not_wild": "aces not wild",
        "aces_wild_natural": "aces wild beside a natural",
        "aces_wild": "aces wild",
        "exact": "exactly right",
        "not_exact": "not exact",
        "stands": "the bid stands",
        "fails": "the bid fails",
        "round": "Round {number}",
        "obliging_title": " (obliging round)",
        "opens": "{name} opens the round.",
        "opens_you": "{name} open the round.",
        "in_play": " Dice: {counts} ({total} in play)",
        "loses": "{name} loses {dice} ({remaining} left)",
        "loses_you": "{name} lose {dice} ({remaining} left)",
        "wins_die": "{name} wins a die ({remaining} now)",
        "wins_die_you": "{name} win a die ({remaining} now)",
        "out": "{name} is out of the game",
        "out_you": "{name} are out of the game",
        "calls": "calls {name}'s {bid}",
        "calls_you": "calls your {bid}",
        "spot_on": "claims {name}'s {bid} is exact",
        "spot_on_you": "claims your {bid} is exact",
        "doubts_pass": "doubts {name}'s pass",
        "doubts_pass_you": "doubts your pass",
        "out_of_turn": " out of turn",
        "winner": "Winner: {name}, after {rounds} rounds.",
        "winner_you": "Winner: you! You win the game after {rounds} rounds.",
    },
    "es": {
        "commands": (
            "Órdenes: ? o ayuda (tus opciones explicadas), pista o probabilidades (las "
            "probabilidades según lo que ves), jugadas (todas las acciones legales), reglas "
            "(las reglas en juego), mesa (la mesa otra vez), salir (parar; la partida se guarda)."
        ),
        "prompt": "Tu jugada > ",
        "empty": "Escribe una apuesta o un dudo, o ? para ayuda.",
        "not_understood": "No entendido: {error}. Escribe ? para ayuda.",
        "not_understood_short": "No entendido: {error}",
        "not_allowed": "No permitido: {problem}",
        "quit_ask": "¿Dejar esta partida? El registro se guarda igualmente. (s/N) > ",
        "leave": "Dejas la partida.",
        "play_on": "Seguimos jugando.",
        "how_to": "Cómo jugar tu turno:",
        "your_dice": "Tus dados: ",
        "this_round": "Esta ronda: {bids}",
        "standing": "Apuesta en pie: {bid} de {name}",
        "lowest_openings": "Aperturas más bajas",
        "lowest_raises": "Subidas más bajas",
        "more_bids": " ... ({count} en total: 'jugadas' las lista)",
        "or": "O: {actions}",
        "intro_type": "Escribe una apuesta (5x3, cinco trenes), un dudo ({calls}), ? para "
        "ayuda, pista para las probabilidades, o salir.",
        "die": "dado",
        "dice": "dados",
        "table": "Mesa ({direction}, desde quien abre):",
        "clockwise": "sentido horario",
        "counterclockwise": "sentido antihorario",
        "out_short": "fuera",
        "tag_obliges": "obliga",
        "tag_obliged": "ya obligó",
        "dice_in_play": "Dados en juego: {count}",
        "all_dice": "Todos los dados:",
        # Narration; a key ending in _you is the line for the player spoken to.
        "count": "Recuento de {faces} ({counting}): {count} para {bid}: {verdict}",
        "aces_only": "solo ases",
        "aces_not_wild": "los ases no son comodines",
        "aces_wild_natural": "ases comodines junto a uno natural",
        "aces_wild": "ases comodines",
        "exact": "exacta",
        "not_exact": "no es exacta",
        "stands": "la apuesta se cumple",
        "fails": "la apuesta falla",
        "round": "Ronda {number}",
        "obliging_title": " (ronda obligada)",
        "opens": "{name} abre la ronda.",
        "opens_you": "Abres la ronda.",
        "in_play": " Dados: {counts} ({total} en juego)",
        "loses": "{name} pierde {dice} (le quedan {remaining})",
        "loses_you": "Pierdes {dice} (te quedan {remaining})",
        "wins_die": "{name} gana un dado (ahora {remaining})",
        "wins_die_you": "Ganas un dado (ahora {remaining})",
        "out": "{name} queda fuera de la partida",
        "out_you": "Quedas fuera de la partida",
        "calls": "duda la {bid} de {name}",
        "calls_you": "duda tu {bid}",
        "spot_on": "afirma que la {bid} de {name} es exacta",
        "spot_on_you": "afirma que tu {bid} es exacta",
        "doubts_pass": "duda el paso de {name}",
        "doubts_pass_you": "duda tu paso",
        "out_of_turn": " fuera de turno",
        "winner": "Ganador: {name}, tras {rounds} rondas.",
        "winner_you": "¡Has ganado! Ganas la partida tras {rounds} rondas.",
    },
    "it": {
        "commands": (
            "Comandi: ? o aiuto (le tue opzioni spiegate), suggerimento o probabilità (le "
            "probabilità da ciò che vedi), mosse (tutte le azioni legali), regole (le regole "
            "in gioco), tavolo (di nuovo il tavolo), esci (smetti; la partita è salvata)."
        ),
        "prompt": "La tua mossa > ",
        "empty": "Scrivi una puntata o un dubito, o ? per aiuto.",
        "not_understood": "Non capito: {error}. Scrivi ? per aiuto.",
        "not_understood_short": "Non capito: {error}",
        "not_allowed": "Non permesso: {problem}",
        "quit_ask": "Lasciare questa partita? La registrazione è salvata comunque. (s/N) > ",
        "leave": "Lasci la partita.",
        "play_on": "Si continua.",
        "how_to": "Come giocare il tuo turno:",
        "your_dice": "I tuoi dadi: ",
        "this_round": "Questo giro: {bids}",
        "standing": "Puntata in piedi: {bid} di {name}",
        "lowest_openings": "Aperture più basse",
        "lowest_raises": "Rilanci più bassi",
        "more_bids": " ... ({count} in tutto: 'mosse' le elenca)",
        "or": "Oppure: {actions}",
        "intro_type": "Scrivi una puntata (5x3, cinque tre), un dubito ({calls}), ? per "
        "aiuto, suggerimento per le probabilità, o esci.",
        "die": "dado",
        "dice": "dadi",
        "table": "Tavolo ({direction}, da chi apre):",
        "clockwise": "senso orario",
        "counterclockwise": "senso antiorario",
        "out_short": "fuori",
        "tag_obliges": "obbliga",
        "tag_obliged": "ha già obbligato",
        "dice_in_play": "Dadi in gioco: {count}",
        "all_dice": "Tutti i dadi:",
        # Narration; a key ending in _you is the line for the player spoken to.
        "count": "Conteggio ({faces}, {counting}): {count} per {bid}: {verdict}",
        "aces_only": "solo assi",
        "aces_not_wild": "gli assi non sono jolly",
        "aces_wild_natural": "assi jolly accanto a uno naturale",
        "aces_wild": "assi jolly",
        "exact": "esatta",
        "not_exact": "non esatta",
        "stands": "la puntata regge",
        "fails": "la puntata cade",
        "round": "Giro {number}",
        "obliging_title": " (giro obbligato)",
        "opens": "{name} apre il giro.",
        "opens_you": "Apri il giro.",
        "in_play": " Dadi: {counts} ({total} in gioco)",
        "loses": "{name} perde {dice} (ne restano {remaining})",
        "loses_you": "Perdi {dice} (te ne restano {remaining})",
        "wins_die": "{name} vince un dado (ora {remaining})",
        "wins_die_you": "Vinci un dado (ora {remaining})",
        "out": "{name} è fuori dalla partita",
        "out_you": "Sei fuori dalla partita",
        "calls": "dubita della {bid} di {name}",
        "calls_you": "dubita della tua {bid}",
        "spot_on": "afferma che la {bid} di {name} è esatta",
        "spot_on_you": "afferma che la tua {bid} è esatta",
        "doubts_pass": "dubita del passo di {name}",
        "doubts_pass_you": "dubita del tuo passo",
        "out_of_turn": " fuori turno",
        "winner": "Vincitore: {name}, dopo {rounds} giri.",
        "winner_you": "Hai vinto! Vinci la partita dopo {rounds} giri.",
    },
}


def text(lang: str, key: str, **fields: object) -> str:
    """Message ``key`` in ``lang`` (English if the language is unknown), fields filled in."""
    return TEXTS.get(lang, TEXTS["en"])[key].format(**fields)


def dice(lang: str, count: int) -> str:
    """``"1 die"``, ``"2 dice"``; ``"1 dado"``, ``"2 dadi"``."""
    return f"{count} {text(lang, 'die' if count == 1 else 'dice')}"
