"""What the HTTP routes share: the hall of live tables, the table a path names, the host's
token check and the per-address limits. FastAPI dependencies, so each route says what it needs
in its signature; all ``async``, so that they run on the event loop with the tables (FastAPI
runs a plain function in a thread)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Header, Request
from starlette.requests import HTTPConnection

from dudo.server.errors import ErrorCode, Refused
from dudo.server.limits import Buckets, Guard, Limits, address_key
from dudo.server.retry import unavailable
from dudo.server.tables import Hall, Table


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None: no usable header)."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def get_hall(request: Request) -> Hall:
    hall: Hall = request.app.state.hall
    return hall


HallDep = Annotated[Hall, Depends(get_hall)]
AuthorizationHeader = Annotated[str | None, Header()]


async def get_limits(request: Request) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


LimitsDep = Annotated[Limits, Depends(get_limits)]


def client_address(connection: HTTPConnection) -> str:
    """The address a request or WebSocket is limited under (the client's, as uvicorn reports
    it: behind a trusted proxy, the one the proxy forwards)."""
    return address_key(connection.client.host if connection.client else None)


def spending(bucket: Callable[[Guard], Buckets]) -> Callable[[Request], Awaitable[None]]:
    """A dependency that takes a token of the client's address from ``bucket(guard)``."""

    async def spend(request: Request) -> None:
        guard: Guard = request.app.state.guard
        bucket(guard).spend(client_address(request))

    return spend


async def find_table(hall: Hall, guard: Guard, address: str, code: str) -> Table | None:
    """The table of ``code`` (None: there is none). Unknown codes count against the address;
    while it is over that limit every lookup is refused (RateLimited), found or not, so that
    the answers to a guesser say nothing about which codes exist. Known codes never count.
    Raises a 503 :class:`Refused` when the table cannot be found now (:mod:`.retry`)."""
    guard.lookups.check(address)
    try:
        table = await hall.find(code)
    except Exception as exc:  # the database or Redis down, the table moving: 503
        refused = unavailable(exc)
        if refused is None:
            raise
        raise refused from None
    if table is None:
        guard.lookups.spend(address)
    return table


async def table_of(code: str, hall: HallDep, request: Request) -> Table:
    table = await find_table(hall, request.app.state.guard, client_address(request), code)
    if table is None:
        raise Refused(
            ErrorCode.NO_TABLE, f"there is no table {code!r}: check the code", 404, table=code[:12]
        )
    return table


TableDep = Annotated[Table, Depends(table_of)]


async def host_table(table: TableDep, authorization: AuthorizationHeader = None) -> Table:
    """The table, after checking that the request carries its host's token."""
    table.require_host(bearer(authorization))
    return table


HostTableDep = Annotated[Table, Depends(host_table)]
