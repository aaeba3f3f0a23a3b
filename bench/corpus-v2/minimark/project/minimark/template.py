"""Page templates.

    {{ user.name | default:"guest" | upper }}
    {% if user.admin %}...{% else %}...{% endif %}
    {% for item in order.items %}{{ loop.index }}. {{ item }}{% else %}none{% endfor %}

Values are HTML-escaped unless they are Markup (the `markdown` and `safe` filters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .inline import Markup, escape
from .render import markdown

_TAG = re.compile(r"({{.*?}}|{%.*?%})", re.S)
_PIPE_PART = re.compile(r'(?:[^|"]|"(?:[^"\\]|\\.)*")+')
_ARG = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|(-?\d+))\s*(?:,|$)')
_FOR = re.compile(r"^for\s+(\w+)\s+in\s+([\w.]+)$")
_IF = re.compile(r"^if\s+(not\s+)?([\w.]+)$")


class TemplateError(Exception):
    pass


class TemplateSyntaxError(TemplateError):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class UndefinedError(TemplateError):
    pass


def _truncate(value: Any, length: int = 80, ellipsis: str = "...") -> str:
    text = str(value)
    if len(text) <= length:
        return text
    return text[: length - len(ellipsis)].rstrip() + ellipsis


DEFAULT_FILTERS: Dict[str, Callable[..., Any]] = {
    "upper": lambda value: str(value).upper(),
    "lower": lambda value: str(value).lower(),
    "title": lambda value: str(value).title(),
    "default": lambda value, fallback="": fallback if value is None or value == "" else value,
    "join": lambda value, sep=", ": sep.join(str(item) for item in value),
    "length": len,
    "truncate": _truncate,
    "markdown": lambda value: markdown(str(value)),
    "safe": Markup,
}


@dataclass
class _Text:
    text: str


@dataclass
class _Output:
    path: str
    filters: List[Tuple[str, List[Union[str, int]]]]
    line: int


@dataclass
class _If:
    path: str
    negate: bool
    line: int
    body: List[Any] = field(default_factory=list)
    orelse: List[Any] = field(default_factory=list)


@dataclass
class _For:
    name: str
    path: str
    line: int
    body: List[Any] = field(default_factory=list)
    orelse: List[Any] = field(default_factory=list)


def _parse_args(text: str, line: int) -> List[Union[str, int]]:
    args: List[Union[str, int]] = []
    text = text.strip()
    pos = 0
    while pos < len(text):
        match = _ARG.match(text, pos)
        if not match:
            raise TemplateSyntaxError(f"bad filter arguments {text!r}", line)
        if match.group(1) is not None:
            args.append(re.sub(r"\\(.)", r"\1", match.group(1)))
        else:
            args.append(int(match.group(2)))
        pos = match.end()
    return args


def _parse_output(expression: str, line: int, filters: Mapping[str, Callable[..., Any]]) -> _Output:
    parts = [part.strip() for part in _PIPE_PART.findall(expression)]
    if not parts or not re.fullmatch(r"[\w.]+", parts[0]):
        raise TemplateSyntaxError(f"bad expression {expression!r}", line)
    chain = []
    for part in parts[1:]:
        name, _, args = part.partition(":")
        name = name.strip()
        if name not in filters:
            raise TemplateSyntaxError(f"unknown filter {name!r}", line)
        chain.append((name, _parse_args(args, line)))
    return _Output(parts[0], chain, line)


def _parse(source: str, filters: Mapping[str, Callable[..., Any]]) -> List[Any]:
    root: List[Any] = []
    current = root
    stack: List[Tuple[Union[_If, _For], List[Any]]] = []  # open block, list to return to
    line = 1
    for token in _TAG.split(source):
        if token.startswith("{{") and token.endswith("}}"):
            current.append(_parse_output(token[2:-2].strip(), line, filters))
        elif token.startswith("{%") and token.endswith("%}"):
            statement = " ".join(token[2:-2].split())
            keyword = statement.split(" ")[0]
            if keyword in ("for", "if"):
                match = (_FOR if keyword == "for" else _IF).match(statement)
                if not match:
                    raise TemplateSyntaxError(f"bad {keyword} tag {statement!r}", line)
                if keyword == "for":
                    node: Union[_If, _For] = _For(match.group(1), match.group(2), line)
                else:
                    node = _If(match.group(2), bool(match.group(1)), line)
                current.append(node)
                stack.append((node, current))
                current = node.body
            elif keyword == "else":
                if not stack or current is stack[-1][0].orelse:
                    raise TemplateSyntaxError("else outside of if or for", line)
                current = stack[-1][0].orelse
            elif keyword in ("endfor", "endif"):
                expected = _For if keyword == "endfor" else _If
                if not stack or not isinstance(stack[-1][0], expected):
                    raise TemplateSyntaxError(f"unexpected {keyword}", line)
                current = stack.pop()[1]
            else:
                raise TemplateSyntaxError(f"unknown tag {statement!r}", line)
        elif token:
            current.append(_Text(token))
        line += token.count("\n")
    if stack:
        node = stack[-1][0]
        raise TemplateSyntaxError(f"{'for' if isinstance(node, _For) else 'if'} is never closed", node.line)
    return root


class Environment:
    def __init__(
        self,
        filters: Optional[Mapping[str, Callable[..., Any]]] = None,
        strict: bool = False,
        autoescape: bool = True,
    ) -> None:
        self.filters: Dict[str, Callable[..., Any]] = dict(DEFAULT_FILTERS)
        if filters:
            self.filters.update(filters)
        self.strict = strict
        self.autoescape = autoescape

    def add_filter(self, name: str, function: Callable[..., Any]) -> None:
        self.filters[name] = function

    def from_string(self, source: str) -> "Template":
        return Template(source, self)


class Template:
    def __init__(self, source: str, env: Optional[Environment] = None) -> None:
        self.env = env or Environment()
        self._nodes = _parse(source, self.env.filters)

    def render(self, context: Optional[Mapping[str, Any]] = None, **extra: Any) -> str:
        scope = dict(context or {})
        scope.update(extra)
        out: List[str] = []
        self._render(self._nodes, scope, out)
        return "".join(out)

    def _render(self, nodes: List[Any], scope: Dict[str, Any], out: List[str]) -> None:
        for node in nodes:
            if isinstance(node, _Text):
                out.append(node.text)
            elif isinstance(node, _Output):
                has_default = any(name == "default" for name, _ in node.filters)
                value = self._resolve(scope, node.path, node.line, required=not has_default)
                for name, args in node.filters:
                    value = self.env.filters[name](value, *args)
                out.append(self._stringify(value))
            elif isinstance(node, _If):
                value = self._resolve(scope, node.path, node.line, required=False)
                branch = node.body if bool(value) != node.negate else node.orelse
                self._render(branch, scope, out)
            elif isinstance(node, _For):
                items = list(self._resolve(scope, node.path, node.line) or [])
                if not items:
                    self._render(node.orelse, scope, out)
                for index, item in enumerate(items):
                    loop = {
                        "index": index + 1,
                        "first": index == 0,
                        "last": index == len(items) - 1,
                        "length": len(items),
                    }
                    self._render(node.body, {**scope, node.name: item, "loop": loop}, out)

    def _stringify(self, value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, Markup) or not self.env.autoescape:
            return str(value)
        return escape(str(value))

    def _resolve(self, scope: Mapping[str, Any], path: str, line: int, required: bool = True) -> Any:
        """A dotted path through dict keys, list indexes and attributes."""
        value: Any = scope
        for part in path.split("."):
            if isinstance(value, Mapping) and part in value:
                value = value[part]
            elif (
                isinstance(value, Sequence)
                and not isinstance(value, str)
                and part.isdigit()
                and int(part) < len(value)
            ):
                value = value[int(part)]
            elif not isinstance(value, Mapping) and not part.startswith("_") and hasattr(value, part):
                value = getattr(value, part)
            else:
                if required and self.env.strict:
                    raise UndefinedError(f"line {line}: {path} is undefined")
                return None
        return value
