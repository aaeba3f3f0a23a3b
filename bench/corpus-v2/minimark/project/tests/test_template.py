from dataclasses import dataclass

import pytest

from minimark import Environment, Template, TemplateSyntaxError, UndefinedError


@dataclass
class User:
    name: str
    admin: bool = False


def test_variables_are_escaped(env):
    assert env.from_string("<b>{{ name }}</b>").render(name="<Tom & Jerry>") == (
        "<b>&lt;Tom &amp; Jerry&gt;</b>"
    )


def test_dotted_paths_reach_keys_indexes_and_attributes(env):
    template = env.from_string("{{ order.lines.1.sku }} for {{ order.customer.name }}")
    context = {"order": {"lines": [{"sku": "A"}, {"sku": "B"}], "customer": User("Ann")}}
    assert template.render(context) == "B for Ann"


def test_missing_values_render_empty_or_default(env):
    template = env.from_string("[{{ user.nickname }}] [{{ user.nickname | default:\"anon\" }}]")
    assert template.render(user={"name": "Ann"}) == "[] [anon]"


def test_strict_environment_reports_undefined(strict_env):
    with pytest.raises(UndefinedError, match="user.email"):
        strict_env.from_string("{{ user.email }}").render(user={"name": "Ann"})


def test_filter_chain_with_arguments(env):
    template = env.from_string('{{ tags | join:" / " | upper }} {{ title | default:"Untitled" | lower }}')
    result = template.render(tags=["a", "b"], title="")
    assert result == "A / B untitled"


def test_for_loop_with_loop_variables(env):
    template = env.from_string(
        "{% for item in items %}{{ loop.index }}.{{ item }}{% if not loop.last %}, {% endif %}{% endfor %}"
    )
    assert template.render(items=["x", "y", "z"]) == "1.x, 2.y, 3.z"


def test_for_else_on_empty_list(env):
    template = env.from_string("{% for n in notes %}{{ n }}{% else %}no notes{% endfor %}")
    assert template.render(notes=[]) == "no notes"


def test_if_else_on_attribute(env):
    template = env.from_string("{% if user.admin %}admin{% else %}member{% endif %}")
    assert template.render(user=User("Bo", admin=True)) == "admin"
    assert template.render(user=User("Cy")) == "member"


def test_markdown_filter_output_is_not_escaped_again(env):
    template = env.from_string("<div>{{ body | markdown }}</div>")
    assert template.render(body="Hello *you*") == "<div><p>Hello <em>you</em></p>\n</div>"


def test_rendering_does_not_leak_between_calls():
    template = Template("Hello, {{ name | default:\"stranger\" }}")
    assert template.render(name="Ann") == "Hello, Ann"
    assert template.render() == "Hello, stranger"


def test_custom_filter():
    env = Environment(filters={"money": lambda cents: f"${cents / 100:.2f}"})
    assert env.from_string("{{ total | money }}").render(total=1999) == "$19.99"


@pytest.mark.parametrize(
    "source, line",
    [
        ("{% for x in xs %}\n{{ x }}", 1),
        ("a\n{% endif %}", 2),
        ("{{ x | nosuch }}", 1),
        ("{% if a %}\n{% else %}\n{% else %}{% endif %}", 3),
    ],
    ids=["unclosed-for", "stray-endif", "unknown-filter", "second-else"],
)
def test_syntax_errors_carry_the_line(env, source, line):
    with pytest.raises(TemplateSyntaxError) as info:
        env.from_string(source)
    assert info.value.line == line
