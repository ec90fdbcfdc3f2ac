"""The app's pages, each a thin Gradio twin of a study (``pages.widgets``: their parts).

Importing the pages turns Gradio's usage telemetry off: nothing about a visitor's use
leaves the server except to the model providers they ask.
"""

import os

os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
