"""MkDocs hooks for the documentation site (mkdocs.yml, ``hooks``).

GitHub's tables need a pipe inside a code span written ``\\|`` (GitHub splits a row at every
bare pipe), and it shows ``|``; Python-Markdown keeps code spans whole and would show the
backslash. So the site unescapes those pipes and the pages read the same in both places.
"""

from __future__ import annotations

import re
from typing import Any

CODE_SPAN = re.compile(r"`[^`\n]*`")


def _unescape(span: re.Match[str]) -> str:
    return span.group(0).replace("\\|", "|")


def on_page_markdown(markdown: str, **_: Any) -> str:
    """The page with ``\\|`` inside code spans of table rows written ``|``."""
    lines = markdown.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("|") and "\\|" in line:
            lines[i] = CODE_SPAN.sub(_unescape, line)
    return "\n".join(lines)
