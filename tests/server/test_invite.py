"""The invitation to a table at a real table: the address phones open (a pure choice over how
the request came, where the server listens and the machine's addresses), the machine's
addresses, and the two routes (``/api/tables/{code}/invite`` and ``/t/{code}/qr.svg``) of a
real server."""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from collections.abc import Callable

import pytest
import segno

from dudo.server import invite
from dudo.server.invite import (
    Invite,
    LanAddresses,
    invite_url,
    is_loopback,
    lan_addresses,
    on_this_machine,
    qr_svg,
    rank_addresses,
)
from dudo.server.security import CONTENT_SECURITY_POLICY

from .conftest import InProcessServer, LiveServer, api, new_table

LAN = ["192.168.1.5", "10.0.0.7"]

EVERYWHERE = ("0.0.0.0", 8000)
T = "/t/K7QX2M"

#: (scheme, Host header, where the server listens, the machine's addresses) -> the invitation.
CASES: list[tuple[str, str, tuple[str, int] | None, list[str], Invite]] = [
    # The host opened localhost on the laptop, the server listens everywhere: its LAN address.
    ("http", "localhost:8000", EVERYWHERE, LAN, Invite(f"http://192.168.1.5:8000{T}", False)),
    ("http", "127.0.0.1:8000", ("::", 8000), LAN, Invite(f"http://192.168.1.5:8000{T}", False)),
    ("http", "127.0.1.1:8000", EVERYWHERE, LAN, Invite(f"http://192.168.1.5:8000{T}", False)),
    ("http", "app.localhost:8000", EVERYWHERE, LAN, Invite(f"http://192.168.1.5:8000{T}", False)),
    ("http", "0.0.0.0:8000", EVERYWHERE, LAN, Invite(f"http://192.168.1.5:8000{T}", False)),
    # The port is the one listened on; port 80 needs none.
    ("http", "localhost", ("0.0.0.0", 80), LAN, Invite(f"http://192.168.1.5{T}", False)),
    # IPv6 loopback, and an IPv4 loopback address written in IPv6.
    ("http", "[::1]:8000", EVERYWHERE, LAN, Invite(f"http://192.168.1.5:8000{T}", False)),
    ("http", "[::ffff:127.0.0.1]:8000", EVERYWHERE, LAN, Invite(f"http://192.168.1.5:8000{T}", False)),
    ("http", "[::1]:8000", ("::1", 8000), LAN, Invite(f"http://[::1]:8000{T}", True)),
    # Listening on one given address: that address, whatever else the machine has.
    ("http", "localhost:8000", ("10.0.0.7", 8000), LAN, Invite(f"http://10.0.0.7:8000{T}", False)),
    ("http", "localhost:8000", ("fd00::5", 8000), LAN, Invite(f"http://[fd00::5]:8000{T}", False)),
    ("http", "localhost:8000", ("laptop.local", 8000), [], Invite(f"http://laptop.local:8000{T}", False)),
    # The request came the way phones can come: its origin is kept.
    ("http", "192.168.1.5:8000", EVERYWHERE, LAN, Invite(f"http://192.168.1.5:8000{T}", False)),
    ("http", "10.0.0.7:8000", EVERYWHERE, LAN, Invite(f"http://10.0.0.7:8000{T}", False)),
    ("https", "dudo.example.org", ("127.0.0.1", 8101), [], Invite(f"https://dudo.example.org{T}", False)),
    ("http", "[fd00::5]:8000", None, [], Invite(f"http://[fd00::5]:8000{T}", False)),
    ("http", "laptop.local:8000", None, LAN, Invite(f"http://laptop.local:8000{T}", False)),
    # Loopback only: the loopback address, and the page says so.
    ("http", "localhost:8000", ("127.0.0.1", 8000), LAN, Invite(f"http://localhost:8000{T}", True)),
    ("http", "127.0.0.1:8000", ("localhost", 8000), LAN, Invite(f"http://127.0.0.1:8000{T}", True)),
    # Where it listens not known: taken as this machine only.
    ("http", "localhost:8000", None, LAN, Invite(f"http://localhost:8000{T}", True)),
    # Listening everywhere on a machine on no network: no address a phone could open.
    ("http", "localhost:8000", EVERYWHERE, [], Invite(f"http://localhost:8000{T}", True)),
    # A proxy's https ends before the server: its own port speaks plain HTTP.
    ("https", "localhost", EVERYWHERE, LAN, Invite(f"http://192.168.1.5:8000{T}", False)),
    # A Host header no browser sends is not echoed back.
    ("http", "", EVERYWHERE, LAN, Invite(f"http://192.168.1.5:8000{T}", False)),
    ("http", "a b<script>", ("127.0.0.1", 8000), LAN, Invite(f"http://localhost:8000{T}", True)),
    ("http", "", None, [], Invite(f"http://localhost{T}", True)),
    ("ftp", "localhost:8000", None, [], Invite(f"http://localhost:8000{T}", True)),
]  # fmt: skip


