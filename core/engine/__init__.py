"""The engine: one game under one rule stack (world, ground, dice, log, plugin host, plan, commander,
victory, loop), and the checked reading, limits and errors every layer above uses. It imports
nothing from :mod:`~referee.core.input`, :mod:`~referee.core.studies` or :mod:`~referee.core.cli`."""
