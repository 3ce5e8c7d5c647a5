"""referee.core: the neutral core, in four layers, each importing only from the layers below it.

- :mod:`referee.core.engine`: one game (the world and ground, dice, the log, the plugin host and its
  hooks, the plan, the commander, victory, the loop) and the checked reading and errors every layer uses;
- :mod:`referee.core.input`: a scenario file read and checked into the neutral world;
- :mod:`referee.core.studies`: many games (comparisons, history, explanations, situations, reports, sweeps);
- :mod:`referee.core.cli`: the ``referee`` command line.
"""
