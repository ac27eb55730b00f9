"""`python -m simple_brief` is the `simple-brief` command."""

from simple_brief.cli import main

raise SystemExit(main())
