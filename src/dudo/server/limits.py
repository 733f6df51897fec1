"""The server's limits, in one place: what one client may send and how fast.

Every number here can be changed for one server with ``dudo serve --limit NAME=VALUE``; the
defaults suit a server open to the internet. The per-address limits are kept by
:class:`Buckets` (token buckets that forget idle addresses) and :class:`Guard` (all of them for
one running server); going over one raises :class:`RateLimited`, which the server answers with
HTTP 429 or, on a WebSocket, an error frame and close code 4429."""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# How the defaults were chosen: the people a limit must never bother are a family or a club
# night on one home network, all behind one address: a few dozen people, each with a tab or
# two and a phone, making a table or a cup each and mistyping a code now and then. A script
# does the same hundreds of times a minute. So each burst covers a whole club arriving at once,
# and each refill rate is what people can do by hand but far below what makes a server slow
# or lets a guesser find a table (codes have 31**6 values: at 6 a minute, finding one of a
# thousand live tables takes about two months).


@dataclass(frozen=True)
class Limits:
    """What one connection or one address may do.

    ============================  ========  ====================================================
    name                          default   meaning
    ============================  ========  ====================================================
    ``max_body``                  16384     largest HTTP request body, in bytes
    ``frame_rate``                20        WebSocket frames a connection may send per second
    ``frame_burst``               40        frames a connection may send at once above that
    ``max_strikes``               20        frames refused for the rate before the close (1008)
    ``hello_seconds``             10        seconds a new WebSocket has to send its hello
    ``max_queue``                 1000      frames queued for a connection that does not read
    ``tables_burst``              20        tables an address may create at once
    ``tables_per_minute``         6         then this many tables a minute
    ``cups_burst``                30        dice cups an address may create at once
    ``cups_per_minute``           10        then this many cups a minute
    ``sockets_burst``             100       WebSocket connections an address may open at once
    ``sockets_per_minute``        60        then this many a minute
    ``sockets_per_address``       200       WebSocket connections open at once per address
    ``lookups_burst``             20        unknown table codes an address may look up at once
    ``lookups_per_minute``        6         then this many a minute
    ``players_burst``             20        players an address may create at once
    ``players_per_minute``        6         then this many players a minute
    ``codes_burst``               5         one-time codes an address, and a player, may ask
                                            for at once
    ``codes_per_minute``          2         then this many codes a minute
    ``claims_burst``              10        one-time codes and passwords (sign-ins) an address
                                            may try at once, right or wrong
    ``claims_per_minute``         3         then this many a minute
    ``name_logins_burst``         10        sign-ins one name may get at once, from anywhere
    ``name_logins_per_minute``    3         then this many a minute
    ``passwords_burst``           5         password changes (and signing out other devices)
                                            an address, and a player, may ask for at once
    ``passwords_per_minute``      2         then this many a minute
    ``hash_workers``              1         threads that run argon2 (passwords and codes)
    ``hash_queue``                16        argon2 jobs waiting or running before the next
                                            is refused (429 ``passwords_busy``)
    ``header_seconds``            10        seconds a client has to send a request's headers
    ``body_seconds``              20        seconds a client has to send a request's body
    ``connections_per_address``   256       HTTP connections open at once per address
    ``min_bot_seconds``           0.5       least delay before a bot moves (tables asking
                                            for less get this)
    ``max_spectators``            100       spectators one table takes at once (seats are
                                            never refused)
    ``finished_table_minutes``    30        minutes a finished table nobody is connected to
                                            stays in memory (it loads again when opened)
    ``idle_lobby_hours``          24        hours without a game, a change or a connection
                                            before a table is closed (its games are kept)
    ``cup_days``                  90        days a dice cup may go unused before it is deleted
    ``sweep_seconds``             60        how often the server looks for what to let go of
    ============================  ========  ====================================================
    """

    #: The largest HTTP request body, in bytes.
    max_body: int = 16 * 1024
    #: Per WebSocket connection: frames per second on average, and the burst allowed above it.
    frame_rate: float = 20.0
    frame_burst: float = 40.0
    #: Frames refused for the rate before the connection is closed.
    max_strikes: int = 20
    #: Seconds a new connection has to say hello.
    hello_seconds: float = 10.0
    #: Frames queued for a connection that does not read them before it is dropped.
    max_queue: int = 1000
    #: Tables created per address: a club creating its tables at once, then one every 10 s.
    tables_burst: float = 20.0
    tables_per_minute: float = 6.0
    #: Dice cups created per address: a phone makes one and keeps it.
    cups_burst: float = 30.0
    cups_per_minute: float = 10.0
    #: WebSocket connections opened per address: every tab of a club reconnecting at once after
    #: a Wi-Fi drop, then one a second (the browser backs off up to 5 s between attempts).
    sockets_burst: float = 100.0
    sockets_per_minute: float = 60.0
    #: WebSocket connections open at once per address: a few dozen people with a tab or two.
    sockets_per_address: int = 200
    #: Unknown table codes looked up per address (HTTP and WebSocket): a few typos each.
    lookups_burst: float = 20.0
    lookups_per_minute: float = 6.0
    #: Players created per address: a club's first visits at once, then one every 10 s.
    players_burst: float = 20.0
    players_per_minute: float = 6.0
    #: One-time codes asked for, per address and per player: a person moves a device or two.
    codes_burst: float = 5.0
    codes_per_minute: float = 2.0
    #: One-time codes and passwords tried per address, right or wrong (each is taken before
    #: the argon2 work, so a burst cannot slip guesses past it): a few devices and typos,
    #: never a search (a code has 31**8 values and lives 5 minutes).
    claims_burst: float = 10.0
    claims_per_minute: float = 3.0
    #: Sign-ins per name, from every address together: guessing one player's password from
    #: many addresses is as slow as from one. The owner is never locked out of the devices
    #: that hold the key, and a one-time code from one of them works meanwhile.
    name_logins_burst: float = 10.0
    name_logins_per_minute: float = 3.0
    #: Password changes and "sign out other devices", per address and per player.
    passwords_burst: float = 5.0
    passwords_per_minute: float = 2.0
    #: argon2 runs in this many threads (it holds one core each while it works), and at most
    #: ``hash_queue`` jobs wait or run at once (about 0.15 s each).
    hash_workers: int = 1
    hash_queue: int = 16
    #: Seconds a client has to send a request's headers (a browser needs milliseconds).
    header_seconds: float = 10.0
    #: Seconds a client has to send a request's body (at most ``max_body`` bytes).
    body_seconds: float = 20.0
    #: HTTP connections open at once per address (a browser opens up to six; idle ones close
    #: after 5 s). Behind a reverse proxy every connection comes from the proxy: raise this.
    connections_per_address: int = 256
    #: The least delay before a bot moves: bots at full speed keep a core busy for nobody.
    min_bot_seconds: float = 0.5
    #: Spectators one table takes at once (players' seats are never refused).
    max_spectators: int = 100
    #: Retention. A finished table nobody is connected to leaves memory after this many minutes
    #: (it loads again from the store when someone opens its link).
    finished_table_minutes: float = 30.0
    #: A table with no game in play and no change or connection for this many hours is closed.
    idle_lobby_hours: float = 24.0
    #: A dice cup not used for this many days is deleted.
    cup_days: float = 90.0
    #: How often the server looks for what to let go of, in seconds.
    sweep_seconds: float = 60.0


