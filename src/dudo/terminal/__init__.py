"""Terminal interfaces: the game, the replay printer, the dice cup, and the solver's commands
(`dudo solve`, `solve-game`, `evaluate` and `exploit`: progress bars, tables and files)."""
