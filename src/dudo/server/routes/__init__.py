"""The HTTP routes, one router per part of the site: pages, rules and words, tables, past
games and dice cups. The WebSocket for play is :mod:`dudo.server.play`."""
