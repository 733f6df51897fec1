"""A table from the store: as it was (its game played again from the seed and every stored
action, its automatic moves and grace periods scheduled again), or, when that fails, set
aside as broken."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dudo.engine.rules import DEFAULT_PRESET, PRESETS
from dudo.server.chat import Chat
from dudo.server.rated import RATED_FILL_LEVEL
from dudo.server.storage import StoredTable
from dudo.server.tables.checks import table_rules
from dudo.server.tables.model import STAND_IN_LEVEL, Seat, Settings, TableError, TableStatus
from dudo.server.tables.table import Table

if TYPE_CHECKING:
    from dudo.server.tables.hall import Hall


def stored_settings(s: dict[str, Any]) -> Settings:
    """A table's settings as stored; tables stored before a setting existed get its default."""
    settings = Settings(
        s["seats"],
        s["turn_seconds"],
        s["grace_seconds"],
        s["bot_seconds"],
        s.get("reveal_seconds", Settings.reveal_seconds),
        bool(s.get("hints", False)),
        int(s.get("fill_seconds", 0)),
        str(s.get("fill_level", STAND_IN_LEVEL)),
        bool(s.get("rated", False)),
    )
    if settings.rated:  # the site's fill, also at a rated table stored before it was
        settings.fill_level = RATED_FILL_LEVEL
    return settings


def restore(hall: Hall, stored: StoredTable) -> Table:
    """A stored table as it was: its game replayed from the seed and every stored action,
    its automatic moves and grace periods scheduled again."""
    settings = stored_settings(stored.settings)
    seats = [Seat(x.seat) for x in stored.seats]
    for seat, x in zip(seats, stored.seats, strict=True):
        seat.take(x)
    table = Table(
        hall, stored.code, stored.preset, stored.options, settings, seats, host=stored.host
    )
    table.public = stored.public
    table.chat = Chat(stored.chat_off, stored.chat)
    if table.hosting.host is not None:
        table.hosting.left()  # nobody is connected yet: the host's absence counts from now
    table.fair.resume(stored)
    game = stored.game
    if game is None:
        table.countdown.arm()  # a countdown cut by a restart counts again from the start
        if table.fair.next_secret is None:  # a table from before provably fair dice
            table.fair.new_next_secret()
        return table
    table.play.resume(game)
    table.status = TableStatus.OVER if game.finished else TableStatus.PLAYING
    table.results.resume(game)
    assert table.play.game is not None
    if table.play.game.is_over and not game.finished:
        # Stopped between the last action and storing the record: store it now.
        table.status = TableStatus.PLAYING
        hall.spawn(table.results.finish())
    if table.status is TableStatus.PLAYING:
        table.graces.start_absent()
        table.auto.schedule()
    elif table.fair.next_secret is None:
        table.fair.new_next_secret()
    return table


def set_aside(hall: Hall, stored: StoredTable, why: str) -> Table:
    """A stored table that could not be restored: kept in memory as broken, so its players
    are told so, and nothing of it runs."""
    try:
        rules = table_rules(stored.preset, stored.options)
    except TableError:
        rules = PRESETS.get(stored.preset, PRESETS[DEFAULT_PRESET])
    seats = []
    for x in stored.seats:
        seat = Seat(x.seat)
        try:
            seat.take(x)
        except ValueError:
            seat = Seat(x.seat)
        seats.append(seat)
    try:
        fields = Settings.__dataclass_fields__
        settings = Settings(**{k: v for k, v in stored.settings.items() if k in fields})
    except (KeyError, TypeError):
        settings = Settings(seats=len(seats))
    table = Table(
        hall, stored.code, stored.preset, stored.options, settings, seats, rules, stored.host
    )
    table.status = TableStatus.BROKEN
    table.problem_text = why
    table.public = stored.public
    if stored.game is not None:
        table.play.known(stored.game)
    return table
