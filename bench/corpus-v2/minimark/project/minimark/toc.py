"""Anchors for headings and a table of contents."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Dict, List

from .blocks import Block
from .inline import strip_markup


@dataclass(frozen=True)
class TocEntry:
    level: int
    title: str
    anchor: str


def slugify(text: str) -> str:
    """"Héllo, World!" -> "hello-world"."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text.lower())
    return re.sub(r"[\s_-]+", "-", text).strip("-") or "section"


def heading_ids(blocks: List[Block]) -> Dict[int, str]:
    """Anchor of every heading, by block index; repeated titles get -1, -2, ..."""
    seen: Dict[str, int] = {}
    ids: Dict[int, str] = {}
    for index, block in enumerate(blocks):
        if block.kind != "heading":
            continue
        base = slugify(strip_markup(block.text))
        count = seen.get(base, 0)
        seen[base] = count + 1
        ids[index] = base if count == 0 else f"{base}-{count}"
    return ids


def table_of_contents(blocks: List[Block], max_level: int = 3) -> List[TocEntry]:
    ids = heading_ids(blocks)
    return [
        TocEntry(block.level, strip_markup(block.text), ids[index])
        for index, block in enumerate(blocks)
        if block.kind == "heading" and block.level <= max_level
    ]


def render_toc(entries: List[TocEntry]) -> str:
    """The contents as a nested markdown list, indented relative to the top level."""
    if not entries:
        return ""
    top = min(entry.level for entry in entries)
    lines = [f"{'  ' * (entry.level - top)}- [{entry.title}](#{entry.anchor})" for entry in entries]
    return "\n".join(lines) + "\n"
