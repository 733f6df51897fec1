"""What operators and load balancers ask a real server process: ``/healthz``, ``/readyz``
(503 while the database does not answer) and the Prometheus metrics at ``/metrics``, which
follow a whole game played over WebSockets; and its logs as JSON lines that name the table
and the game."""

from __future__ import annotations

import json
import random
import time

from prometheus_client.parser import text_string_to_metric_families

from .conftest import (
    TEST_ARGS,
    LiveServer,
    Match,
    PostgresCluster,
    ServerFactory,
    api,
    fresh_database,
    get_table,
    play_turns,
    record_of,
)


def scrape(server: LiveServer) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, labels) -> value."""
    with api(server) as http:
        response = http.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def test_health_readiness_and_metrics_follow_a_whole_game(live_server: ServerFactory) -> None:
    server = live_server()
    with api(server) as http:
        assert http.get("/healthz").json() == {"status": "ok"}
        assert http.get("/readyz").json() == {"status": "ready"}
    before = scrape(server)
    assert before[("dudo_live_tables", ())] == 0
    assert before[("dudo_connections", ())] == 0

    match = Match(server)
    view = play_turns(match.players, random.Random(3))
    assert view["winner"] is not None
    during = scrape(server)
    assert during[("dudo_connections", ())] == 2  # Ana's and Bo's sockets
    assert during[("dudo_live_tables", ())] == 1

    record = record_of(server, get_table(server, match.code)["game"])
    actions = record["actions"]
    bot_player = next(i for i, p in enumerate(record["players"]) if p["kind"] == "bot")
    by_bot = sum(1 for a in actions if a["player"] == bot_player)
    by_people = len(actions) - by_bot
    assert during[("dudo_actions_total", (("by", "person"),))] == by_people
    assert during[("dudo_actions_total", (("by", "bot"),))] == by_bot
    # Every person's action was timed. Every action was stored (the record has them all):
    # on SQLite, committed on the event loop with those accepted in the same turn of it.
    assert during[("dudo_action_seconds_count", ())] == by_people
    commits = during[("dudo_store_seconds_count", (("call", "add_actions"),))]
    assert 0 < commits <= len(actions)
    assert ("dudo_store_seconds_count", (("call", "add_action"),)) not in during
    assert during[("dudo_store_failures_total", ())] == 0

    match.close()
    deadline = time.monotonic() + 10
    while scrape(server)[("dudo_connections", ())] != 0:
        assert time.monotonic() < deadline, "closed sockets leave the gauge"
        time.sleep(0.1)


def test_readyz_is_503_while_the_database_does_not_answer(
    live_server: ServerFactory, postgres_cluster: PostgresCluster
) -> None:
    server = live_server(fresh_database(postgres_cluster))
    with api(server) as http:
        assert http.get("/readyz").status_code == 200
        postgres_cluster.stop()
        try:
            answer = http.get("/readyz")
            assert answer.status_code == 503
            body = answer.json()
            assert body["status"] == "not ready" and body["code"] == "store_down"
            assert http.get("/healthz").status_code == 200  # alive all the same
        finally:
            postgres_cluster.start()
        deadline = time.monotonic() + 20
        while http.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline, "ready again once the database is back"
            time.sleep(0.2)
    assert scrape(server)[("dudo_store_failures_total", ())] >= 1


def test_json_logs_name_the_table_and_the_game(live_server: ServerFactory) -> None:
    server = live_server(None, [*TEST_ARGS, "--log-format", "json"])
    match = Match(server)
    view = play_turns(match.players, random.Random(4))
    game_id = get_table(server, match.code)["game"]
    match.close()
    server.stop()
    log = (server.workdir / f"server-{server.starts}.log").read_text()
    records = [json.loads(line) for line in log.splitlines() if line.strip()]
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    about = [r for r in records if r.get("table") == match.code]
    started = [r for r in about if r["message"].endswith("started, 3 players")]
    over = [r for r in about if "over after" in r["message"]]
    assert [(r["game"], r["players"]) for r in started] == [(game_id, 3)]
    assert [(r["game"], r["winner"]) for r in over] == [(game_id, view["winner"])]
    assert over[0]["rounds"] >= 1


def test_every_get_route_answers_in_the_media_type_openapi_declares(
    shared_server: LiveServer,
) -> None:
    """A tool reading /openapi.json learns what each route answers: each GET route that needs
    no path parameter is asked, and a 200 comes in the media type declared for it (/metrics
    in Prometheus's text format, the rest JSON); a refusal (no player key) is JSON."""
    with api(shared_server) as http:
        spec = http.get("/openapi.json").json()
        asked = []
        for path, operations in spec["paths"].items():
            get = operations.get("get")
            if get is None or "{" in path:
                continue
            response = http.get(path)
            got = response.headers["content-type"].split(";")[0]
            if response.status_code == 200:
                declared = set(get["responses"]["200"].get("content", {}))
                assert got in declared, (path, got, declared)
            else:
                assert got == "application/json", (path, response.status_code, got)
            asked.append((path, got))
    assert ("/metrics", "text/plain") in asked
    assert ("/api/presets", "application/json") in asked
