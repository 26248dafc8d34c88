"""``python -m avanti``: the command line."""

from avanti.cli import main

if __name__ == "__main__":  # worker processes may import this module; only a run starts the CLI
    raise SystemExit(main())
