"""Rules of a game of one hand or two, for the tests that play lobbies to the end."""

from __future__ import annotations

from typing import Any

# With 1000 points any payment busts someone (tobi ends the game).
SHORT: dict[str, Any] = {
    "preset": "standard",
    "length": "tonpuu",
    "start_points": 1000,
    "return_points": 1000,
    "think_seconds": 0,
}
