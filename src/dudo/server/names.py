"""Display names: the key two names must not share, and the refusal of a name someone owns.

Two names are one when they look alike: "Ana", "ana" and "ＡＮＡ" are one, and so are
"Victim" and "Vіctim" (with a Cyrillic і). The key is the name in NFKC, case-folded, then
reduced to its confusables skeleton (Unicode TR39, by the ``disarm`` library's table). Case
is folded first so that the key ignores case as it always did ("VICTIM" is "victim"); the
price is that a capital I and a small l, which TR39 puts together, stay apart.

A registered player's name is theirs: nobody else (a guest, another player) may sit at a table
under a name with the same key (the store finds its owner by the key,
:meth:`~dudo.server.storage.Store.name_owner`).
"""

from __future__ import annotations

import unicodedata

from disarm import skeleton_key

from dudo.server.errors import ErrorCode as E
from dudo.server.errors import Refused


def name_key(name: str) -> str:
    """What two display names must not share (at one table, or between players): "Ana",
    "ana", "ＡＮＡ" are one, and so are names that differ only by look-alike letters."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    # A name of marks alone reduces to nothing: keyed as itself, it still collides with itself.
    return skeleton_key(folded) or folded


def name_owned(name: str) -> Refused:
    return Refused(
        E.NAME_OWNED,
        f"the name {name!r} belongs to a registered player: choose another name, or sign in "
        "as that player",
        409,
        name=name,
    )
