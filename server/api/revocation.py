"""Open WebSockets by the credential they were opened with, so that revoking a
credential (signing out, a revoked session, a new password, a deleted account)
also closes the sockets it opened: they would otherwise go on playing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

# Close code sent to a socket whose credential was revoked (as a bad token at hello).
REVOKED_CLOSE = 4401


class Closable(Protocol):
    def close(self, code: int) -> None: ...


class SocketRegistry:
    def __init__(self) -> None:
        self._by_credential: dict[str, set[Closable]] = {}

    def add(self, credential: str, conn: Closable) -> None:
        self._by_credential.setdefault(credential, set()).add(conn)

    def discard(self, credential: str, conn: Closable) -> None:
        conns = self._by_credential.get(credential)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._by_credential[credential]

    def close(self, credentials: Iterable[str]) -> int:
        """Close every socket opened with one of ``credentials``; how many."""
        n = 0
        for c in credentials:
            for conn in self._by_credential.pop(c, set()):
                conn.close(REVOKED_CLOSE)
                n += 1
        return n

    def count(self, credential: str) -> int:
        return len(self._by_credential.get(credential, ()))
