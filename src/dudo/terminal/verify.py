"""``dudo verify RECORD``: check that a finished server game's dice were fair.

The record's ``meta.fair`` holds the commitment shown before the game, the client seeds locked
at its start and the secret revealed at its end (scheme in :mod:`dudo.engine.fair`). The
command checks that SHA-256(secret) is the commitment and recomputes every chance outcome
(the seating and every roll, re-rolls included) from the secret and the seeds. Fair dice vouch
for nothing if the record around them was changed (its last roll dropped, another winner
written in), so it also replays the record as ``dudo replay`` does: every action through the
rules engine, which must draw exactly the recorded chance outcomes and end with the recorded
result. Exit 0 and one line when all agree; exit 1 naming each outcome that differs (expected
against found) and what the replay does not agree with, or saying why the record cannot be
checked. Words in English, Spanish or Italian (``--lang``).
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.text import Text

from dudo.engine.fair import verify
from dudo.records import Record, RecordError, ReplayMismatch, read_record, replay

__all__ = ["verify_command"]

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "fair_one": "fair: the commitment matches the secret, the one chance outcome ({n}) "
        "follows from it and the players' seeds ({seeds} sent), and replaying the actions "
        "gives the recorded result",
        "fair_many": "fair: the commitment matches the secret, all {n} chance outcomes "
        "follow from it and the players' seeds ({seeds} sent), and replaying the actions "
        "gives the recorded result",
        "inconsistent": "NOT consistent: replaying the record's actions by the rules does not "
        "give what it records",
        "chance_missing": "chance[{index}] is missing: the game needs one more chance outcome "
        "than the record's {total}",
        "chance_unused": "chance[{index}] is left over: the game draws only {index} of the "
        "record's {total} chance outcomes",
        "result_missing": "the record has no result, but the game ends with {replayed} winning "
        "in round {rounds}",
        "winner": "result.winner: the record says {recorded} won, but the game ends with "
        "{replayed} winning",
        "rounds": "result.rounds: the record says {recorded} rounds, but the game plays {replayed}",
        "result_early": "the record says {recorded} won, but the game is not over after the "
        "last action",
        "replay": "the replay stops: {why}",
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
        "fair_one": "justa: el compromiso coincide con el secreto, el único resultado de azar "
        "({n}) sale de él y de las semillas de los jugadores ({seeds} enviadas), y al repetir "
        "las jugadas se llega al resultado registrado",
        "fair_many": "justa: el compromiso coincide con el secreto, los {n} resultados de azar "
        "salen de él y de las semillas de los jugadores ({seeds} enviadas), y al repetir las "
        "jugadas se llega al resultado registrado",
        "inconsistent": "NO es coherente: al repetir con las reglas las jugadas de la partida "
        "no se obtiene lo que ella registra",
        "chance_missing": "falta chance[{index}]: la partida necesita un resultado de azar más "
        "que los {total} registrados",
        "chance_unused": "sobra chance[{index}]: la partida usa solo {index} de los {total} "
        "resultados de azar registrados",
        "result_missing": "no hay resultado registrado, pero la partida termina con la victoria "
        "de {replayed} en la ronda {rounds}",
        "winner": "result.winner: el registro dice que ganó {recorded}, pero la partida termina "
        "con la victoria de {replayed}",
        "rounds": "result.rounds: el registro dice {recorded} rondas, pero la partida dura "
        "{replayed}",
        "result_early": "el registro dice que ganó {recorded}, pero la partida no ha terminado "
        "tras la última jugada",
        "replay": "la repetición se detiene: {why}",
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
        "fair_one": "equa: l'impegno corrisponde al segreto, l'unico esito casuale ({n}) "
        "deriva da esso e dai semi dei giocatori ({seeds} inviati), e rigiocando le mosse si "
        "arriva al risultato registrato",
        "fair_many": "equa: l'impegno corrisponde al segreto, tutti i {n} esiti casuali "
        "derivano da esso e dai semi dei giocatori ({seeds} inviati), e rigiocando le mosse "
        "si arriva al risultato registrato",
        "inconsistent": "NON coerente: rigiocando con le regole le mosse della partita non si "
        "ottiene ciò che essa registra",
        "chance_missing": "manca chance[{index}]: la partita richiede un esito casuale in più "
        "dei {total} registrati",
        "chance_unused": "chance[{index}] è di troppo: la partita usa solo {index} dei {total} "
        "esiti casuali registrati",
        "result_missing": "manca il risultato registrato, ma la partita finisce con la vittoria "
        "di {replayed} al giro {rounds}",
        "winner": "result.winner: la registrazione dice che ha vinto {recorded}, ma la partita "
        "finisce con la vittoria di {replayed}",
        "rounds": "result.rounds: la registrazione dice {recorded} giri, ma la partita ne conta "
        "{replayed}",
        "result_early": "la registrazione dice che ha vinto {recorded}, ma la partita non è "
        "finita dopo l'ultima mossa",
        "replay": "la riproduzione si ferma: {why}",
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
    mismatch = _replay_problem(record, lang)
    if not differences and mismatch is None:
        seeds = sum(1 for s in fair["seeds"] if s)
        console.print(Text(_many(lang, "fair", len(record.chance), seeds=seeds)), soft_wrap=True)
        return 0
    if differences:
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
    if mismatch is not None:
        console.print(Text(words["inconsistent"]), style="red", soft_wrap=True)
        console.print(Text(mismatch), soft_wrap=True)
    return 1


def _replay_problem(record: Record, lang: str) -> str | None:
    """What replaying ``record`` (as ``dudo replay`` does) finds wrong, in ``lang``; None
    when every action is legal, every chance outcome drawn and the result the game's."""
    words = _WORDS[lang]
    try:
        replay(record)
    except ReplayMismatch as exc:
        fields: dict[str, object] = dict(exc.fields)
        for key in ("recorded", "replayed"):  # players, named; "rounds" stays a count
            if exc.code != "rounds" and key in fields:
                n = exc.fields[key]
                name = record.names[n] if 0 <= n < len(record.names) else "?"
                fields[key] = f"{name} (players[{n}])"  # the record's own entry, as chance[i]
        return words[exc.code].format(**fields)
    except RecordError as exc:  # an illegal action or a bad outcome: the engine's words
        return words["replay"].format(why=exc)
    return None