@pytest.mark.parametrize(("scheme", "authority", "listen", "lan", "expected"), CASES)
def test_the_address_phones_open(
    scheme: str,
    authority: str,
    listen: tuple[str, int] | None,
    lan: list[str],
    expected: Invite,
) -> None:
    assert invite_url("K7QX2M", scheme, authority, listen, lan) == expected


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("LOCALHOST.", True),
        ("app.localhost", True),
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("0.0.0.0", True),
        ("::", True),
        ("192.168.1.5", False),
        ("169.254.3.4", False),
        ("fe80::1", False),
        ("localhost.example.org", False),
        ("laptop", False),
    ],
)
def test_which_hosts_reach_only_this_machine(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_addresses_ranked_private_first_without_loopback_or_link_local() -> None:
    found = [
        "127.0.1.1",
        "100.101.102.103",  # a VPN's shared address space
        "172.17.0.1",
        "169.254.10.20",
        "10.0.0.7",
        "0.0.0.0",
        "224.0.0.1",
        "192.168.1.5",
        "10.0.0.7",
        "fe80::1",
        "not an address",
        "172.32.0.1",  # just outside 172.16/12
        "192.168.1.9",
    ]
    assert rank_addresses(found) == [
        "192.168.1.5",
        "192.168.1.9",
        "10.0.0.7",
        "172.17.0.1",
        "100.101.102.103",
        "172.32.0.1",
    ]
    assert rank_addresses([]) == []


def test_the_machine_s_addresses_are_ipv4_and_reachable_from_elsewhere() -> None:
    found = lan_addresses()
    assert isinstance(found, list)
    assert len(found) == len(set(found))
    for text in found:
        assert isinstance(text, str)
        address = ipaddress.ip_address(text)
        assert isinstance(address, ipaddress.IPv4Address), text
        assert not (address.is_loopback or address.is_link_local or address.is_unspecified), text
    assert rank_addresses(found) == found


def test_the_machine_s_addresses_never_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    """A name that cannot be resolved, or no resolver, and no route: an empty list."""
    # The system refuses a connect toward the broadcast address: no route is chosen.
    monkeypatch.setattr(invite, "_PROBES", ("255.255.255.255",))
    monkeypatch.setattr(socket, "gethostname", lambda: "\udcff" * 3)  # no IDNA form
    assert lan_addresses() == []

    def no_name(*_args: object, **_kwargs: object) -> list[object]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_name)
    assert lan_addresses() == []


def test_only_this_machine_is_told_its_addresses() -> None:
    assert on_this_machine("127.0.0.1", [])
    assert on_this_machine("::1", [])
    assert on_this_machine("::ffff:127.0.0.1", [])
    assert on_this_machine("192.168.1.5", LAN)
    assert not on_this_machine("192.168.1.6", LAN)
    assert not on_this_machine(None, LAN)
    assert not on_this_machine("a proxy", LAN)


def test_the_addresses_are_looked_up_once_for_many_requests() -> None:
    calls: list[int] = []

    def find() -> list[str]:
        calls.append(1)
        return ["192.168.1.5"]

    async def run() -> None:
        fresh = LanAddresses(seconds=60.0, find=find)
        got = await asyncio.gather(*(fresh.get() for _ in range(5)))
        assert got == [["192.168.1.5"]] * 5 and len(calls) == 1
        got[0].append("changed by a caller")
        assert await fresh.get() == ["192.168.1.5"] and len(calls) == 1
        stale = LanAddresses(seconds=0.0, find=find)
        await stale.get()
        await stale.get()
        assert len(calls) == 3

    asyncio.run(run())


# ------------------------------------------------------------------------- the QR code


def dark_modules(svg: str) -> set[tuple[int, int]]:
    """The (row, column) of each dark module of an SVG drawn by :func:`qr_svg`, read from its
    path: ``M x y`` / ``m dx dy`` move, ``hN`` draws N dark modules along the row."""
    paths = re.findall(r'<path stroke="#000" d="([^"]*)"/>', svg)
    assert len(paths) == 1, svg
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for command, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", paths[0]):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            length = int(a)
            dark |= {(int(y - 0.5), int(x) + i) for i in range(length)}
            x += length
    return dark


