"""What one server process tells its operators: Prometheus metrics, served at ``/metrics``
by :mod:`dudo.server.routes.ops`.

Each application has its own registry (two servers in one test process do not mix their
counts). The server's parts record into it: the hall (live tables, actions, how long an
action takes), the store (how long each database call takes) and the WebSocket guard
(open connections)."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)

# Action and database latencies: a few hundred microseconds when idle, tens of milliseconds
# when a machine is loaded, seconds when something is wrong.
LATENCY_BUCKETS = (
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
)

CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    """The instruments of one server process."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)  # CPU seconds, memory, open files
        self.live_tables = Gauge(
            "dudo_live_tables", "Tables held in memory by this process.", registry=self.registry
        )
        self.connections = Gauge(
            "dudo_connections",
            "Open WebSocket connections (players, spectators, the lobby).",
            registry=self.registry,
        )
        self.actions = Counter(
            "dudo_actions",
            "Game actions stored and played (by people, bots and turn timers).",
            ["by"],
            registry=self.registry,
        )
        self.action_seconds = Histogram(
            "dudo_action_seconds",
            "From a person's action arriving to its updates queued for every connection "
            "(waiting for the table, storing, applying, encoding), or to its refusal.",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.store_seconds = Histogram(
            "dudo_store_seconds",
            "One database call (a transaction), by the store method called.",
            ["call"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.hash_jobs = Counter(
            "dudo_hash_jobs",
            "Password and sign-in code checks (argon2) the hashing pool ran to their end.",
            registry=self.registry,
        )
        self.store_failures = Counter(
            "dudo_store_failures",
            "Database calls that failed (the request was refused, nothing changed).",
            registry=self.registry,
        )

        self.relay_seconds = Histogram(
            "dudo_relay_seconds",
            "Several processes: from a message's sending by one process to its arrival at "
            "another through Redis (relayed actions, updates and requests).",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        # Each label's child, looked up once: labels() costs more than the count itself,
        # and actions and store calls are counted on every move.
        self._actions_by: dict[str, Counter] = {}
        self._store_seconds_by: dict[str, Histogram] = {}

    def count_action(self, by: str) -> None:
        """An action was played, for ``by`` (a person, a bot, a timer)."""
        counter = self._actions_by.get(by)
        if counter is None:
            counter = self._actions_by[by] = self.actions.labels(by)
        counter.inc()

    def count_tables(self, count: Callable[[], int]) -> None:
        """Read the number of live tables from ``count`` whenever metrics are scraped."""
        self.live_tables.set_function(lambda: float(count()))

    def store_call(self, name: str, seconds: float, ok: bool) -> None:
        histogram = self._store_seconds_by.get(name)
        if histogram is None:
            histogram = self._store_seconds_by[name] = self.store_seconds.labels(name)
        histogram.observe(seconds)
        if not ok:
            self.store_failures.inc()

    def exposition(self) -> bytes:
        """The metrics in Prometheus's text format."""
        return generate_latest(self.registry)
