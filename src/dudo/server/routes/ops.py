"""For operators and load balancers: ``/healthz`` (the process is up), ``/readyz`` (it can
serve: running, and its database, and Redis if it has one, answer) and ``/metrics`` (Prometheus,
:mod:`dudo.server.metrics`)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from redis.exceptions import RedisError

from dudo.server.cluster import Cluster
from dudo.server.errors import ErrorCode, Refused
from dudo.server.metrics import CONTENT_TYPE, Metrics
from dudo.server.storage import StoreUnavailable
from dudo.server.tables import Hall

router = APIRouter()


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, str]:
    """Alive: the event loop answers. With several processes, also which process this is."""
    cluster: Cluster | None = request.app.state.cluster
    if cluster is None:
        return {"status": "ok"}
    return {"status": "ok", "process": cluster.node}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Ready for traffic: the server has started, is not stopping, and its database answers.
    503, saying which, when not."""
    hall: Hall | None = getattr(request.app.state, "hall", None)
    if hall is None or hall.stopping:
        return not_ready(ErrorCode.NOT_READY, "the server is starting or stopping")
    try:
        await hall.db.run(hall.store.ping)
    except StoreUnavailable as exc:
        return not_ready(ErrorCode.STORE_DOWN, f"the database does not answer: {exc}")
    if hall.cluster is not None:
        try:
            await hall.cluster.redis.ping()
        except (RedisError, OSError) as exc:
            return not_ready(ErrorCode.REDIS_DOWN, f"Redis does not answer: {exc}")
    return JSONResponse({"status": "ready"})


def not_ready(code: ErrorCode, detail: str) -> JSONResponse:
    refused = Refused(code, detail, 503)
    return JSONResponse({"status": "not ready", "detail": str(refused), **refused.to_json()}, 503)


# Declared as what it is, Prometheus's text format: a tool reading /openapi.json would expect
# JSON otherwise.
@router.get(
    "/metrics",
    response_class=PlainTextResponse,
    responses={
        200: {
            "description": "Prometheus text exposition format",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        }
    },
)
async def metrics(request: Request) -> Response:
    """Every metric, in Prometheus's text exposition format."""
    found: Metrics = request.app.state.metrics
    return Response(found.exposition(), media_type=CONTENT_TYPE)
