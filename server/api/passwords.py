"""Password hashing: Argon2id through argon2-cffi (its RFC 9106 low-memory profile).

Hashing takes tens of milliseconds on purpose: callers run it in a worker
thread. A password is only ever passed to these functions, never logged or
stored: the database holds the encoded hash with its parameters and salt.
"""

from __future__ import annotations

import functools

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_HASHER = PasswordHasher()


@functools.cache
def _dummy() -> str:
    """Verified when the username is unknown, so that a wrong name takes as long as a
    wrong password and the timing does not tell which names exist (made on first use:
    a hash costs tens of milliseconds, not to be paid at import)."""
    return _HASHER.hash("jantaku: no such user")


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def verify_password(encoded: str | None, password: str) -> bool:
    """Whether ``password`` matches ``encoded`` (an unknown user: None, never matches)."""
    try:
        return _HASHER.verify(encoded or _dummy(), password) and encoded is not None
    except (VerificationError, InvalidHashError):
        return False
