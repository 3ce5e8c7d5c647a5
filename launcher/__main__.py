"""``python -m referee``: the ``referee`` command, for scripts and systems without the console script."""

from referee.core.cli.launch import main

if __name__ == "__main__":
    main()
