"""`python -m simple_brief` is the `simple-brief` command (`simple_brief.main`)."""

from simple_brief.main import main

raise SystemExit(main())
