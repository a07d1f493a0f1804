"""The real table screen on the mock socket (web/dev/table.html) in a browser context of
its own: the actions the page would send (the mock logs each message it is given as
"send {json}" on the console) and the page's errors."""

from __future__ import annotations

import json
from typing import Any

from tests.web.conftest import DESKTOP


class MockTable:
    def __init__(
        self, browser: Any, base: str, size: dict[str, int] = DESKTOP, touch: bool = False
    ) -> None:
        self.context = browser.new_context(viewport=size, has_touch=touch, is_mobile=touch)
        self.page = self.context.new_page()
        self.base = base
        self.sent: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _console(self, msg: Any) -> None:
        if msg.text.startswith("send "):
            sent = json.loads(msg.text[len("send ") :])
            if sent["type"] == "action":
                self.sent.append(sent["action"])

    def open(self, query: str) -> Any:
        """The mock page with ``query`` (see web/dev/table.js), once its hand is shown."""
        self.sent.clear()
        self.page.goto(f"{self.base}/dev/table.html?{query}")
        self.page.locator(".table-screen").wait_for()
        self.page.locator(".hand-tiles .tile").first.wait_for()
        return self.page

    def tiles(self, selector: str) -> list[str]:
        """The tiles (``data-tile``) of the elements ``selector`` finds."""
        out: list[str] = self.page.locator(selector).evaluate_all(
            "(els) => els.map((e) => e.dataset.tile)"
        )
        return out
