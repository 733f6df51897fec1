"""What keeps a rated game's result earned: nobody but a player can worsen their own place,
and no bot at a rated table plays to lose. docs/ratings.md states the rules.

- Once a rated game has started, the host cannot remove a person from it (a kick would hand
  the seat to a stand-in and place its person last): only the person's own absence past the
  grace period does that.
- The countdown of a rated table fills its open seats with :data:`RATED_FILL_LEVEL` bots,
  whatever level the table's creator (or a "Play now" request) asked for, and no bot of a
  level in :data:`FREE_WIN_LEVELS` sits at a rated table at all.
- Which players a rated game's result counts for is :func:`dudo.server.ratings.counted`."""

from __future__ import annotations

from collections.abc import Iterable

from dudo.server.errors import ErrorCode as E
from dudo.server.errors import Refused

#: The level of the bots a rated table's countdown seats: the site's choice, never the
#: caller's, so a rated win over the fill is a win over a bot that plays to win.
RATED_FILL_LEVEL = "medium"
#: Levels that play at random: a win over them is free, so no rated table seats them.
FREE_WIN_LEVELS = frozenset({"random"})


def check_rated_bots(levels: Iterable[str]) -> None:
    """Refuse a bot that would give free wins at a rated table."""
    for level in levels:
        if level in FREE_WIN_LEVELS:
            raise Refused(
                E.RATED_BOT_LEVEL,
                f"a rated table has no {level} bot: it plays at random, which would give its "
                "opponents free wins; choose easy, medium or hard",
                400,
                level=level,
            )


def rated_kick() -> Refused:
    """The refusal of removing a person from a rated game in play."""
    return Refused(
        E.RATED_NO_KICK,
        "a player cannot be removed from a rated game once it has started: if they go, a bot "
        "plays their seat after the grace period",
        409,
    )
