import pytest

from minimark import Environment, Template, UndefinedError, markdown
from minimark.blocks import parse_blocks
from minimark.inline import render_inline
from minimark.toc import heading_ids


@pytest.mark.parametrize(
    "url",
    ["javascript:go", "JAVASCRIPT:go", "DATA:text/html;base64,PHNjcmlwdD4", "VBScript:msgbox"],
)
def test_unsafe_link_schemes(url):
    assert render_inline(f"[x]({url})") == '<a href="#">x</a>'


def test_safe_link_is_kept():
    assert render_inline("[x](/Java/script:notes)") == '<a href="/Java/script:notes">x</a>'


def test_heading_ids_for_repeated_and_distinct_titles():
    blocks = parse_blocks("# Intro\n## Usage\n## *Intro*\n### Usage\n# Intro\n")
    assert list(heading_ids(blocks).values()) == ["intro", "usage", "intro-1", "usage-1", "intro-2"]
    nav = markdown("# Intro\n## Usage\n## *Intro*\n### Usage\n# Intro\n", toc=True).split("</nav>")[0]
    assert nav.count('href="#intro-1"') == 1
    assert nav.count('href="#usage-1"') == 1


def test_code_block_markup_is_verbatim():
    html = markdown("```\n*a* and **b** and `c` and [d](e)\n```")
    assert html == "<pre><code>*a* and **b** and `c` and [d](e)</code></pre>\n"


def test_render_does_not_modify_the_callers_context():
    context = {"name": "Ann"}
    template = Template("{{ name }} {{ greeting | default:\"hi\" }}")
    assert template.render(context, greeting="hello") == "Ann hello"
    assert context == {"name": "Ann"}
    assert template.render(context) == "Ann hi"


def test_separate_templates_do_not_share_variables():
    first = Template("{{ who | default:\"nobody\" }}")
    second = Template("{{ who | default:\"nobody\" }}")
    assert first.render(who="me") == "me"
    assert second.render() == "nobody"


def test_missing_keys_at_any_depth_are_undefined(env):
    template = env.from_string("<{{ a.b.c }}|{{ a.list.5 }}|{{ missing.x }}>")
    assert template.render(a={"b": {}, "list": [1]}) == "<||>"


def test_strict_undefined_in_loop_body():
    env = Environment(strict=True)
    template = env.from_string("{% for row in rows %}{{ row.total }}{% endfor %}")
    with pytest.raises(UndefinedError):
        template.render(rows=[{"total": 1}, {"sum": 2}])


def test_loop_first_last_and_length(env):
    template = env.from_string(
        "{% for x in xs %}{% if loop.first %}[{% endif %}{{ x }}/{{ loop.length }}"
        "{% if loop.last %}]{% else %} {% endif %}{% endfor %}"
    )
    assert template.render(xs=["a", "b"]) == "[a/2 b/2]"
    assert template.render(xs=["only"]) == "[only/1]"
