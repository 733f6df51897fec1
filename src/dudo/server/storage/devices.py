"""A player's devices and sessions: each device's uses of the player's key, and the new key
that signs every other device out (:mod:`dudo.server.devices`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa

from dudo.server.storage.database import Database
from dudo.server.storage.schema import (
    player_codes_table,
    player_devices_table,
    players_table,
    seats_table,
)

#: Devices kept per player: beyond it the longest unused is forgotten.
MAX_DEVICES = 20

# Sets of (code, seat, new token hash): the seats of a player whose key changed.
SeatHashes = list[tuple[str, int, str]]


@dataclass(frozen=True)
class Device:
    """A device that used a player's key: its id, its browser and system (each "" when not
    known), and its first and last use."""

    device: str
    browser: str
    system: str
    first_seen: float
    last_used: float


class DeviceStore(Database):
    """Devices and keys."""

    def touch_device(self, player_id: str, device: str, label: str, now: float) -> None:
        """Note a use of ``device`` by the player (a new device is added, the oldest beyond
        :data:`MAX_DEVICES` forgotten)."""
        table = player_devices_table
        mine = (table.c.player == player_id) & (table.c.device == device)
        with self.engine.begin() as c:
            if c.execute(table.update().where(mine).values(label=label, last_used=now)).rowcount:
                return
            c.execute(
                table.insert().values(
                    player=player_id, device=device, label=label, first_seen=now, last_used=now
                )
            )
            kept = (
                sa.select(table.c.device)
                .where(table.c.player == player_id)
                .order_by(table.c.last_used.desc())
                .limit(MAX_DEVICES)
            )
            c.execute(
                table.delete().where(table.c.player == player_id, table.c.device.not_in(kept))
            )

    def player_devices(self, player_id: str) -> list[Device]:
        """The player's devices, the last used first."""
        table = player_devices_table
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(table)
                .where(table.c.player == player_id)
                .order_by(table.c.last_used.desc(), table.c.first_seen.desc())
            ).all()
        listed = []
        for row in rows:
            browser, _, system = str(row.label).partition("|")
            listed.append(Device(row.device, browser, system, row.first_seen, row.last_used))
        return listed

    def rekey_player(
        self,
        player_id: str,
        old_hash: str,
        new_hash: str,
        seat_hash: Callable[[str, int], str],
        password: tuple[str, str] | None,
        device: str | None,
    ) -> SeatHashes | None:
        """Give the player the key of ``new_hash`` in place of ``old_hash``, in one transaction:
        the seats' token hashes (``seat_hash(code, seat)``), the password's sealed key (``password``:
        its hash and the key sealed by it), no codes, and no device but ``device``. None (nothing
        changed): the key was not the player's any more (a sign-out meanwhile)."""
        players = players_table
        values: dict[str, str] = {"key_hash": new_hash}
        if password is not None:
            values.update(password_hash=password[0], key_sealed=password[1])
        with self.engine.begin() as c:
            changed = c.execute(
                players.update()
                .where(players.c.id == player_id, players.c.key_hash == old_hash)
                .values(**values)
            ).rowcount
            if not changed:
                return None
            c.execute(player_codes_table.delete().where(player_codes_table.c.player == player_id))
            devices = player_devices_table
            c.execute(
                devices.delete().where(
                    devices.c.player == player_id, devices.c.device != (device or "")
                )
            )
            rows = c.execute(
                sa.select(seats_table.c.code, seats_table.c.seat).where(
                    seats_table.c.player_id == player_id, seats_table.c.kind == "human"
                )
            ).all()
            seats: SeatHashes = []
            for row in rows:
                digest = seat_hash(row.code, row.seat)
                c.execute(
                    seats_table.update()
                    .where(seats_table.c.code == row.code, seats_table.c.seat == row.seat)
                    .values(token_hash=digest)
                )
                seats.append((str(row.code), int(row.seat), digest))
        return seats
