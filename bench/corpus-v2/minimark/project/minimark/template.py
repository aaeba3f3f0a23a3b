"""Page templates: {{ user.name | default:"guest" }}, {% if %}/{% else %}/{% endif %} and
{% for x in xs %}/{% else %}/{% endfor %}. Values are HTML-escaped unless they are Markup."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .inline import Markup, escape
from .render import markdown

_TAG = re.compile(r"({{.*?}}|{%.*?%})", re.S)
_PIPE_PART = re.compile(r'(?:[^|"]|"[^"]*")+')
_ARG = re.compile(r'\s*(?:"([^"]*)"|(-?\d+))\s*(?:,|$)')
_BLOCK_TAG = re.compile(r"^(?:for\s+(\w+)\s+in|if(\s+not)?)\s+([\w.]+)$")


class TemplateError(Exception):
    pass


class TemplateSyntaxError(TemplateError):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class UndefinedError(TemplateError):
    pass


DEFAULT_FILTERS: Dict[str, Callable[..., Any]] = {
    "upper": lambda value: str(value).upper(),
    "lower": lambda value: str(value).lower(),
    "default": lambda value, fallback="": fallback if value is None or value == "" else value,
    "join": lambda value, sep=", ": sep.join(str(item) for item in value),
    "markdown": lambda value: markdown(str(value)),
}

Filters = List[Tuple[str, List[Union[str, int]]]]


@dataclass
class _Output:
    path: str
    filters: Filters
    line: int


@dataclass
class _Block:
    kind: str  # "for", "if" or "if not"
    path: str
    line: int
    name: str = ""  # the loop variable
    body: List[Any] = field(default_factory=list)
    orelse: List[Any] = field(default_factory=list)


def _parse_output(expression: str, line: int, filters: Mapping[str, Any]) -> _Output:
    parts = [part.strip() for part in _PIPE_PART.findall(expression)]
    if not parts or not re.fullmatch(r"[\w.]+", parts[0]):
        raise TemplateSyntaxError(f"bad expression {expression!r}", line)
    chain: Filters = []
    for part in parts[1:]:
        name, _, text = (piece.strip() for piece in part.partition(":"))
        if name not in filters:
            raise TemplateSyntaxError(f"unknown filter {name!r}", line)
        args: List[Union[str, int]] = []
        pos = 0
        while pos < len(text):
            match = _ARG.match(text, pos)
            if not match:
                raise TemplateSyntaxError(f"bad filter arguments {text!r}", line)
            args.append(match.group(1) if match.group(1) is not None else int(match.group(2)))
            pos = match.end()
        chain.append((name, args))
    return _Output(parts[0], chain, line)


def _parse(source: str, filters: Mapping[str, Any]) -> List[Any]:
    root: List[Any] = []
    current = root
    stack: List[Tuple[_Block, List[Any]]] = []  # open block, list to return to
    line = 1
    for token in _TAG.split(source):
        if token.startswith("{{") and token.endswith("}}"):
            current.append(_parse_output(token[2:-2].strip(), line, filters))
        elif token.startswith("{%") and token.endswith("%}"):
            statement = " ".join(token[2:-2].split())
            keyword = statement.split(" ")[0]
            if keyword in ("for", "if"):
                match = _BLOCK_TAG.match(statement)
                if not match:
                    raise TemplateSyntaxError(f"bad {keyword} tag {statement!r}", line)
                kind = "for" if match.group(1) else "if not" if match.group(2) else "if"
                node = _Block(kind, match.group(3), line, name=match.group(1) or "")
                current.append(node)
                stack.append((node, current))
                current = node.body
            elif keyword == "else":
                if not stack or current is stack[-1][0].orelse:
                    raise TemplateSyntaxError("else outside of if or for", line)
                current = stack[-1][0].orelse
            elif keyword in ("endfor", "endif"):
                if not stack or stack[-1][0].kind.split(" ")[0] != keyword[3:]:
                    raise TemplateSyntaxError(f"unexpected {keyword}", line)
                current = stack.pop()[1]
            else:
                raise TemplateSyntaxError(f"unknown tag {statement!r}", line)
        elif token:
            current.append(token)
        line += token.count("\n")
    if stack:
        raise TemplateSyntaxError(f"{stack[-1][0].kind} is never closed", stack[-1][0].line)
    return root


class Environment:
    def __init__(self, filters: Optional[Mapping[str, Callable[..., Any]]] = None, strict: bool = False):
        self.filters: Dict[str, Callable[..., Any]] = {**DEFAULT_FILTERS, **(filters or {})}
        self.strict = strict

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
            if isinstance(node, str):
                out.append(node)
            elif isinstance(node, _Output):
                has_default = any(name == "default" for name, _ in node.filters)
                value = self._resolve(scope, node.path, node.line, required=not has_default)
                for name, args in node.filters:
                    value = self.env.filters[name](value, *args)
                if value is not None:
                    out.append(value if isinstance(value, Markup) else escape(str(value)))
            elif node.kind != "for":
                value = self._resolve(scope, node.path, node.line, required=False)
                truth = bool(value) if node.kind == "if" else not value
                self._render(node.body if truth else node.orelse, scope, out)
            else:
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

    def _resolve(self, scope: Mapping[str, Any], path: str, line: int, required: bool = True) -> Any:
        """A dotted path through dict keys, list indexes and attributes."""
        value: Any = scope
        for part in path.split("."):
            if isinstance(value, Mapping) and part in value:
                value = value[part]
            elif isinstance(value, Sequence) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
            elif not isinstance(value, Mapping) and not part.startswith("_") and hasattr(value, part):
                value = getattr(value, part)
            else:
                if required and self.env.strict:
                    raise UndefinedError(f"line {line}: {path} is undefined")
                return None
        return value
