"""What a reply cost, from a dated price table kept as data (``assets/data/prices.json``).

A cost is given only when the provider reported both token counts and the
responder is in the table; otherwise it is unknown (None), never 0.

>>> table = PriceTable("2025-06-01", {"openai/gpt-4o": (2.5, 10.0)})
>>> table.cost("openai/gpt-4o", 1000, 500)
0.0075
>>> table.cost("openai/gpt-4o", None, 500) is None
True
>>> table.cost("human/counselchat", 10, 10) is None
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from config import PRICES_JSON


@dataclass(frozen=True)
class PriceTable:
    """Prices per million tokens, ``{responder id: (input, output)}``, as of a date."""

    as_of: str
    prices: dict[str, tuple[float, float]]

    def cost(
        self, responder_id: str, prompt_tokens: int | None, completion_tokens: int | None
    ) -> float | None:
        """US dollars for one call, or None when usage or the price is unknown."""
        price = self.prices.get(responder_id)
        if price is None or prompt_tokens is None or completion_tokens is None:
            return None
        return round((prompt_tokens * price[0] + completion_tokens * price[1]) / 1e6, 8)


@lru_cache(maxsize=4)
def load_prices(path: Path = PRICES_JSON) -> PriceTable:
    """The price table shipped with the app (or another file of the same shape)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    prices = {rid: (float(p["input"]), float(p["output"])) for rid, p in data["prices"].items()}
    return PriceTable(str(data["as_of"]), prices)
