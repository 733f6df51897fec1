"""Online play: the web server (FastAPI on uvicorn), its WebSocket protocol and its storage.

- :mod:`.app` builds the application from its routers (:mod:`.routes`: pages, rules and
  words, tables, past games, cups; :mod:`.deps`: what they share) and the WebSocket for play
  (:mod:`.play`), with the middleware and error handlers every request goes through
  (:mod:`.security`: the headers; :mod:`.errors`: plain words for bad requests).
- :mod:`.limits` holds every limit and the per-address token buckets; :mod:`.protocol` is
  uvicorn's HTTP protocol with deadlines and a per-address cap; :mod:`.startup` checks the
  data folder and holds the lock that keeps a second server off the same SQLite file.
- :mod:`.tables` holds the live tables, one module per concern: seats, presence, the host,
  the game, bots and timers, fair dice, results, connections and broadcasts, retries while the
  database does not answer, and the hall that finds, creates and lets go of tables.
- :mod:`.frames` builds every frame sent on a WebSocket and lists them (type, fields,
  receiver); :mod:`.wire` turns engine views and events into the JSON inside them and checks
  the frames clients send; ``docs/protocol.md`` documents both.
- :mod:`.storage` keeps tables, games and every accepted action in SQLite or PostgreSQL,
  migrated by Alembic (:mod:`.migrations`), and runs every call off the event loop.
- :mod:`.cluster` lets several processes serve one site through Redis: each live table has
  one owner (a lease, and a fence the store checks), the others relay its requests and
  WebSockets to it, and the tables of a process that went away are taken over.
- :mod:`.metrics`, :mod:`.logs` and :mod:`.routes.ops` are for operators: Prometheus
  metrics, JSON logs, health and readiness.

The server never decides a rule: every intent goes through the engine, and every connection
gets the engine's view for its own seat.
"""
