"""Numbers typed by people: command-line arguments and script lines.

Only ASCII digits are read. ``str.isdigit()``, ``int()`` and ``float()``
also accept '٣' or '²' (or raise for them with their own words), and
``int()`` refuses more than 4,300 digits with a message that names no field;
here every number has a range, its length is checked before it is
converted, and the error says what was expected.
"""
from __future__ import annotations

import argparse
import re
from typing import Callable

_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?|\.[0-9]+")


def shown(text: str, limit: int = 24) -> str:
    """``text`` quoted for an error line, cut short when it is long."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def whole_number(text: str, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high``. ValueError says
    what is wrong, as the end of a sentence that starts with the field's
    name: "must be a whole number from 0 to 8, got '99'"."""
    expected = f"a whole number from {low} to {high}"
    if not _WHOLE.fullmatch(text):
        raise ValueError(f"must be {expected} (digits 0-9), got {shown(text)}")
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(high)) or not low <= int(digits) <= high:
        raise ValueError(f"must be {expected}, got {shown(text)}")
    return int(digits)


def decimal_number(text: str, low: float, high: float) -> float:
    """``text`` (digits 0-9 and at most one point) as a number greater
    than ``low`` and less than ``high``; ValueError as for whole_number."""
    expected = f"a number greater than {low:.15g} and less than {high:.15g}"
    if not _DECIMAL.fullmatch(text) or len(text) > 32:
        raise ValueError(f"must be {expected} (digits 0-9 and '.'), got {shown(text)}")
    value = float(text)
    if not low < value < high:
        raise ValueError(f"must be {expected}, got {shown(text)}")
    return value


def argument(name: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type`` for the whole-number argument ``name``: its
    errors read "DEPTH must be a whole number from 0 to 8, got '99'"."""
    def parse(text: str) -> int:
        try:
            return whole_number(text, low, high)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{name} {exc}") from None
    parse.__name__ = name
    return parse
