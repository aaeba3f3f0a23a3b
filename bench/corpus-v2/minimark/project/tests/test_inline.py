import pytest

from minimark.inline import escape, render_inline, strip_markup


def test_escape_special_characters():
    assert escape('<a href="x">&</a>') == "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"


@pytest.mark.parametrize(
    "source, html",
    [
        ("plain text", "plain text"),
        ("**bold** and *em*", "<strong>bold</strong> and <em>em</em>"),
        ("a < b & c", "a &lt; b &amp; c"),
        ("`x * y * z`", "<code>x * y * z</code>"),
        ("`<br>` tag", "<code>&lt;br&gt;</code> tag"),
        ("[docs](https://example.org/a_b)", '<a href="https://example.org/a_b">docs</a>'),
    ],
    ids=["plain", "bold-and-em", "html-escaped", "code-keeps-stars", "code-escapes-html", "link"],
)
def test_render_inline(source, html):
    assert render_inline(source) == html


def test_javascript_links_are_neutralised():
    assert render_inline("[click](JavaScript:alert(1))") == '<a href="#">click</a>)'


def test_strip_markup_keeps_the_words():
    assert strip_markup("The **new** [API](/api) `call`") == "The new API call"
