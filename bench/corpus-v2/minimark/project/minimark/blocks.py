"""Splits a document into blocks: headings, paragraphs, lists and fenced code."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_ORDERED = re.compile(r"^\s*(\d+)[.)]\s+(.*)$")
_FENCE = re.compile(r"^```\s*([\w+-]*)\s*$")


@dataclass
class Block:
    kind: str  # heading, paragraph, bullets, numbered, code
    text: str = ""
    level: int = 0
    items: List[str] = field(default_factory=list)
    start: int = 1
    lang: str = ""


def parse_blocks(source: str) -> List[Block]:
    lines = source.expandtabs(4).splitlines()
    blocks: List[Block] = []
    paragraph: List[str] = []

    def flush() -> None:
        if paragraph:
            blocks.append(Block("paragraph", " ".join(paragraph)))
            paragraph.clear()

    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        fence = _FENCE.match(line)
        if fence:
            flush()
            code = []
            i += 1
            while i < len(lines) and lines[i].rstrip() != "```":
                code.append(lines[i])
                i += 1
            blocks.append(Block("code", "\n".join(code), lang=fence.group(1)))
            i += 1  # the closing fence
            continue
        if not line.strip():
            flush()
            i += 1
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            blocks.append(Block("heading", heading.group(2), level=len(heading.group(1))))
            i += 1
            continue
        for kind, pattern in (("bullets", _BULLET), ("numbered", _ORDERED)):
            if pattern.match(line):
                flush()
                block = Block(kind)
                while i < len(lines) and pattern.match(lines[i]):
                    match = pattern.match(lines[i])
                    if kind == "numbered" and not block.items:
                        block.start = int(match.group(1))
                    block.items.append(match.group(match.lastindex).strip())
                    i += 1
                blocks.append(block)
                break
        else:
            paragraph.append(line.strip())
            i += 1
    flush()
    return blocks
