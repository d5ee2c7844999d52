"""Lets `python -m companion` behave like the `companion` command."""

from companion.cli import main

raise SystemExit(main())
