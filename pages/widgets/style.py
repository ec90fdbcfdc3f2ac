"""The app's few style rules (Gradio 6 takes CSS at launch, not per page).

>>> ".notice" in CSS and "@media" in CSS and "word-break: normal" in CSS
True
"""

from __future__ import annotations

CSS = """
.notice p { font-weight: 600; }
/* Gradio breaks a table header anywhere (word-break: break-word): a narrow column showed
   "Behaviora/l", and squeezed columns one letter a line. Headers break between words only,
   so a column is never narrower than its longest header word. */
th .header.text.wrap { word-break: normal !important; overflow-wrap: normal !important; }
/* The Vote page's reveal table (a Markdown table, which Gradio breaks anywhere) breaks
   between words only; wider than a phone, its box scrolls sideways (the cue says so). */
.vote-reveal table { word-break: normal !important; overflow-wrap: normal !important; }
.scroll-cue { display: none; }
@media (max-width: 700px) { .scroll-cue { display: block; } }
"""
