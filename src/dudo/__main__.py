"""``python -m dudo``: the same as the ``dudo`` command."""

from dudo.cli import main

main()
