"""What the HTTP routes share: the hall of live tables, the table a path names, and the host's
token check. FastAPI dependencies, so each route says what it needs in its signature."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request

from dudo.server.tables import Hall, Table


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None: no usable header)."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def get_hall(request: Request) -> Hall:
    hall: Hall = request.app.state.hall
    return hall


HallDep = Annotated[Hall, Depends(get_hall)]
AuthorizationHeader = Annotated[str | None, Header()]


async def table_of(code: str, hall: HallDep) -> Table:
    table = await hall.find(code)
    if table is None:
        raise HTTPException(404, f"there is no table {code!r}")
    return table


TableDep = Annotated[Table, Depends(table_of)]


def host_table(table: TableDep, authorization: AuthorizationHeader = None) -> Table:
    """The table, after checking that the request carries its host's token."""
    table.require_host(bearer(authorization))
    return table


HostTableDep = Annotated[Table, Depends(host_table)]
