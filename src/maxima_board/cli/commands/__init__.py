"""The subcommands of ``maxima-board``, one module per area; each has a
``register(sub)`` that adds its parsers."""
from __future__ import annotations

import argparse
from typing import Any, Protocol


class Subcommands(Protocol):
    """What ``register`` uses of ``ArgumentParser.add_subparsers()``'s result."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...
