"""Ask a running Empathy Lab for a reply and a score through its own API (the Compare page).

python tools/docker/smoke.py http://127.0.0.1:7860
"""

from __future__ import annotations

import sys
import time

from gradio_client import Client


def main(url: str) -> None:
    deadline = time.monotonic() + 600
    while True:  # the container joins the model and loads the head before it answers
        try:
            client = Client(url, verbose=False)
            break
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(5)
    info = client.view_api(return_format="dict", print_info=False)
    assert "/compare" in info["named_endpoints"], "no /compare endpoint"
    question = "I feel like I'm letting everyone down at work and at home, and I can't sleep."
    outputs = client.predict(
        question, ["local/qwen2.5-coder-1.5b"], ["bert-head"], "", 48, 0.0, "", "", "", "",
        api_name="/compare",
    )  # fmt: skip
    table = next(o for o in outputs if isinstance(o, dict) and "headers" in o)
    rows = [dict(zip(table["headers"], r, strict=True)) for r in table["data"]]
    print("reply panel:", next(o for o in outputs if isinstance(o, str) and len(o) > 40)[:160])
    print("scores:", rows)
    assert rows and rows[0]["Status"] == "scored", rows


if __name__ == "__main__":
    main(sys.argv[1])
