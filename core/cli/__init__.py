"""The ``referee`` command line: its commands, their output files and ``--json`` shapes, and the
house-rule scaffold. The top layer: nothing in the core imports it."""
