"""The game in play at a table: starting it, each person's action (what their text means,
whether they may play it now and why not), and every action stored, applied and told; who
plays it (the engine player of each seat, who were people, who had a stand-in, who left, who
moved themselves), and the game as the store has it, played again after a restart."""

from __future__ import annotations

import contextlib
import logging
import re
import time
from typing import TYPE_CHECKING

from dudo.engine import Game, Setup
from dudo.engine.actions import Action, Bid, Call, Spoken
from dudo.engine.errors import DudoError, Reason, ReasonCode
from dudo.engine.events import Revealed
from dudo.engine.fair import FairSeed, chance_for
from dudo.notation import parse_action
from dudo.records import parse_setup, setup_to_dict
from dudo.server import ratings
from dudo.server.errors import ErrorCode as E
from dudo.server.frames import Auto
from dudo.server.logs import table_context
from dudo.server.storage import ActionWrite, FencedOut, StoredGame, StoreUnavailable
from dudo.server.tables.model import (
    MIN_SEATS,
    ActionRefused,
    AutoWhy,
    Seat,
    SeatKind,
    TableError,
    TableStatus,
)

if TYPE_CHECKING:
    from dudo.server.tables.table import Table

log = logging.getLogger("dudo.server")

_PLAYER_NUMBER = re.compile(r"\bplayer (\d+)\b")
_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def action_for(game: Game, player: int, text: str) -> Action:
    """The engine action ``player`` means by ``text`` (any notation); a call by a player who is
    not to move is an out-of-turn call; at a real table, a bid by a player who is not to move
    is said aloud (the bids said before it were not entered)."""
    action = parse_action(text, game.rules.faces)
    if isinstance(action, Call) and player != game.to_move:
        return Call(by=player)
    if isinstance(action, Spoken):  # what was said aloud up to this player's bid
        return Spoken(action.bid, player, action.passed)
    if type(action) is Bid and player != game.to_move and game.setup.spoken:
        # At a real table a bid entered out of turn ends the bids said aloud before it.
        return Spoken(action, player)
    return action


