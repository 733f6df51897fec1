"""How a server process logs: plain lines for a person at a terminal, or JSON lines
(``dudo serve --log-format json``: one object a line) for a log collector. A record about a
table or a game carries their ids as fields (``table``, ``game``), so a collector can
follow one table across processes and restarts."""

from __future__ import annotations

import logging
import time
from enum import StrEnum
from typing import Any

import orjson

#: The fields of a log record (given as ``extra``) that JSON lines carry when present.
CONTEXT_FIELDS = ("table", "game", "players", "winner", "rounds")


class LogFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


def table_context(code: str, game: int | None = None, **more: Any) -> dict[str, Any]:
    """The ``extra`` of a record about table ``code`` (and its game ``game``)."""
    return {"table": code, "game": game, **more}


class JsonLines(logging.Formatter):
    """One JSON object a record: time (UTC, ISO 8601 with milliseconds), level, logger,
    message, the context fields it has, and the traceback of an exception."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        out: dict[str, Any] = {
            "time": f"{stamp}.{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in CONTEXT_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                out[name] = value
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return orjson.dumps(out, default=str).decode()


def json_log_config(level: str) -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` that writes uvicorn's and the server's records
    to standard error as :class:`JsonLines`."""
    formatter: dict[str, Any] = {"()": JsonLines}
    handler = {"class": "logging.StreamHandler", "formatter": "main", "stream": "ext://sys.stderr"}
    level = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "loggers": {
            "uvicorn": {"handlers": ["main"], "level": level, "propagate": False},
            "uvicorn.access": {"handlers": ["main"], "level": level, "propagate": False},
            "dudo": {"handlers": ["main"], "level": level, "propagate": False},
        },
    }
