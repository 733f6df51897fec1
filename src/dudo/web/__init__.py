"""The browser client: plain HTML pages, CSS and JavaScript modules served as they are (no build
step) by :mod:`dudo.server.app`. It shows what the server sends, the engine's view for the
player's seat, and sends the player's intents; it knows no rule of the game.

Pages: ``index.html`` (create or join a table), ``table.html`` (the lobby and the game),
``cup.html`` (the dice cup), ``games.html`` and ``replay.html`` (finished games). Shared modules:
``api.js``, ``socket.js``, ``i18n.js`` (with ``i18n/*.json``), ``dice.js``, ``narrate.js``,
``rules.js``, ``ui.js``.
"""
