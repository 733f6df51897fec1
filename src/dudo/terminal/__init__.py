"""Terminal interfaces: the game, the replay printer and the dice cup."""
