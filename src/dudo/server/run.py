"""``dudo serve``: the browser client and the game API, served with uvicorn by one process, or
by several (``--workers``, or processes on several machines) that share Redis and a database."""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dudo.server.limits import Limits, parse_limits
from dudo.server.startup import (
    DatabaseLock,
    StartupError,
    open_database,
    prepare_folder,
    sqlite_file,
)
from dudo.server.storage import default_url, make_engine
from dudo.server.wire import MAX_FRAME

if TYPE_CHECKING:
    from fastapi import FastAPI

    from dudo.server.logs import LogFormat


def serve_command(
    host: str,
    port: int,
    data_dir: Path | None,
    database_url: str | None,
    log_level: str,
    limit_settings: Sequence[str] = (),
    log_format: str = "text",
    redis_url: str | None = None,
    workers: int = 1,
) -> int:
    import logging.config

    import uvicorn

    from dudo.server.logs import LogFormat, json_log_config
    from dudo.server.protocol import guarded_http

    try:
        limits, chosen_format = _check_settings(limit_settings, log_format, redis_url, workers)
    except ValueError as exc:
        print(f"dudo serve: {exc}", file=sys.stderr)
        return 2
    # Text keeps uvicorn's own lines; JSON puts uvicorn's and the server's records in one
    # form, set up here (before the first line below) and left alone by uvicorn.
    json_logs = chosen_format is LogFormat.JSON
    if json_logs:
        logging.config.dictConfig(json_log_config(log_level))
    try:
        database_url, lock = _open_store(data_dir, database_url)
    except StartupError as exc:
        print(f"dudo serve: {exc}", file=sys.stderr)
        return 2
    _announce(host, port, database_url, json_logs)
    raise_open_files_limit()
    served: Any
    if workers > 1:
        # Each worker builds its application from these settings (worker_app).
        os.environ[WORKER_SETTINGS] = json.dumps(
            {
                "database_url": database_url,
                "limits": list(limit_settings),
                "redis_url": redis_url,
                "listen": [host, port],
            }
        )
        served = "dudo.server.run:worker_app"
    else:
        served = serving_app(database_url, limits, redis_url, (host, port))
    uvicorn.run(
        served,
        factory=workers > 1,
        workers=workers if workers > 1 else None,
        host=host,
        port=port,
        log_level=log_level,
        log_config=_log_config(log_level, json_logs, workers),
        # uvicorn's protocol with a deadline for request headers and a per-address cap.
        http="dudo.server.run:worker_http" if workers > 1 else guarded_http(limits),
        # A client frame over the protocol's limit is refused by the protocol layer with a
        # clear error; frames far beyond it are cut off by the WebSocket layer itself.
        ws_max_size=16 * MAX_FRAME,
        # Frames are a few hundred bytes: compressing them costs the server more CPU per move
        # than it saves on the wire.
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
    )
    if lock is not None:
        lock.release()
    return 0


def _check_settings(
    limit_settings: Sequence[str], log_format: str, redis_url: str | None, workers: int
) -> tuple[Limits, LogFormat]:
    """The limits and the log format asked for; ValueError says what is wrong with them."""
    from dudo.server.logs import LogFormat

    limits = parse_limits(limit_settings)
    if log_format not in set(LogFormat):
        raise ValueError(f"--log-format {log_format!r}: give text or json")
    if workers > 1 and redis_url is None:
        raise ValueError(
            f"--workers {workers} needs --redis-url: the processes share the tables "
            "through Redis (e.g. --redis-url redis://127.0.0.1:6379/0)"
        )
    if redis_url is not None:
        problem = check_redis_url(redis_url)
        if problem is not None:
            raise ValueError(problem)
    return limits, LogFormat(log_format)


def _open_store(data_dir: Path | None, database_url: str | None) -> tuple[str, DatabaseLock | None]:
    """The database's URL (in the data folder if none is given), opened and brought up to
    date, and the lock that keeps a second server off a SQLite file; StartupError says why
    it cannot be served (the lock let go again)."""
    from dudo.cup.storage import data_dir as default_data_dir

    other_place = "--data-dir" if database_url is None else "--database-url"
    lock: DatabaseLock | None = None
    try:
        if database_url is None:
            folder = data_dir if data_dir is not None else default_data_dir()
            prepare_folder(folder)
            database_url = default_url(folder)
        problem = check_database_url(database_url)
        if problem is not None:
            raise StartupError(problem)
        database = sqlite_file(database_url)
        if database is not None:
            lock = DatabaseLock(database, other_place)
        open_database(database_url, other_place)
    except StartupError:
        if lock is not None:
            lock.release()
        raise
    return database_url, lock


