"""The WebSocket frames of a table's hints (``hints``, ``odds``, ``suggest``, ``review``):
who may ask, and the answer, built by :mod:`dudo.server.learner` from the asking seat's own
view. At a table without hints each is refused with ``hints_off`` and nothing of it is sent."""

from __future__ import annotations

from typing import Any

from dudo.engine.errors import DudoError
from dudo.engine.game import Game
from dudo.server.errors import ErrorCode as E
from dudo.server.frames import hints_frame, odds_frame, review_frame, suggest_frame
from dudo.server.learner import ADVISER, hints_json, odds_json, parse_hint_action
from dudo.server.tables import ActionRefused, Seat, SeatKind, Table, TableStatus

#: The frame types answered here.
HINT_FRAMES = frozenset({"hints", "odds", "suggest", "review"})


def _player(table: Table, seat: Seat | None) -> tuple[int, Game]:
    game = table.game
    if seat is None or seat.kind is not SeatKind.HUMAN:
        raise ActionRefused(E.NOT_A_PLAYER, "hints are for the players in the game, not watchers")
    player = table.player_of(seat)
    if game is None or player is None:
        raise ActionRefused(E.NOT_A_PLAYER, "hints are for the players in the game, not watchers")
    return player, game


async def answer_hint(table: Table, seat: Seat | None, frame: dict[str, Any]) -> str:
    """The answer to one hint frame from ``seat``'s connection (its frame's text); raises
    :class:`ActionRefused` (nothing sent but the error) when it may not be answered."""
    kind = frame["type"]
    if not table.settings.hints:
        raise ActionRefused(
            E.HINTS_OFF, "hints are off at this table: they are chosen when a table is created"
        )
    if kind == "review":
        return await _review(table, seat)
    if table.status is not TableStatus.PLAYING or table.game is None or table.game.is_over:
        raise ActionRefused(E.NO_GAME, "no game is being played at this table")
    player, game = _player(table, seat)
    view = game.view(player)
    turn = len(game.history)
    if kind == "hints":
        return hints_frame(table.game_id, turn, hints_json(view))
    if kind == "odds":
        try:
            action = parse_hint_action(frame["action"], game.rules.faces)
        except (DudoError, ValueError) as exc:
            raise ActionRefused(
                E.UNKNOWN_ACTION, str(exc), action=str(frame["action"])[:40]
            ) from None
        return odds_frame(table.game_id, turn, str(action), odds_json(view, action))
    assert table.game_id is not None
    chosen = await table.learner.suggest(table.game_id, turn, view)
    return suggest_frame(table.game_id, turn, ADVISER, None if chosen is None else str(chosen))


async def _review(table: Table, seat: Seat | None) -> str:
    game, game_id, seed = table.game, table.game_id, table.seed
    if table.status is not TableStatus.OVER or game is None or not game.is_over:
        raise ActionRefused(E.NOT_OVER, "the review comes once the game is over")
    player, _ = _player(table, seat)
    assert game_id is not None and seed is not None
    found = await table.learner.review(game_id, game, seed, player)
    return review_frame(game_id, player, found)
