"""Players' name keys become confusables skeletons (Unicode TR39), so look-alike names collide.

Each player's key is computed again with :func:`dudo.server.names.name_key`. Names that the new
key makes one (``Victim`` and ``Vіctim`` with a Cyrillic і) keep one owner: the player who was
made first (then the smaller id) keeps the name, and each other is renamed ``<name> (2)``,
``(3)``... (the first number whose key is free, the name cut to fit 24 characters).

The old key (NFKC, case-folded) is what the new one is computed from, so two names the new key
tells apart were apart before too: the downgrade never collides.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import unicodedata
from typing import Any

import sqlalchemy as sa
from alembic import op

from dudo.server.names import name_key
from dudo.server.tables import MAX_NAME

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

players = sa.table(
    "players",
    sa.column("id", sa.String),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("created", sa.Float),
    sa.column("deleted", sa.Float),
)


def _named(c: sa.Connection) -> list[sa.Row[Any, Any]]:
    return list(
        c.execute(
            sa.select(players.c.id, players.c.name)
            .where(players.c.name.is_not(None), players.c.deleted.is_(None))
            .order_by(players.c.created, players.c.id)
        ).all()
    )


def _rekey(c: sa.Connection, names: dict[str, tuple[str, str]]) -> None:
    """Store each player's (name, key), in two steps so no key is held twice meanwhile."""
    c.execute(players.update().where(players.c.id.in_(list(names))).values(name_key=None))
    for player_id, (name, key) in names.items():
        c.execute(players.update().where(players.c.id == player_id).values(name=name, name_key=key))


def upgrade() -> None:
    c = op.get_bind()
    taken: set[str] = set()
    names: dict[str, tuple[str, str]] = {}
    for row in _named(c):
        name, key, number = row.name, name_key(row.name), 1
        while key in taken:  # a later player whose name looks like an earlier one's
            number += 1
            suffix = f" ({number})"
            name = row.name[: MAX_NAME - len(suffix)].rstrip() + suffix
            key = name_key(name)
        taken.add(key)
        names[row.id] = (name, key)
    _rekey(c, names)


def downgrade() -> None:
    c = op.get_bind()
    _rekey(
        c,
        {
            row.id: (row.name, unicodedata.normalize("NFKC", row.name).casefold())
            for row in _named(c)
        },
    )