def assert_qr_of(svg: str, url: str) -> None:
    """``svg`` is the QR code segno makes of ``url``, drawn as :func:`qr_svg` promises."""
    reference = segno.make(url)
    assert not reference.is_micro
    size = reference.symbol_size(border=4)[0]
    assert not svg.startswith("<?xml"), svg[:60]
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ')
    assert f'viewBox="0 0 {size} {size}"' in svg and "width=" not in svg
    title = url.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert f"<title>{title}</title>" in svg
    assert f'<path fill="#fff" d="M0 0h{size}v{size}h-{size}z"/>' in svg  # the light ground
    expected = {
        (4 + row, 4 + column)
        for row, line in enumerate(reference.matrix)
        for column, module in enumerate(line)
        if module
    }
    assert dark_modules(svg) == expected


@pytest.mark.parametrize(
    "url",
    [
        "http://192.168.1.5:8000/t/K7QX2M",
        "https://dudo.example.org/t/ABCDEF",
        "http://[fd00::5]:8000/t/K7QX2M<&>",
    ],
)
def test_the_qr_code_is_segno_s_of_the_url(url: str) -> None:
    assert_qr_of(qr_svg(url), url)
    assert qr_svg(url) is qr_svg(url)  # drawn once


# ---------------------------------------------------------------------- a real server


def test_the_invitation_of_a_server_on_loopback_is_local_only(shared_server: LiveServer) -> None:
    code = new_table(shared_server)["code"]
    with api(shared_server) as http:
        response = http.get(f"/api/tables/{code.lower()}/invite")
        assert response.status_code == 200, response.text
        body = response.json()
        assert set(body) == {"code", "url", "local_only", "addresses"}
        assert body["code"] == code
        assert body["url"] == f"{shared_server.url}/t/{code}"
        assert body["local_only"] is True
        # The test asks from the machine itself: it is told the machine's addresses.
        assert body["addresses"] == rank_addresses(body["addresses"])
        # Opened by another name of the machine (the Host header), that name is kept.
        by_name = http.get(f"/api/tables/{code}/invite", headers={"Host": "192.168.1.77:8000"})
        assert by_name.json()["url"] == f"http://192.168.1.77:8000/t/{code}"
        assert by_name.json()["local_only"] is False
        assert by_name.headers["cache-control"] == "no-store"


def test_an_unknown_table_has_no_invitation(shared_server: LiveServer) -> None:
    with api(shared_server) as http:
        for path in ("/api/tables/ZZZZZZ/invite", "/t/ZZZZZZ/qr.svg"):
            response = http.get(path)
            assert response.status_code == 404, (path, response.text)
            assert response.headers["content-type"] == "application/json"
            body = response.json()
            assert body == {**body, "code": "no_table", "params": {"table": "ZZZZZZ"}}, body
            assert "ZZZZZZ" in body["detail"]


def test_the_qr_code_of_the_invitation(shared_server: LiveServer) -> None:
    code = new_table(shared_server)["code"]
    with api(shared_server) as http:
        url = http.get(f"/api/tables/{code}/invite").json()["url"]
        response = http.get(f"/t/{code}/qr.svg")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/svg+xml"
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert_qr_of(response.text, url)


def test_the_policy_lets_a_page_show_the_qr_code_as_an_image() -> None:
    directives = dict([*part.split(" ", 1), ""][:2] for part in CONTENT_SECURITY_POLICY.split("; "))
    assert "'self'" in directives["img-src"].split()


def test_the_invitation_names_the_lan_address_when_listening_everywhere(
    in_process: Callable[..., InProcessServer],
) -> None:
    """``listen`` reaches the routes: a server listening on every interface invites the phones
    to the machine's address on its network, with the port it listens on."""
    server = in_process(listen=("0.0.0.0", 8123))
    server.app.state.lan = LanAddresses(find=lambda: ["192.168.1.5", "10.0.0.7"])
    code = new_table(server)["code"]
    with api(server) as http:
        body = http.get(f"/api/tables/{code}/invite").json()
        svg = http.get(f"/t/{code}/qr.svg").text
    assert body == {
        "code": code,
        "url": f"http://192.168.1.5:8123/t/{code}",
        "local_only": False,
        "addresses": ["192.168.1.5", "10.0.0.7"],
    }
    assert_qr_of(svg, body["url"])
