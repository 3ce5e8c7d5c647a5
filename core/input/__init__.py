"""Reading input: a scenario file (its units, ground and plans) read and checked into the engine's
neutral world, and a new scenario started. It imports from :mod:`~referee.core.engine` only."""