class Play:
    """The game of a table and its players (the current game's, or the last one's)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.game: Game | None = None
        self.game_id: int | None = None
        self.game_number = 0
        self.players: list[int] = []  # the seat of each engine player
        self.humans: set[int] = set()  # the engine players who were people when the game began
        #: Engine players who sat down as people and had a bot play for them at some point of
        #: this game (a stand-in after the grace period, or after a kick): the record says so.
        self.stood_in: set[int] = set()
        #: Engine players whose seat a bot took while they still had dice, and who have not
        #: taken it back: they left the game, and finish below everyone who played on.
        self.left_early: set[int] = set()
        #: Engine players whose person made at least one move of this game themselves (not a
        #: stand-in's, not the turn timer's): only they are rated (docs/ratings.md).
        self.acted: set[int] = set()
        #: The seating order the host gave (seats clockwise), kept for the rematch.
        self.seat_order: list[int] | None = None

    def player_of(self, seat: Seat | None) -> int | None:
        if seat is None or self.game is None:
            return None
        return self.players.index(seat.seat) if seat.seat in self.players else None

    def name_of(self, player: int) -> str:
        if not 0 <= player < len(self.players):
            return f"player {player + 1}"
        return self.table.seats[self.players[player]].name or f"player {player + 1}"

    # ------------------------------------------------------------------ starting

    async def start(self, order: list[int] | None = None) -> None:
        """The host starts the game (after a game, once everyone is ready); ``order``: the
        filled seats clockwise, the first to open (None: the rules' seating decides)."""
        table = self.table
        async with table.lock:
            table.refuse_if_broken()
            if table.status is TableStatus.PLAYING:
                raise TableError(409, "the game is already being played", E.ALREADY_PLAYING)
            if table.status is TableStatus.OVER:
                table.hosting.refuse_unready()
            if order is not None:
                self._check_order(order)
                self.seat_order = list(order)
            await self.begin()

    def _check_order(self, order: list[int]) -> None:
        filled = sorted(s.seat for s in self.table.seats if s.kind is not SeatKind.OPEN)
        if sorted(order) != filled:
            raise TableError(
                400,
                f"order: {order} is not the filled seats {filled}, each once, clockwise",
                E.BAD_ORDER,
            )

    def setup(self, filled: list[Seat]) -> Setup:
        """The setup of a game of the ``filled`` seats: the order the host chose (while those
        seats are the ones filled), and bids said aloud at a real table."""
        seats = [s.seat for s in filled]
        order = self.seat_order
        players = None
        if order is not None and sorted(order) == seats:
            players = tuple(seats.index(seat) for seat in order)
        return Setup(len(filled), players, spoken=self.table.settings.real)

    async def begin(self) -> None:
        """Start a game of the filled seats (under the table's lock): the engine checks it,
        the store keeps it, then everyone hears of it."""
        table = self.table
        filled = [s for s in table.seats if s.kind is not SeatKind.OPEN]
        self._check_count(len(filled))
        fair = table.fair.deal(filled)
        setup = self.setup(filled)
        try:  # the engine checks the game before anything is stored
            game = Game(table.rules, setup=setup, chance=fair.chance())
        except DudoError as exc:
            raise TableError(409, f"the game cannot start: {exc}", E.CANNOT_START) from None
        players = [
            {"seat": s.seat, "name": s.name, "kind": str(s.kind), "level": s.level}
            | ({"player_id": s.player_id} if s.player_id else {})
            # The seat token it is played with: its holder may read the game's chat later.
            | ({"token_hash": s.token_hash} if s.token_hash else {})
            for s in filled
        ]
        number = self.game_number + 1
        game_id = await table.hall.answer(
            table.hall.store.start_game,
            table.code,
            number,
            0,  # the old seed column: the fair secret decides these dice
            table.rules.to_dict(),
            players,
            fair,
            ratings.family(table.preset) if table.settings.rated else None,
            setup_to_dict(setup),
        )
        self.game_number, self.game_id = number, game_id
        table.fair.dealt(fair)
        self.players = [s.seat for s in filled]
        self.humans = {p for p, s in enumerate(filled) if s.kind is SeatKind.HUMAN}
        self.stood_in = set()
        self.left_early = set()
        self.acted = set()
        table.results.new_game()
        table.seating.game_begins()
        self.set_game(game)
        table.status = TableStatus.PLAYING
        log.info(
            "table %s: game %s started, %d players",
            table.code,
            game_id,
            len(filled),
            extra=table_context(table.code, game_id, players=len(filled)),
        )
        table.countdown.arm()  # the countdown is over once a game starts
        table.audience.new_game(game_id)
        table.changed()
        table.audience.broadcast_table()
        table.auto.schedule()
        table.audience.broadcast()
        table.graces.start_absent()

    def _check_count(self, filled: int) -> None:
        """The rules allow a game of ``filled`` players."""
        rules = self.table.rules
        need = max(MIN_SEATS, rules.min_players)
        if filled < need:
            raise TableError(
                409,
                f"at least {_WORDS[need]} seats must be filled to play under these rules, and "
                f"{_WORDS[filled]} {'is' if filled == 1 else 'are'}: "
                "invite a friend or add a bot",
                E.TOO_FEW_SEATS,
                count=need,
                filled=filled,
            )
        if rules.max_players is not None and filled > rules.max_players:
            raise TableError(
                409,
                f"these rules allow at most {rules.max_players} players, not "
                f"{filled}: remove a bot or a player",
                E.TOO_MANY_PLAYERS,
                count=rules.max_players,
                filled=filled,
            )

    def set_game(self, game: Game) -> None:
        self.game = game
        self.table.auto.seat_bots()

    def resume(self, stored: StoredGame) -> None:
        """The stored game as it was: its dice from the seed and every stored action, each
        checked, and who played it how."""
        table = self.table
        seats = table.seats
        self.game_id, self.game_number = stored.id, stored.number
        self.players = [p["seat"] for p in stored.players]
        self.humans = {i for i, p in enumerate(stored.players) if p.get("kind") == SeatKind.HUMAN}
        # Who was played by a bot when the server stopped (a stand-in taken back before the
        # stop is not known after it).
        self.stood_in = {
            p
            for p in self.humans
            if seats[self.players[p]].autoplay or seats[self.players[p]].kind is SeatKind.BOT
        }
        seed = table.fair.seed
        assert seed is not None
        setup = parse_setup(stored.setup, table.rules, len(self.players))
        game = self._replay(seed, setup, stored.actions)
        self.set_game(game)
        # Who left with dice is stored with their stand-in (a stand-in that went out since must
        # not place its person where it went out); games stored before that kept nothing, and
        # those who left among them are known while they still have dice.
        self.left_early = set(stored.left_early) | {p for p in self.stood_in if game.counts[p] > 0}
        self.acted = set(stored.acted)

    def known(self, stored: StoredGame) -> None:
        """The stored game's id and number alone: a broken table plays nothing."""
        self.game_id, self.game_number = stored.id, stored.number

    def _replay(self, seed: int | FairSeed, setup: Setup, actions: list[tuple[int, str]]) -> Game:
        """The game as stored: its dice from the seed and every stored action, each checked."""
        game = Game(self.table.rules, setup=setup, chance=chance_for(seed))
        for index, (player, text) in enumerate(actions):
            action = action_for(game, player, text)
            problem = game.problem(action)
            if problem is not None:
                raise DudoError(f"stored action {index} ({text}) is illegal: {problem}")
            game.push(action)
        return game

    # ------------------------------------------------------------------ a person's action

    def intent(self, seat: Seat | None, text: str) -> tuple[int, Action]:
        """The player ``seat`` is in the game and the engine action ``text`` means for them.
        Raises :class:`ActionRefused` when there is no game, the seat is not in it, or the
        text is not an action."""
        game = self.game
        if game is None or self.table.status is not TableStatus.PLAYING:
            raise ActionRefused(E.NO_GAME, "no game is being played at this table")
        if seat is not None and seat.kind is not SeatKind.HUMAN:
            seat = None  # kicked while this frame waited: the connection only watches now
        player = self.player_of(seat)
        if player is None:
            raise ActionRefused(
                E.NOT_A_PLAYER, "you are watching: only players in the game can act"
            )
        try:
            return player, action_for(game, player, text)
        except DudoError as exc:
            raise ActionRefused(E.UNKNOWN_ACTION, str(exc), action=text[:40]) from None

    async def act(self, seat: Seat | None, text: str, turn: int | None) -> None:
        """Play ``text`` for ``seat``. Raises :class:`ActionRefused` and changes nothing if
        the action is not this seat's to make now, or the store did not take it."""
        began = time.perf_counter()
        try:
            await self._act(seat, text, turn)
        finally:
            self.table.hall.metrics.action_seconds.observe(time.perf_counter() - began)

    async def _act(self, seat: Seat | None, text: str, turn: int | None) -> None:
        async with self.table.lock:
            player, action = self.intent(seat, text)
            game = self.game
            assert game is not None
            if turn is not None and turn != len(game.history):
                raise ActionRefused(
                    E.STALE,
                    f"the game has moved on (you chose at turn {turn}, it is now turn "
                    f"{len(game.history)}): choose again",
                )
            self.table.cups.require_rolled(action)
            problem = self.problem(player, action)
            if problem is not None:
                code = E.NOT_YOUR_TURN if self._out_of_turn(player, action) else E.ILLEGAL
                raise ActionRefused(code, problem, problem)
            try:
                await self.commit(player, action)
            except FencedOut:
                raise ActionRefused(
                    E.TABLE_MOVING,
                    "this table is moving to another server process, so your move was not "
                    "played: you will be reconnected; choose again there",
                ) from None
            except StoreUnavailable:
                raise ActionRefused(
                    E.STORE_UNAVAILABLE,
                    "your move could not be saved (the database is not answering), so nothing "
                    "changed: play it again in a moment",
                ) from None

    def explain(self, seat: Seat | None, text: str) -> Reason | None:
        """Why ``seat`` may not play ``text`` now (None: it may)."""
        player, action = self.intent(seat, text)
        return self.problem(player, action)

    def _out_of_turn(self, player: int, action: Action) -> bool:
        """Acting while another player is to move (only a call may, under cruzado, and at a
        real table what was said aloud)."""
        game = self.game
        assert game is not None
        return player != game.to_move and not isinstance(action, Call | Spoken)

    def problem(self, player: int, action: Action) -> Reason | None:
        """Why ``player`` may not play ``action`` now (None: they may). The engine decides; the
        answer names players by name, in the English and in the ``player`` parameter."""
        game = self.game
        assert game is not None
        if game.is_over:
            return Reason(ReasonCode.GAME_OVER, "the game is over")
        # The mover's action: the engine's check (a set lookup for a bid), not a search of
        # the list of every legal action; anyone else's: that list is one call at most.
        spoken = type(action) is Spoken
        if (player == game.to_move or spoken) and game.problem(action) is None:
            return None
        if player != game.to_move and action in game.legal_actions(player):
            return None
        mover = self.name_of(game.to_move)
        if self._out_of_turn(player, action):
            return Reason(
                ReasonCode.NOT_YOUR_TURN,
                f"it is {mover}'s turn, not yours: wait for your turn",
                player=mover,
            )
        if player != game.to_move and not self.table.rules.cruzado and not spoken:
            return Reason(
                ReasonCode.CRUZADO_OFF,
                f"it is {mover}'s turn: under these rules nobody may call out of turn",
                player=mover,
            )
        why = game.problem(action) or Reason(
            ReasonCode.NOT_LEGAL_NOW,
            f"{action} is not one of your legal actions now",
            action=str(action),
        )
        params = dict(why.params)
        who = params.get("player")
        if isinstance(who, int):
            params["player"] = self.name_of(who)
        text = _PLAYER_NUMBER.sub(lambda m: self.name_of(int(m[1])), why)
        return Reason(why.code, text, **params)

    # ------------------------------------------------------------------ every action

    async def commit(self, player: int, action: Action, why: AutoWhy | None = None) -> None:
        """Store, apply and broadcast one legal action (under the table's lock); ``why`` says
        why a human's seat was played automatically. Raises :class:`StoreUnavailable`, having
        changed nothing, if the store does not take it."""
        table = self.table
        game = self.game
        assert game is not None and self.game_id is not None
        seq = len(game.history)
        await table.hall.db.add_action(
            ActionWrite(table.code, self.game_id, seq, player, str(action))
        )
        by = str(why) if why is not None else "person" if player in self.humans else "bot"
        if by == "person" and player not in self.acted:
            self._acted(player)  # before the push: this move may end the game
        table.hall.metrics.count_action(by)
        first_new = len(game.events)
        game.push(action)
        table.changed()
        if any(isinstance(e, Revealed) for e in game.events[first_new:]):
            table.auto.revealed()
        if game.is_over:
            await table.results.finish()
        table.auto.schedule()  # first, so the update carries the new mover's deadline
        auto: Auto | None = None
        if why is not None:
            auto = {"player": player, "why": str(why), "action": str(action)}
        table.audience.broadcast(auto)
        if table.settings.real:  # a new round: its cups are to roll
            table.audience.broadcast_table()

    def _acted(self, player: int) -> None:
        """The person of ``player`` made their first move of this game themselves. A rated
        game keeps that at once (the result keeps it again), so a restart still rates them."""
        self.acted.add(player)
        if self.table.settings.rated and self.game_id is not None:
            self.table.hall.spawn(self._keep_acted(self.game_id, player))

    async def _keep_acted(self, game_id: int, player: int) -> None:
        hall = self.table.hall
        with contextlib.suppress(StoreUnavailable):  # logged; the result stores it again
            await hall.db.run(hall.store.mark_acted, game_id, player)

    # ------------------------------------------------------------------ stand-ins

    def left(self, player: int | None, left: bool) -> tuple[int, int, bool] | None:
        """What :meth:`Store.save_seat` keeps of the person of ``player`` leaving the game in
        play (``left``) or coming back: leaving counts only with dice left, as in
        :meth:`stand_in`."""
        if player is None or self.game is None or self.game_id is None:
            return None
        return self.game_id, player, left and self.game.counts[player] > 0

    def stand_in(self, player: int) -> None:
        """A bot plays for the person of engine player ``player`` from now on."""
        self.stood_in.add(player)
        if self.game is not None and self.game.counts[player] > 0:
            self.left_early.add(player)

    def back(self, player: int) -> None:
        """The person of ``player`` took their seat back in time: they did not leave."""
        self.left_early.discard(player)
