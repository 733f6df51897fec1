"""``dudo verify RECORD``: check that a finished server game's dice were fair.

The record's ``meta.fair`` holds the commitment shown before the game, the client seeds locked
at its start and the secret revealed at its end (scheme in :mod:`dudo.engine.fair`). The
command checks that SHA-256(secret) is the commitment and recomputes every chance outcome
(the seating and every roll, re-rolls included) from the secret and the seeds: exit 0 and one
line when all agree; exit 1 naming each outcome that differs (expected against found), or
saying why the record cannot be checked. Words in English, Spanish or Italian (``--lang``).
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.text import Text

from dudo.engine.errors import RecordError
from dudo.engine.fair import verify
from dudo.records import read_record

__all__ = ["verify_command"]

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "fair_one": "fair: the commitment matches the secret, and the one chance outcome ({n}) "
        "follows from it and the players' seeds ({seeds} sent)",
        "fair_many": "fair: the commitment matches the secret, and all {n} chance outcomes "
        "follow from it and the players' seeds ({seeds} sent)",
        "unfair_one": "NOT fair: {n} difference",
        "unfair_many": "NOT fair: {n} differences",
        "commitment": "the commitment is {expected}, but the SHA-256 of the secret is {found}",
        "roll": "chance[{index}] (a roll of {count}): expected {expected}, found {found}",
        "order": "chance[{index}] (the seating): expected {expected}, found {found}",
        "no_fair": "cannot verify: the record has no fair-dice data (meta.fair); only games "
        "played on a dudo server since provably fair dice have it",
        "bad": "cannot verify: {why}",
        "lang": "error: unknown language {lang!r}; languages are en, es, it",
    },
    "es": {
        "fair_one": "justa: el compromiso coincide con el secreto, y el único resultado de azar "
        "({n}) sale de él y de las semillas de los jugadores ({seeds} enviadas)",
        "fair_many": "justa: el compromiso coincide con el secreto, y los {n} resultados de azar "
        "salen de él y de las semillas de los jugadores ({seeds} enviadas)",
        "unfair_one": "NO es justa: {n} diferencia",
        "unfair_many": "NO es justa: {n} diferencias",
        "commitment": "el compromiso es {expected}, pero el SHA-256 del secreto es {found}",
        "roll": "chance[{index}] (una tirada de {count}): se esperaba {expected}, "
        "se encontró {found}",
        "order": "chance[{index}] (el orden de los asientos): se esperaba {expected}, "
        "se encontró {found}",
        "no_fair": "no se puede verificar: la partida no tiene datos de dados justos "
        "(meta.fair); solo los tienen las partidas jugadas en un servidor dudo con dados "
        "verificables",
        "bad": "no se puede verificar: {why}",
        "lang": "error: idioma desconocido {lang!r}; los idiomas son en, es, it",
    },
    "it": {
        "fair_one": "equa: l'impegno corrisponde al segreto, e l'unico esito casuale ({n}) "
        "deriva da esso e dai semi dei giocatori ({seeds} inviati)",
        "fair_many": "equa: l'impegno corrisponde al segreto, e tutti i {n} esiti casuali "
        "derivano da esso e dai semi dei giocatori ({seeds} inviati)",
        "unfair_one": "NON equa: {n} differenza",
        "unfair_many": "NON equa: {n} differenze",
        "commitment": "l'impegno è {expected}, ma lo SHA-256 del segreto è {found}",
        "roll": "chance[{index}] (un lancio di {count}): atteso {expected}, trovato {found}",
        "order": "chance[{index}] (l'ordine dei posti): atteso {expected}, trovato {found}",
        "no_fair": "impossibile verificare: la partita non ha dati sui dadi equi (meta.fair); "
        "li hanno solo le partite giocate su un server dudo con dadi verificabili",
        "bad": "impossibile verificare: {why}",
        "lang": "errore: lingua sconosciuta {lang!r}; le lingue sono en, es, it",
    },
}

_DICE = {
    "en": ("{n} die", "{n} dice"),
    "es": ("{n} dado", "{n} dados"),
    "it": ("{n} dado", "{n} dadi"),
}


def _many(lang: str, key: str, n: int, **fields: object) -> str:
    return _WORDS[lang][f"{key}_{'one' if n == 1 else 'many'}"].format(n=n, **fields)


def verify_command(path: Path, console: Console, lang: str = "en") -> int:
    """Print whether the record at ``path`` is fair; the exit code (0 fair, 1 not or cannot
    tell, 2 unknown language)."""
    if lang not in _WORDS:
        console.print(Text(_WORDS["en"]["lang"].format(lang=lang)), style="red")
        return 2
    words = _WORDS[lang]
    try:
        record = read_record(Path(path))
    except RecordError as exc:
        console.print(Text(words["bad"].format(why=exc)), style="red", soft_wrap=True)
        return 1
    fair = record.meta.get("fair")
    if not isinstance(fair, dict):
        console.print(Text(words["no_fair"]), style="red", soft_wrap=True)
        return 1
    try:
        differences = verify(fair, record.chance, record.rules.faces)
    except ValueError as exc:
        console.print(Text(words["bad"].format(why=exc)), style="red", soft_wrap=True)
        return 1
    if not differences:
        seeds = sum(1 for s in fair["seeds"] if s)
        console.print(Text(_many(lang, "fair", len(record.chance), seeds=seeds)), soft_wrap=True)
        return 0
    console.print(Text(_many(lang, "unfair", len(differences))), style="red")
    for d in differences:
        if d.index is None:
            line = words["commitment"].format(expected=d.expected, found=d.found)
        else:
            outcome = record.chance[d.index]
            count = len(outcome.values)
            dice = _DICE[lang][count != 1].format(n=count)
            line = words[outcome.kind].format(
                index=d.index, count=dice, expected=d.expected, found=d.found
            )
        console.print(Text(line), soft_wrap=True)
    return 1
