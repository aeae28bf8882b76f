"""A remote game's name and what is made of it: the key that signs its
moves and its public id. The standard library only, so that the command
line can check a name without loading the wire format's parser (msgspec)."""
from __future__ import annotations

import hashlib
import re
import secrets


def game_key(name: str, secret: str = "") -> bytes:
    """The key that signs the moves of the game ``name`` (and of the extra
    ``secret`` both boards were given, if any)."""
    return hashlib.sha256(b"maxima-board remote key\0" + name.encode() + b"\0" + secret.encode()).digest()


NAME = re.compile(r"^[A-Za-z0-9_.:+-]{6,64}$")    # a game's name: 6-64 letters, digits, _ . : + -


def new_name() -> str:
    """A fresh game name (the game's secret): 80 random bits, in groups of
    four a player can read out ("k7qm-x2pa-9trw-...")."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    word = "".join(secrets.choice(alphabet) for _ in range(16))
    return "-".join(word[i:i + 4] for i in range(0, 16, 4))


def game_id(name: str) -> str:
    """The game's public id: its topics' word and its records' Event, from
    which its name (the secret) cannot be found."""
    return hashlib.sha256(b"maxima-board remote game\0" + name.encode()).hexdigest()[:20]
