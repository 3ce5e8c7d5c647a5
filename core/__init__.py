"""referee.core: the neutral engine (world, chance, plugin host, game loop, CLI)."""
