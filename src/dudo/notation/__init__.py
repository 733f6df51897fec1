"""Bids and calls as text: parse and print in English, Spanish and Italian; face names.

Printing (:func:`format_action`)
    Style ``"short"``: bids as ``5x3`` in every language, calls in words of the language
    (en ``call``, ``spot on``, ``pass``, ``doubt the pass``, ``open``, ``closed``;
    es ``dudo``, ``calzo``, ``paso``, ``dudo el paso``, ``abierto``, ``cerrado``;
    it ``dubito``, ``calza``, ``passo``, ``dubito il passo``, ``aperto``, ``chiuso``).
    A reveal is ``5x3 reveal 3,3`` / ``5x3 muestra 3,3`` / ``5x3 mostra 3,3``.
    Style ``"long"``: bids in words with the face names, "five threes", "one ace",
    "cinco trenes", "un as", "veintiuna quinas", "tre assi", "un asso"; a reveal is appended
    as " (reveals 3, 3)" / " (muestra 3, 3)" / " (mostra 3, 3)". Calls are the same in both
    styles. Quantities 1..99 are written in words, larger ones in digits. Spanish numbers agree
    with the face ("un as", "una quina", "veintiún trenes"); Italian "uno" is "un" before a
    face ("un asso") and compounds stay whole ("ventuno assi").

Face names (:func:`face_name`)
    Lowercase, as in running text: en ace two three four five six, es as tonto tren cuadra
    quina sena, it asso due tre quattro cinque sei (plurals aces twos ... sixes, ases ... senas,
    assi due tre ...). Capitalise for a heading. ``naming="traditional"`` (also taken by
    :func:`format_action`) gives the English nicknames ace duck train quad queen hex (Spanish
    and Italian names are the same either way); :data:`FACE_NAMINGS` lists the namings.

Reading (:func:`parse_action`)
    Case, accents and width are ignored, and so is punctuation (spaces, ``. , ; : ! ? ¡ ¿``,
    brackets, quotes, hyphens, underscores); any other symbol is an error. A bid is
    *quantity* [``x``] *face* [*reveal-word* *die* *die* ...]:

    - *quantity*: digits (1..999), or number words 1..99 in one of the three languages:
      "twenty-one" / "twenty one" / "twentyone", "veintiuno" / "veintiún" / "veintiuna",
      "treinta y dos", "un" / "una" / "uno", "ventuno" / "ventun", "trentadue", "ventitré";
    - ``x`` may be written ``x``, ``×`` or ``*`` or left out: ``5x3``, ``5 x 3``, ``5*3``,
      ``5 3``; since punctuation separates, ``5-3`` and ``5.3`` read as 5x3 too;
    - *face*: a digit, or English one(s) ... six(es), ace(s), duck(s), train(s), trick(s),
      quad(s), queen(s), hex(es); Spanish as/ases, tonto(s), pato(s), don/dones, tren(es),
      cuadra(s), cuarta(s), cuarto(s), quina(s), china(s), burro(s), sena(s), sexta(s), cena(s),
      samba(s), diablo(s) and the numerals uno(s), dos, tres, cuatro(s), cinco(s), seis/seises;
      Italian asso/assi, uno, due, tre, quattro, cinque, sei;
    - *reveal-word*: reveal, reveals, r, muestra, muestro, revela, mostra, mostro, rivela,
      followed by the revealed dice as digits (``5x3 reveal 3,3``, ``5x3 r 3 3``).

    The last word before any reveal is the face and everything before it the quantity, so
    "dos dos" is 2x2 and "treinta y dos tres" is 32x3. That makes "twenty one" 20x1 (a bid
    of ones), not a bare quantity 21. Calls:

    - call: call, i call, doubt, i doubt, liar, dudo, yo dudo, dubito, io dubito;
    - spot-on: spot on, spot-on, spoton, exact, exactly, equalize, equalise, calzo, yo calzo,
      calza;
    - pass: pass, i pass, paso, yo paso, passo, io passo;
    - doubt-pass: doubt the pass, doubt pass, doubt-pass, i doubt the pass, call the pass,
      call pass, dudo el paso, dudo paso, yo dudo el paso, dubito il passo, dubito passo,
      io dubito il passo;
    - open: open, abierto, abierta, aperto, aperta; closed: closed, close, cerrado, cerrada,
      chiuso, chiusa.

    Who makes a call is not part of the text: every call reads as ``Call()``.

Canonical notation (:func:`canonical`)
    The language-neutral record form ``str(action)``: ``5x3``, ``call``, ``spot-on``, ``pass``,
    ``doubt-pass``, ``open``, ``closed``, ``5x3 reveal 3,3``. :func:`parse_action` reads
    every canonical string and every string :func:`format_action` prints back to the action.
"""

from __future__ import annotations

from dudo.engine.actions import Action
from dudo.notation._format import format_action
from dudo.notation._parse import parse_action
from dudo.notation._words import FACE_NAMINGS, LANGUAGES, face_name

__all__ = ["FACE_NAMINGS", "LANGUAGES", "canonical", "face_name", "format_action", "parse_action"]


def canonical(action: Action) -> str:
    """The language-neutral record notation of ``action`` (``5x3``, ``spot-on``, ...)."""
    return str(action)
