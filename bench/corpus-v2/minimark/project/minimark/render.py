"""Blocks to HTML."""

from __future__ import annotations

from typing import Dict, List, Optional

from .blocks import Block, parse_blocks
from .inline import Markup, escape, render_inline, strip_markup
from .toc import heading_ids


def render_block(block: Block, anchor: Optional[str] = None) -> str:
    if block.kind == "heading":
        attribute = f' id="{anchor}"' if anchor else ""
        return f"<h{block.level}{attribute}>{render_inline(block.text)}</h{block.level}>"
    if block.kind == "paragraph":
        return f"<p>{render_inline(block.text)}</p>"
    if block.kind in ("bullets", "numbered"):
        tag = "ul" if block.kind == "bullets" else "ol"
        start = f' start="{block.start}"' if block.kind == "numbered" and block.start != 1 else ""
        items = "".join(f"<li>{render_inline(item)}</li>\n" for item in block.items)
        return f"<{tag}{start}>\n{items}</{tag}>"
    if block.kind == "code":
        language = f' class="language-{block.lang}"' if block.lang else ""
        return f"<pre><code{language}>{escape(block.text)}</code></pre>"
    raise ValueError(f"unknown block kind {block.kind!r}")


def render_blocks(blocks: List[Block], anchors: Optional[Dict[int, str]] = None) -> str:
    anchors = anchors or {}
    return "\n".join(render_block(block, anchors.get(index)) for index, block in enumerate(blocks))


def markdown(source: str, toc: bool = False) -> Markup:
    """Renders a document; with `toc`, headings get anchors and a contents list comes first."""
    blocks = parse_blocks(source)
    if not toc:
        return Markup(render_blocks(blocks) + "\n")
    ids = heading_ids(blocks)
    links = "".join(
        f'<li class="toc-{block.level}"><a href="#{ids[index]}">{escape(strip_markup(block.text))}</a></li>\n'
        for index, block in enumerate(blocks)
        if index in ids and block.level <= 3
    )
    nav = f'<nav class="toc">\n<ul>\n{links}</ul>\n</nav>\n' if links else ""
    return Markup(nav + render_blocks(blocks, ids) + "\n")
