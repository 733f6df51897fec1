"""The invitation to a table played at a real table: which address the phones on the host's
network open (:func:`invite_url`), the machine's own addresses on its networks
(:func:`lan_addresses`, kept fresh by :class:`LanAddresses`) and the QR code that carries the
address to a phone's camera (:func:`qr_svg`).

The host's page is often opened on the laptop that serves, as ``http://localhost:8000``: an
address no phone can open. The invitation then names the laptop by its address on the local
network, when the server listens there.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import ipaddress
import re
import socket
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import quote

import segno

#: Where a server listens to take connections on every interface.
ALL_INTERFACES = frozenset({"", "0.0.0.0", "::"})

#: A ``Host`` header as browsers send it: a name or IPv4 address, or an IPv6 address in
#: brackets, then maybe a port. Anything else is not echoed back in an invitation.
_AUTHORITY = re.compile(
    r"(?P<host>\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9_])?)"
    r"(?::(?P<port>[0-9]{1,5}))?"
)

#: Private addresses the UDP trick (:func:`_routed_sources`) connects toward: no packet is sent,
#: the system only picks the address it would send from.
_PROBES = ("10.254.254.254", "192.168.254.254", "172.31.254.254")

#: The private ranges, home networks' first: the first is the likeliest Wi-Fi of a laptop.
_PRIVATE = tuple(
    ipaddress.IPv4Network(net) for net in ("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12")
)


@dataclass(frozen=True)
class Invite:
    """The address of a table to open on the phones; ``local_only``: it reaches only the
    machine that serves (the server listens on loopback, or the machine is on no network)."""

    url: str
    local_only: bool


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The IP address ``text`` names (an IPv4 one mapped into IPv6 as itself; None: a name)."""
    try:
        address = ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_loopback(host: str) -> bool:
    """Whether a host name or address reaches only this machine: ``localhost`` (and names under
    ``.localhost``), 127.0.0.0/8, ::1, and the unspecified addresses a browser takes for this
    machine (0.0.0.0, ::)."""
    name = host.strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    address = _address(name)
    return address is not None and (address.is_loopback or address.is_unspecified)


def _url_host(host: str) -> str:
    """A host as it stands in a URL (an IPv6 address in brackets)."""
    address = _address(host)
    return f"[{address}]" if isinstance(address, ipaddress.IPv6Address) else host


def _reachable_host(listen: tuple[str, int] | None, lan: Sequence[str]) -> str | None:
    """The host phones reach this server by, from where it listens (None: nowhere they can)."""
    if listen is None:  # not known: only what surely works, this machine
        return None
    host = listen[0]
    if host in ALL_INTERFACES:
        return lan[0] if lan else None
    if is_loopback(host):
        return None
    # A given address or name: the server listens there only, whatever else the machine has.
    return _url_host(host)


def invite_url(
    code: str,
    scheme: str,
    authority: str,
    listen: tuple[str, int] | None,
    lan: Sequence[str],
) -> Invite:
    """The address phones open for table ``code``.

    ``scheme`` and ``authority`` (the ``Host`` header) are how the request came (the scheme as
    the server sees it: behind a trusted proxy, the one it forwards); ``listen`` is the address
    and port the server was started on (None: not known); ``lan`` the machine's addresses on
    its networks, best first (:func:`lan_addresses`).

    A request that came by a name or address other than this machine's loopback came the way
    phones can come too: its origin is kept. One that came by ``localhost`` gets the address the
    server listens on, or the machine's first network address when it listens on all of them;
    when it listens on loopback only, the loopback address stays and ``local_only`` is true."""
    path = f"/t/{quote(code, safe='')}"
    scheme = scheme if scheme in ("http", "https") else "http"
    found = _AUTHORITY.fullmatch(authority)
    if found is not None and not is_loopback(found["host"]):
        return Invite(f"{scheme}://{authority}{path}", local_only=False)
    host = _reachable_host(listen, lan)
    if host is not None and listen is not None:
        port = "" if listen[1] == 80 else f":{listen[1]}"
        # The server itself speaks plain HTTP: a proxy's https is not on its port.
        return Invite(f"http://{host}{port}{path}", local_only=False)
    if found is None:  # no usable Host header: name this machine as the server heard it
        authority = "localhost" if listen is None else f"localhost:{listen[1]}"
    return Invite(f"{scheme}://{authority}{path}", local_only=True)


