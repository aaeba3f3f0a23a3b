"""Anchors for headings."""

from __future__ import annotations

import re
import unicodedata
from typing import Dict, List

from .blocks import Block
from .inline import strip_markup


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