#: The names ``--limit`` accepts, in the order of :class:`Limits`.
LIMIT_NAMES = tuple(field.name for field in dataclasses.fields(Limits))


def parse_limits(settings: Iterable[str], base: Limits | None = None) -> Limits:
    """``base`` (default: the defaults) with ``NAME=VALUE`` settings applied, later ones winning.

    Raises ValueError saying what was wrong, with the names when a name is unknown."""
    base = base or Limits()
    kinds = {field.name: field.type for field in dataclasses.fields(Limits)}
    changes: dict[str, int | float] = {}
    for setting in settings:
        name, equals, text = (part.strip() for part in setting.partition("="))
        if not equals or not name:
            raise ValueError(
                f"--limit {setting!r}: write NAME=VALUE, e.g. --limit tables_per_minute=20; "
                f"the limits are: {', '.join(LIMIT_NAMES)}"
            )
        if name not in kinds:
            raise ValueError(f"unknown limit {name!r}; the limits are: {', '.join(LIMIT_NAMES)}")
        value: int | float
        try:
            value = int(text) if kinds[name] == "int" else float(text)
        except ValueError:
            what = "a whole number" if kinds[name] == "int" else "a number"
            raise ValueError(f"limit {name}: {text!r} is not {what}") from None
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"limit {name}: {text!r} must be 0 or more")
        changes[name] = value
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


class RateLimited(Exception):
    """An address went over one of its limits; ``retry_after`` is in whole seconds. ``code``
    is the error code the refusal carries (an :class:`~dudo.server.errors.ErrorCode`)."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def address_key(host: str | None) -> str:
    """The key an address is limited under: the address itself, but for IPv6 its /64 network
    (one home or phone gets a whole /64, so single addresses cost nothing to change)."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an address (a Unix socket, a test client): limited as it is
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(address) >> 64 << 64, 64)))
    return str(address)


#: The longest ``Retry-After`` said (a limit of 0 a minute never refills).
MAX_RETRY_SECONDS = 3600


