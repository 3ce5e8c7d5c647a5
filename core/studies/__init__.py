"""The studies: many games played and read back (comparisons, history, explanations, situations,
timelines, maps, reports, sweeps). They import from the engine and input, never from the command line."""