def rank_addresses(found: Iterable[str]) -> list[str]:
    """The IPv4 addresses among ``found`` that other machines may reach this one by: no
    loopback, link-local (169.254/16), unspecified, multicast or reserved ones, each once,
    the private ranges first (192.168/16, 10/8, 172.16/12), otherwise in the order found."""
    kept: dict[ipaddress.IPv4Address, int] = {}
    for text in found:
        with contextlib.suppress(ValueError):
            address = ipaddress.IPv4Address(text)
            if not (
                address.is_loopback
                or address.is_link_local
                or address.is_unspecified
                or address.is_multicast
                or address.is_reserved
            ):
                kept.setdefault(address, len(kept))

    def preference(address: ipaddress.IPv4Address) -> tuple[int, int]:
        ranks = [i for i, net in enumerate(_PRIVATE) if address in net]
        return (ranks[0] if ranks else len(_PRIVATE), kept[address])

    return [str(address) for address in sorted(kept, key=preference)]


def _routed_sources() -> list[str]:
    """The addresses the system would send from toward private networks: ``connect`` on a
    UDP socket only chooses a route and a source address, it sends nothing."""
    sources = []
    for target in _PROBES:
        with (
            contextlib.suppress(OSError),
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe,
        ):
            probe.connect((target, 9))
            sources.append(str(probe.getsockname()[0]))
    return sources


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, best first (:func:`rank_addresses`):
    those its own name resolves to, and those it sends from toward private networks. Sends no
    packet; never raises (no network: an empty list). Resolving the machine's name may wait
    on DNS: call it off the event loop (:class:`LanAddresses`)."""
    found: list[str] = []
    with contextlib.suppress(OSError, ValueError):  # ValueError: a name IDNA cannot encode
        for *_, sockaddr in socket.getaddrinfo(
            socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM
        ):
            found.append(str(sockaddr[0]))
    found += _routed_sources()
    return rank_addresses(found)


class LanAddresses:
    """:func:`lan_addresses`, looked up in a thread at most once every ``seconds`` whoever
    asks (a laptop may change networks, but each request need not look again)."""

    def __init__(
        self, seconds: float = 30.0, find: Callable[[], list[str]] = lan_addresses
    ) -> None:
        self.seconds = seconds
        self._find = find
        self._found: list[str] = []
        self._when: float | None = None
        self._lock = asyncio.Lock()

    def _fresh(self) -> bool:
        return self._when is not None and time.monotonic() - self._when < self.seconds

    async def get(self) -> list[str]:
        if not self._fresh():
            async with self._lock:  # one lookup for everyone waiting
                if not self._fresh():
                    self._found = await asyncio.to_thread(self._find)
                    self._when = time.monotonic()
        return list(self._found)


def on_this_machine(client: str | None, lan: Sequence[str]) -> bool:
    """Whether a request's client address is this machine's own (loopback, or one of its
    network addresses ``lan``): only a browser there is told the machine's addresses."""
    address = None if client is None else _address(client)
    if address is None:
        return False
    return address.is_loopback or str(address) in lan


@functools.lru_cache(maxsize=64)
def qr_svg(text: str) -> str:
    """A QR code of ``text`` as an SVG document: no XML declaration, no fixed size (a
    ``viewBox`` the page scales), dark modules on a light ground with the quiet zone of four
    modules, and a ``<title>`` naming the text for screen readers. Kept per text: a page
    asks again on every visit, and drawing one takes milliseconds."""
    qr = segno.make(text, micro=False)  # phones' cameras read the full QR codes only
    out = io.BytesIO()
    qr.save(
        out,
        kind="svg",
        xmldecl=False,
        omitsize=True,
        border=4,
        dark="#000",
        light="#fff",
        title=text,
        svgclass=None,
        lineclass=None,
        nl=False,
    )
    return out.getvalue().decode("utf-8")
