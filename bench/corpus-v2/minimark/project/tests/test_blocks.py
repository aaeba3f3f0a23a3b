from minimark.blocks import parse_blocks


def test_block_kinds(article):
    kinds = [block.kind for block in parse_blocks(article)]
    assert kinds == ["heading", "paragraph", "heading", "bullets", "heading", "code"]


def test_paragraph_lines_are_joined():
    (block,) = parse_blocks("first line\n  second line\n")
    assert block.text == "first line second line"


def test_heading_level_and_closing_hashes():
    (block,) = parse_blocks("### Setup ###")
    assert (block.level, block.text) == (3, "Setup")


def test_numbered_list_keeps_its_start():
    (block,) = parse_blocks("3. three\n4. four\n")
    assert block.kind == "numbered"
    assert (block.start, block.items) == (3, ["three", "four"])


def test_code_fence_keeps_lines_verbatim():
    (block,) = parse_blocks("```\n  indented\n\n# not a heading\n```")
    assert block.kind == "code"
    assert block.text == "  indented\n\n# not a heading"
