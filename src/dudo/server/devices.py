"""A player's devices, and signing them out.

Each browser makes a random device id and sends it (``X-Dudo-Device``) with its player key, so
the player sees which devices use their key, by last use, with the browser and system (say
Firefox and Android) read from the User-Agent (neither the address nor the whole User-Agent
is kept). A
device's use is written at most once a minute, off the request's path.

Signing out the other devices gives the player a new key: every copy of the old one gets 401
from then on, one-time codes not yet used stop working, and the seat tokens the old key gave
(a seat token is derived from the key) stop working too: each of the player's seats gets the
new key's token, and the connections that played them are closed (4401). The device that asks
gets the new key and its seats' new tokens, so it keeps its seats.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import OrderedDict
from typing import Any

from dudo.server.errors import ErrorCode, Refused
from dudo.server.frames import error_frame
from dudo.server.storage import SeatHashes
from dudo.server.tables import Hall, SeatKind

#: The header a browser sends its device id in.
DEVICE_HEADER = "x-dudo-device"
#: A device's use is written again after this many seconds, not sooner.
WRITE_SECONDS = 60.0
#: Close code of a connection whose seat token the player's new key replaced.
SIGNED_OUT = 4401
_DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")
# Checked in order: Edge and Opera say "Chrome" too, and Chrome says "Safari".
_BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS", "Firefox"),
    ("CriOS", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
)


def device_id(text: str | None) -> str | None:
    """The device id of a header (None: none, or not one a browser of ours makes)."""
    return text if text and _DEVICE_ID.fullmatch(text) else None


def device_label(user_agent: str | None) -> str:
    """``Firefox|Android``: the browser and the system of a User-Agent (each "" when not
    known), which the client words in its language."""
    agent = user_agent or ""
    browser = next((name for mark, name in _BROWSERS if mark in agent), "")
    system = next((name for mark, name in _SYSTEMS if mark in agent), "")
    return f"{browser}|{system}"


# ------------------------------------------------------------------------ the live tables


async def rekey_live(hall: Hall, player_id: str, seats: SeatHashes) -> None:
    """The player's seats at this process's live tables take their new token hashes (stored
    again under the table's lock, so a write of the seat racing the sign-out cannot bring the
    old hash back), and the connections that played them are closed."""
    for code, number, digest in seats:
        table = hall.tables.get(code)
        if table is None:
            continue
        async with table.lock:
            seat = table.seats[number] if number < len(table.seats) else None
            if seat is None or seat.kind is not SeatKind.HUMAN or seat.player_id != player_id:
                continue
            if seat.token_hash != digest:
                stored = seat.stored(token_hash=digest)
                await hall.answer(hall.store.save_seat, code, stored)
                seat.take(stored)
            for client in list(table.seat_clients.get(number, ())):
                refused = Refused(
                    ErrorCode.UNAUTHORIZED,
                    "this seat's player signed out other devices: this seat token no longer works",
                )
                client.send(error_frame(refused))
                client.end(SIGNED_OUT)


def listen(hall: Hall) -> None:
    """With several processes: rekey the live tables of this one when another signs out."""
    if hall.cluster is None:
        return

    def rekeyed(message: dict[str, Any]) -> None:
        seats = [(str(code), int(seat), str(digest)) for code, seat, digest in message["s"]]
        hall.spawn(rekey_live(hall, str(message["p"]), seats))

    hall.cluster.on_broadcast("player_rekeyed", rekeyed)


async def rekey_everywhere(hall: Hall, player_id: str, seats: SeatHashes) -> None:
    await rekey_live(hall, player_id, seats)
    if hall.cluster is not None and seats:
        hall.cluster.post(
            "dudo:all", {"k": "player_rekeyed", "p": player_id, "s": [list(s) for s in seats]}
        )


# ------------------------------------------------------------------- uses, written lazily


class DeviceUses:
    """When each (player, device) was last written, so a device in use is written once a
    minute, and the writes under way, which a listing waits for."""

    def __init__(self, max_entries: int = 100_000) -> None:
        self.max_entries = max_entries
        self.written: OrderedDict[tuple[str, str], float] = OrderedDict()
        self.pending: dict[str, set[asyncio.Task[None]]] = {}

    def seen(self, hall: Hall, player_id: str, device: str, user_agent: str | None) -> None:
        now = time.time()
        key = (player_id, device)
        if now - self.written.get(key, -WRITE_SECONDS) < WRITE_SECONDS:
            return
        self.written[key] = now
        self.written.move_to_end(key)
        while len(self.written) > self.max_entries:
            self.written.popitem(last=False)
        label = device_label(user_agent)
        task = asyncio.get_running_loop().create_task(
            self._write(hall, player_id, device, label, now)
        )
        self.pending.setdefault(player_id, set()).add(task)
        task.add_done_callback(lambda done: self._done(player_id, done))

    async def _write(self, hall: Hall, player_id: str, device: str, label: str, now: float) -> None:
        try:
            await hall.db.run(hall.store.touch_device, player_id, device, label, now)
        except Exception:
            self.written.pop((player_id, device), None)  # logged by the store; next use retries

    def _done(self, player_id: str, task: asyncio.Task[None]) -> None:
        tasks = self.pending.get(player_id)
        if tasks is not None:
            tasks.discard(task)
            if not tasks:
                del self.pending[player_id]

    async def settled(self, player_id: str) -> None:
        """Once the player's writes under way are done."""
        tasks = self.pending.get(player_id)
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    def forget(self, player_id: str) -> None:
        """The player's devices were signed out: the next use of each is written at once."""
        for key in [k for k in self.written if k[0] == player_id]:
            del self.written[key]
