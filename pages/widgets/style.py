"""The app's few style rules (Gradio 6 takes CSS at launch, not per page).

>>> ".notice" in CSS and "@media" in CSS and "word-break: normal" in CSS
True
>>> "SourceSansPro-SemiBold" in CSS  # the broken file is never named: only the whole one
False
"""

from __future__ import annotations

#: Gradio's theme loads weight 600 of its fonts from files that hold only a few dozen glyphs
#: ("SourceSansPro-SemiBold.woff2" has "A", "B" and some accents; IBM Plex Mono's has "a",
#: "b" …). Bold text drew those letters in the theme's font and every other letter in a
#: fallback font, so a bold "B" or "A" looked small beside its neighbours ("OpenAI",
#: "Behavioral"). Weights 600 and 700 use the complete bold files Gradio ships beside them.
WHOLE_BOLD_FONTS = "\n".join(
    f"@font-face {{ font-family: '{family}'; font-style: normal; font-weight: {weight}; "
    f"src: url('static/fonts/{folder}/{folder}-Bold.woff2') format('woff2'); }}"
    for family, folder in (("Source Sans Pro", "SourceSansPro"), ("IBM Plex Mono", "IBMPlexMono"))
    for weight in (600, 700)
)

CSS = (
    WHOLE_BOLD_FONTS
    + """
.notice p { font-weight: 600; }
/* Gradio breaks a table header anywhere (word-break: break-word): a narrow column showed
   "Behaviora/l", and squeezed columns one letter a line. Headers break between words only,
   so a column is never narrower than its longest header word. */
th .header.text.wrap { word-break: normal !important; overflow-wrap: normal !important; }
/* The Vote page's reveal table (a Markdown table, which Gradio breaks anywhere) breaks
   between words only; wider than a phone, its box scrolls sideways (the cue says so). */
.vote-reveal table { word-break: normal !important; overflow-wrap: normal !important; }
.scroll-cue { display: none; }
/* A progress bar whose text keeps its own clock ("writing reply 1 of 4 · 15 s", from
   pages.widgets.progress.follow): Gradio's timer beside it restarts at every update and read
   "0/4 steps | 0.1s" under a reply fifteen seconds in, so it is hidden there. */
.own-clock .progress-text { display: none !important; }
/* The app's tab bar wraps onto a second line on a phone (app.py); Gradio's wrapping bar sits
   4 px lower and ends 4 px later than its one-line bar: this puts it where that one was. */
#page-tabs > .tab-wrapper.wrap { margin-top: -4px; padding-bottom: 4px; }
/* Gradio 6 draws its multipage navbar (a lone "Home" link) even with gr.Navbar(visible=False)
   (gradio-app/gradio#12532); the tabs are the app's navigation. */
.nav-holder { display: none !important; }
@media (max-width: 700px) { .scroll-cue { display: block; } }
"""
)
