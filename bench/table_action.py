"""The server's own work per action, without the network: ``--tables`` 4-seat tables in this
process, their seats' connections replaced by outboxes that count what they are sent, random
legal actions played at tables taken at random through :meth:`Table.act` (the path of a
WebSocket's action after its frame is parsed: the checks, the store's commit, the engine,
each seat's frame built and encoded).

Run by hand (not a test):

    python bench/table_action.py [--actions 20000] [--repeats 5] [--preset dudo]
                                 [--tables 500] [--profile FILE]

First it times the frames of one action alone, on 300 fixed moments of 4-player games: each
seat's frame built from its whole view and encoded whole (``wire.view_json``), against the
broadcast's way (``wire.update_frame``: the moment's ``PublicPart``, each seat's
``ViewerPart``, each part encoded once); medians of ``--repeats`` alternating runs, and their ratio.

Then, after a warm-up, it reports the median microseconds per action over the repeats (each
repeat plays ``--actions`` actions, rematching when a game ends; a fresh SQLite store in a temporary
folder). ``bench/server_load.py`` measures the whole server; this isolates the part that is
the project's own code, which ``bench/server_floor.py`` leaves out. The garbage collector runs
as in ``dudo serve`` (:func:`~dudo.server.collector.tune_garbage_collector`).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from dudo.engine import PRESETS, Game
from dudo.server.collector import tune_garbage_collector
from dudo.server.storage import Store, default_url
from dudo.server.tables import Hall, Seat, Settings, Table
from dudo.server.wire import dumps, event_json, shared_part, update_frame, view_json


class Outbox:
    """A connection that keeps only what it was sent last."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.since = -1
        self.game_id: int | None = None
        self.last = ""
        self.frames = 0
        self.sent_bytes = 0

    def send(self, text: str) -> None:
        self.last = text
        self.frames += 1
        self.sent_bytes += len(text)

    def end(self, code: int) -> None:
        pass


class Seated:
    """One table of the benchmark: its seats and their outboxes."""

    def __init__(self, table: Table, seats: list[Seat]) -> None:
        self.table = table
        self.seats = seats
        self.outboxes = [Outbox(s.seat) for s in seats]
        for outbox in self.outboxes:
            table.connected(outbox)


async def seat_table(hall: Hall, preset: str) -> Seated:
    table, _ = await hall.create("Ana", preset, {}, Settings(seats=4, grace_seconds=None), [])
    seats = [table.seats[0]]
    for name in ("Bo", "Cy", "Di"):
        seat, _ = await table.join(name)
        seats.append(seat)
    seated = Seated(table, seats)
    await table.start()
    return seated


async def play(
    actions: int, tables: int, preset: str, seed: int, profiler: cProfile.Profile | None
) -> float:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(default_url(Path(folder)))
        hall = Hall(store, asyncio.get_running_loop(), dice=random.Random(seed))
        seated = [await seat_table(hall, preset) for _ in range(tables)]
        choose = random.Random(seed)
        played = 0
        spent = 0.0
        while played < actions:
            # Tables take turns at random, as on a server: each action meets a table whose
            # state has left the processor's caches since its last one.
            at = choose.choice(seated)
            table, game = at.table, at.table.game
            assert game is not None
            if game.is_over:
                for seat in at.seats:
                    await table.set_ready(seat, True)
                await table.rematch()
                continue
            player = game.to_move
            seat = next(s for s in at.seats if table.player_of(s) == player)
            action = str(choose.choice(game.legal_actions(player)))
            turn = len(game.history)
            if profiler is not None:
                profiler.enable()
            began = time.thread_time()  # this thread's CPU: not the store's checkpoints
            await table.act(seat, action, turn)
            spent += time.thread_time() - began
            if profiler is not None:
                profiler.disable()
            played += 1
        frames = sum(o.frames for at in seated for o in at.outboxes)
        sent = sum(o.sent_bytes for at in seated for o in at.outboxes)
        for at in seated:
            at.table.stop()
        store.close()
    print(f"  {spent / actions * 1e6:7.1f} µs per action; {sent / frames:6.0f} bytes per frame")
    return spent / actions


def fixed_moments(preset: str, count: int, seed: int) -> list[Game]:
    choose = random.Random(seed)
    moments: list[Game] = []
    game = Game(PRESETS[preset], 4, seed=seed)
    while len(moments) < count:
        if game.is_over:
            game = Game(PRESETS[preset], 4, seed=seed + len(moments))
        moments.append(game.clone())
        game.push(choose.choice(game.legal_actions()))
    return moments


NAMES, SEATS = ["Ana", "Bo", "Cy", "Di"], [0, 1, 2, 3]


def frames_whole(game: Game) -> list[str]:
    """Each seat's frame from its whole view, encoded whole."""
    new = [event_json(len(game.events) - 1, game.events[-1], game.rules)]
    turn = len(game.history)
    return [
        dumps(
            {
                "type": "update",
                "game": 1,
                "events": new,
                "view": view_json(game.view(p), NAMES, SEATS, turn),
                "deadline": None,
                "auto": None,
            }
        )
        for p in range(4)
    ]


def frames_joined(game: Game) -> list[str]:
    """The broadcast's way: the moment's public part, each seat's ViewerPart, parts encoded
    once."""
    new = [event_json(len(game.events) - 1, game.events[-1], game.rules)]
    head = dumps({"type": "update", "game": 1, "events": new, "deadline": None, "auto": None})
    shared = shared_part(game.public_part(), NAMES, SEATS, len(game.history))
    return [update_frame(head, shared, game.viewer_part(p)) for p in range(4)]


def time_frames(preset: str, repeats: int, seed: int) -> None:
    moments = fixed_moments(preset, 300, seed)
    for game in moments[:50]:  # the same frames, read back
        assert [json.loads(f) for f in frames_whole(game)] == [
            json.loads(f) for f in frames_joined(game)
        ]
    times: dict[str, list[float]] = {"whole": [], "joined": []}
    for _ in range(repeats):
        for name, build in (("whole", frames_whole), ("joined", frames_joined)):
            began = time.perf_counter()
            for _ in range(10):
                for game in moments:
                    build(game)
            times[name].append((time.perf_counter() - began) / (10 * len(moments)))
    whole, joined = (statistics.median(times[k]) for k in ("whole", "joined"))
    print(
        f"frames of one action (4 seats): whole views {whole * 1e6:.1f} µs, "
        f"joined parts {joined * 1e6:.1f} µs; ratio {joined / whole:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--tables", type=int, default=500, help="4-seat tables in play")
    parser.add_argument("--preset", default="dudo")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default=None, help="write a cProfile file of all repeats")
    args = parser.parse_args()
    time_frames(args.preset, args.repeats, args.seed)
    # The garbage collector as dudo serve runs it: with Python's default policy, the
    # collections of the older generations walk every table, and land on whatever line
    # allocated last (a profile then blames that line).
    tune_garbage_collector()
    # A first, unmeasured game fills the engine's caches (the bids of each number of dice),
    # as a server that has been up for a while has them.
    asyncio.run(play(args.actions // 4, args.tables, args.preset, args.seed - 1, None))
    profiler = cProfile.Profile() if args.profile else None
    times = [
        asyncio.run(play(args.actions, args.tables, args.preset, args.seed + r, profiler))
        for r in range(args.repeats)
    ]
    print(
        f"median {statistics.median(times) * 1e6:.1f} µs per action, least "
        f"{min(times) * 1e6:.1f} ({args.repeats} repeats)"
    )
    if profiler is not None:
        profiler.dump_stats(args.profile)


if __name__ == "__main__":
    main()
