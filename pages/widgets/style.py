"""The app's few style rules (Gradio 6 takes CSS at launch, not per page).

>>> ".notice" in CSS and "@media" in CSS
True
"""

from __future__ import annotations

CSS = """
.notice p { font-weight: 600; }
.scroll-cue { display: none; }
@media (max-width: 700px) { .scroll-cue { display: block; } }
"""
