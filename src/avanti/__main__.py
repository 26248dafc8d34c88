"""``python -m avanti``: the command line."""

from avanti.cli import main

raise SystemExit(main())
