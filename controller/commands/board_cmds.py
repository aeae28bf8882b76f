"""Subcommands of this area (filled in by its issue)."""
from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    pass
