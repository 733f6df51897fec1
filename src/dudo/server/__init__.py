"""Online play: the web server (FastAPI on uvicorn), its WebSocket protocol and its storage.

- :mod:`.app` builds the application from its routers (:mod:`.routes`: pages, rules and
  words, tables, past games, cups) and the WebSocket for play (:mod:`.play`), with the
  middleware and error handlers every request goes through; :mod:`.limits` holds its limits.
- :mod:`.tables` holds the live tables: seats, the game, bots, timers, stand-ins, broadcasts.
- :mod:`.wire` turns engine views and events into the JSON sent to each connection and checks
  the frames clients send; ``PROTOCOL.md`` documents both.
- :mod:`.storage` keeps tables, games and every accepted action in SQLite or PostgreSQL,
  migrated by Alembic (:mod:`.migrations`).

The server never decides a rule: every intent goes through the engine, and every connection
gets the engine's view for its own seat.
"""
