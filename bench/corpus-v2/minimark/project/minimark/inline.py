"""Inline markup: `code`, **strong**, *emphasis* and [links](url)."""

from __future__ import annotations

import re
from typing import List

_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EMPHASIS = re.compile(r"\*(.+?)\*")
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")

UNSAFE_SCHEMES = ("javascript:", "vbscript:", "data:")


class Markup(str):
    """Text that is already HTML and must not be escaped again."""


def escape(text: str) -> str:
    if isinstance(text, Markup):
        return text
    text = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;")


def safe_url(url: str) -> str:
    lowered = url.strip().lower()
    if lowered.startswith(UNSAFE_SCHEMES):
        return "#"
    return url


def render_inline(text: str) -> str:
    """Inline markup to HTML. Code spans are escaped but never formatted."""
    spans: List[str] = []

    def stash(match: "re.Match[str]") -> str:
        spans.append(f"<code>{escape(match.group(1))}</code>")
        return f"\x00{len(spans) - 1}\x00"

    text = _CODE.sub(stash, text)
    text = escape(text)
    text = _LINK.sub(lambda m: f'<a href="{safe_url(m.group(2))}">{m.group(1)}</a>', text)
    text = _STRONG.sub(r"<strong>\1</strong>", text)
    text = _EMPHASIS.sub(r"<em>\1</em>", text)
    return _PLACEHOLDER.sub(lambda m: spans[int(m.group(1))], text)


def strip_markup(text: str) -> str:
    """The plain text of inline markup (for titles and anchors)."""
    text = _LINK.sub(r"\1", text)
    return text.replace("**", "").replace("*", "").replace("`", "")