def _announce(host: str, port: int, database_url: str, json_logs: bool) -> None:
    """Say where to open the site, and which database it serves (never its password)."""
    import logging

    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    where = database_url.split("@")[-1] if "@" in database_url else database_url
    opened = f"dudo: open http://{shown}:{port}/ in a browser (database: {where})"
    if not json_logs:
        print(opened, file=sys.stderr)
    else:
        logging.getLogger("dudo.server").info(opened)


def _log_config(log_level: str, json_logs: bool, workers: int) -> Any:
    """uvicorn's log setup: the server's own lines (tables taken over, let go, stored records)
    in uvicorn's form; with JSON logs, one process's set up already (None: left alone), and
    each worker's its own."""
    import uvicorn

    from dudo.server.logs import json_log_config

    if json_logs:
        return json_log_config(log_level) if workers > 1 else None
    return {
        **uvicorn.config.LOGGING_CONFIG,
        "loggers": {
            **uvicorn.config.LOGGING_CONFIG["loggers"],
            "dudo": {"handlers": ["default"], "level": log_level.upper(), "propagate": False},
        },
    }


#: The environment variable that carries ``dudo serve``'s settings to its worker processes.
WORKER_SETTINGS = "DUDO_SERVE_WORKER"


def serving_app(
    database_url: str, limits: Limits, redis_url: str | None, listen: tuple[str, int]
) -> FastAPI:
    """The application of a serving process (the only one, or one of ``--workers``) listening
    on ``listen`` (address and port), with the process made ready to serve."""
    from dudo.server.app import create_app
    from dudo.server.collector import tune_garbage_collector
    from dudo.solver.book import preload_books

    app = create_app(database_url, limits=limits, redis_url=redis_url, listen=listen)
    # Books load in the background, so that no bot's first decision waits for them.
    threading.Thread(target=preload_books, name="books", daemon=True).start()
    tune_garbage_collector()
    return app


def worker_app() -> FastAPI:
    """The application of one of ``dudo serve --workers N``'s processes."""
    settings = json.loads(os.environ[WORKER_SETTINGS])
    host, port = settings["listen"]
    return serving_app(
        settings["database_url"],
        parse_limits(settings["limits"]),
        settings["redis_url"],
        (str(host), int(port)),
    )


def __getattr__(name: str) -> Any:
    """``worker_http``: uvicorn's protocol with the limits of ``dudo serve --workers N``,
    which each worker imports by name (a class made for given limits cannot be pickled)."""
    if name == "worker_http":
        from dudo.server.protocol import guarded_http

        settings = json.loads(os.environ[WORKER_SETTINGS])
        return guarded_http(parse_limits(settings["limits"]))
    raise AttributeError(name)


def check_redis_url(url: str) -> str | None:
    """What is wrong with a Redis URL before the server starts on it (None: nothing)."""
    import redis

    from dudo.server.cluster import safe_url

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
    except ValueError as exc:
        return f"--redis-url {safe_url(url)!r} is not a Redis URL (e.g. redis://127.0.0.1:6379/0): {exc}"
    try:
        client.ping()
    except redis.RedisError as exc:
        return f"Redis at {safe_url(url)!r} does not answer: {exc}"
    finally:
        client.close()
    return None


def check_database_url(url: str) -> str | None:
    """What is wrong with a database URL before the server starts on it (None: nothing)."""
    from sqlalchemy.exc import ArgumentError

    try:
        make_engine(url).dispose()
    except ArgumentError:
        return f"{url!r} is not a database URL (e.g. sqlite:///path/dudo.sqlite3 or postgresql://user:password@host/dudo)"
    except RuntimeError as exc:
        return str(exc)
    return None


def raise_open_files_limit() -> None:
    """Raise the soft limit on open files to the hard one: each connection holds a file, and
    the usual soft limit (1024) is far below what a server with many players needs."""
    try:
        import resource
    except ImportError:  # not on this system (Windows): nothing to raise
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # Some systems report no hard limit but refuse an unlimited soft one: ask for plenty.
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError) as exc:
        print(
            f"dudo serve: could not raise the open files limit from {soft}: {exc}", file=sys.stderr
        )
