"""`python -m boardgames ...`: the same as the `boardgames` command."""

from boardgames.cli import main

if __name__ == "__main__":
    main(prog_name="boardgames")
