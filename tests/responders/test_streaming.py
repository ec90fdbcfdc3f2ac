"""Streaming reaches the client while the reply is still being written (not in one burst).

A fake OpenAI server streams 12 chunks, 0.4 s apart (about 5 s in all). The
compare endpoint must deliver a non-empty panel well before the reply ends;
buffering the round (building the whole list of updates first) fails this.
"""

from __future__ import annotations

import time

import pytest

from pages.widgets.reply_panels import RESPONDER_IDS
from responders.registry import get_responder
from tests.conftest import app_client
from tests.fake_providers import FakeProvider, Stream

OPENAI = "openai/gpt-4o"
CHUNKS = [f"word{i} " for i in range(12)]


@pytest.fixture(scope="module")
def client():
    with app_client() as c:
        yield c


def test_first_text_arrives_well_before_the_reply_ends(client, monkeypatch):
    with FakeProvider("openai") as fake:
        fake.script(Stream(CHUNKS, pause_s=0.4))
        monkeypatch.setattr(get_responder(OPENAI), "base_url", fake.url + "/v1")
        job = client.submit(
            "I feel alone tonight.",
            [OPENAI],
            [],
            "",
            64,
            0.0,
            "not-a-key-shape-1",
            "",
            "",
            "",
            api_name="/compare",
        )
        start = time.monotonic()
        index = RESPONDER_IDS.index(OPENAI) * 2
        first_text = None
        while not job.done():
            outputs = job.outputs()
            if first_text is None and any(o[index] for o in outputs):
                first_text = time.monotonic() - start
            time.sleep(0.05)
        finished = time.monotonic() - start
    final = job.outputs()[-1]
    assert final[index] == "".join(CHUNKS)
    assert first_text is not None, "no text before the job ended"
    assert finished - first_text >= 2.0, (
        f"first text at {first_text:.1f} s, reply done at {finished:.1f} s: not streamed"
    )
    texts = [o[index] for o in job.outputs()]
    assert len({t for t in texts if t}) >= 4, "the panel should grow in several steps"
