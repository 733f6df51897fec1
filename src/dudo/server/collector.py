"""How a serving process runs Python's cyclic garbage collector, so that its pauses stay out of
the players' way however many tables are live.

What the collector costs here (measured with ``bench/server_load.py`` at 1,500 tables, 6,000
WebSockets). Every connection waiting for its next frame holds a dozen fresh objects (the
coroutines, the future, the frame being read), renewed at each frame, so a young collection
always meets thousands of them; and every action adds a few objects that live as long as its
game (the bid, the event). A collection walks each object it looks at and touches what that
object refers to, scattered over hundreds of megabytes, at about 0.6 µs per object:

- with a young generation of 20,000, every young collection took 35–45 ms (p99 40–55 ms);
- with 2,000 they take about 5 ms, but each middle collection walked the waiting connections
  and several seconds of game objects again: 130 ms;
- a full collection walks everything: 300–450 ms.

So the policy: small young collections, and whatever survives one is frozen at once
(``gc.freeze``, which only moves a list head), so that no object is ever walked twice and the
middle and full collections have nothing to walk. Frozen objects are still freed by reference
counting when their last reference goes, like any others; only a reference *cycle* that dies
after its first collection is kept. To bound that, every ``thaw_every`` seconds a background
thread unfreezes everything and makes one full collection: one pause of a few hundred
milliseconds every ten minutes instead of many. The player waits once; nothing grows.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from typing import Any

#: Young collections after this many new objects (Python's default is 700; more makes each
#: collection longer, not the total shorter).
YOUNG_THRESHOLD = 2_000
#: Seconds between the full collections that reclaim cycles among frozen objects.
THAW_EVERY = 600.0

log = logging.getLogger("dudo.server")


class FreezeSurvivors:
    """A ``gc.callbacks`` hook: after each collection, freeze what survived it; every
    ``thaw_every`` seconds, :meth:`thaw` collects everything once."""

    def __init__(self, thaw_every: float = THAW_EVERY) -> None:
        self.thaw_every = thaw_every
        self.thawing = False
        self.thaws = 0
        #: Objects the last thaw's full collection found to be garbage (cycles kept by freezing).
        self.last_thaw_collected = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and not self.thawing:
            gc.freeze()

    def thaw(self) -> None:
        """Unfreeze everything, collect it all once, and freeze the survivors again."""
        self.thawing = True
        began = time.perf_counter()
        try:
            gc.unfreeze()
            self.last_thaw_collected = gc.collect()
            gc.freeze()
        finally:
            self.thawing = False
            self.thaws += 1
        log.info(
            "full garbage collection: %d unreachable objects freed in %.0f ms",
            self.last_thaw_collected,
            (time.perf_counter() - began) * 1000,
        )

    def thaw_forever(self) -> None:
        """The body of the collector's thread."""
        while True:
            time.sleep(self.thaw_every)
            self.thaw()


def tune_garbage_collector(thaw_every: float = THAW_EVERY) -> FreezeSurvivors:
    """Install the policy above in this process (once; a second call returns the first hook).

    What is loaded so far (the libraries, the rules' tables) is collected once and frozen.
    """
    for hook in gc.callbacks:
        if isinstance(hook, FreezeSurvivors):
            return hook
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, 10, 10)
    hook = FreezeSurvivors(thaw_every)
    gc.callbacks.append(hook)
    threading.Thread(target=hook.thaw_forever, name="collector", daemon=True).start()
    return hook