class Buckets:
    """A token bucket per address: ``burst`` tokens at first, ``per_minute`` more a minute.

    Memory stays bounded: an address that has been idle long enough to have a full bucket
    again is forgotten (a new bucket is the same), and beyond ``max_addresses`` the longest
    idle is forgotten early."""

    def __init__(
        self,
        what: str,
        burst: float,
        per_minute: float,
        *,
        whose: str = "from your address",
        max_addresses: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self.whose = whose
        self.burst = burst
        self.rate = per_minute / 60.0
        self.max_addresses = max_addresses
        self.clock = clock
        # address -> (tokens, when counted); in the order of the last change, oldest first.
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def _tokens(self, address: str, now: float) -> float:
        found = self._buckets.get(address)
        if found is None:
            return self.burst
        tokens, when = found
        return min(self.burst, tokens + (now - when) * self.rate)

    def _refused(self, tokens: float) -> RateLimited:
        wait = (1.0 - tokens) / self.rate if self.rate > 0 else math.inf
        seconds = max(1, math.ceil(min(wait, MAX_RETRY_SECONDS)))
        return RateLimited(f"too many {self.what} {self.whose}; try again in {seconds} s", seconds)

    def check(self, address: str) -> None:
        """Raise RateLimited if ``address`` has no token now (none is taken)."""
        tokens = self._tokens(address, self.clock())
        if tokens < 1.0:
            raise self._refused(tokens)

    def spend(self, address: str) -> None:
        """Take a token of ``address``; RateLimited (nothing taken) when it has none."""
        now = self.clock()
        self._forget(now)
        tokens = self._tokens(address, now)
        if tokens < 1.0:
            raise self._refused(tokens)
        self._buckets[address] = (tokens - 1.0, now)
        self._buckets.move_to_end(address)

    def _forget(self, now: float) -> None:
        buckets = self._buckets
        if self.rate > 0:
            full_after = self.burst / self.rate  # even an empty bucket is full again by then
            while buckets:
                _tokens, when = next(iter(buckets.values()))
                if now - when < full_after:
                    break
                buckets.popitem(last=False)
        while len(buckets) >= self.max_addresses:
            buckets.popitem(last=False)


class Guard:
    """The per-address limits of one running server: the buckets, and the WebSocket
    connections open per address."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.tables = Buckets(
            "tables created", limits.tables_burst, limits.tables_per_minute, clock=clock
        )
        self.cups = Buckets("cups created", limits.cups_burst, limits.cups_per_minute, clock=clock)
        self.sockets = Buckets(
            "WebSocket connections opened",
            limits.sockets_burst,
            limits.sockets_per_minute,
            clock=clock,
        )
        self.lookups = Buckets(
            "unknown table codes looked up",
            limits.lookups_burst,
            limits.lookups_per_minute,
            clock=clock,
        )
        self.players = Buckets(
            "players created", limits.players_burst, limits.players_per_minute, clock=clock
        )
        self.codes = Buckets(
            "one-time codes asked for", limits.codes_burst, limits.codes_per_minute, clock=clock
        )
        #: The same limit per player, so many addresses do not make one player many codes.
        self.player_codes = Buckets(
            "one-time codes asked for", limits.codes_burst, limits.codes_per_minute, clock=clock
        )
        self.claims = Buckets(
            "codes and passwords tried",
            limits.claims_burst,
            limits.claims_per_minute,
            clock=clock,
        )
        #: Sign-ins per name (normalized), whichever address they come from.
        self.name_logins = Buckets(
            "sign-ins",
            limits.name_logins_burst,
            limits.name_logins_per_minute,
            whose="for this name (a one-time code from your other device still works)",
            clock=clock,
        )
        self.passwords = Buckets(
            "password changes", limits.passwords_burst, limits.passwords_per_minute, clock=clock
        )
        #: The same limit per player, so many addresses do not make one player many changes.
        self.player_passwords = Buckets(
            "password changes",
            limits.passwords_burst,
            limits.passwords_per_minute,
            whose="for this player",
            clock=clock,
        )
        self.open_sockets: dict[str, int] = {}

    def open_socket(self, address: str) -> None:
        """Count a new WebSocket connection of ``address``; RateLimited when it may not."""
        open_now = self.open_sockets.get(address, 0)
        cap = self.limits.sockets_per_address
        if open_now >= cap:
            raise RateLimited(
                f"too many WebSocket connections open from your address ({cap}); "
                "close some and try again",
                5,
            )
        self.sockets.spend(address)
        self.open_sockets[address] = open_now + 1

    def close_socket(self, address: str) -> None:
        left = self.open_sockets.get(address, 0) - 1
        if left > 0:
            self.open_sockets[address] = left
        else:
            self.open_sockets.pop(address, None)
