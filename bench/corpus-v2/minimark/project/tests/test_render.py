from minimark import markdown
from minimark.blocks import parse_blocks
from minimark.toc import heading_ids, slugify


def test_article_html(article):
    html = markdown(article)
    assert html.startswith("<h1>Release notes</h1>\n<p>Version <strong>2.0</strong> is out.")
    assert '<a href="https://example.org/changes?v=2&amp;full=1">changelog</a>' in html
    assert "<li><code>load()</code> now returns a <em>dict</em></li>" in html


def test_code_block_is_escaped_not_formatted(article):
    html = markdown(article)
    assert '<pre><code class="language-python">config = load(path, *args, **kwargs)</code></pre>' in html


def test_numbered_list_start_attribute():
    assert markdown("1. a\n2. b") == "<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n"
    assert markdown("7. g").startswith('<ol start="7">')


def test_slugify():
    assert slugify("Héllo, World!") == "hello-world"
    assert slugify("  API -- v2_beta ") == "api-v2-beta"
    assert slugify("???") == "section"


def test_toc_nav_links_to_heading_anchors(article):
    html = markdown(article, toc=True)
    assert '<li class="toc-2"><a href="#breaking-changes">Breaking changes</a></li>' in html
    assert '<h2 id="upgrading">Upgrading</h2>' in html


def test_repeated_headings_get_distinct_anchors():
    html = markdown("## Example\n\ntext\n\n## Example\n\n## Example\n", toc=True)
    assert '<h2 id="example">' in html
    assert '<h2 id="example-1">' in html
    assert '<h2 id="example-2">' in html


def test_heading_ids_by_block_index(article):
    assert heading_ids(parse_blocks(article)) == {0: "release-notes", 2: "breaking-changes", 4: "upgrading"}


def test_toc_leaves_out_deep_headings():
    html = markdown("# Top\n\n#### Deep **dive**\n", toc=True)
    assert html.count("<li") == 1
    assert '<h4 id="deep-dive">Deep <strong>dive</strong></h4>' in html
