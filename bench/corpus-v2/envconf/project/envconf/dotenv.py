"""A .env parser: KEY=value lines, quotes, escapes, comments and ${VAR} interpolation."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, Mapping, Optional

_LINE = re.compile(r"^(?:export\s+)?(?P<key>[A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?P<value>.*)$")
_REFERENCE = re.compile(r"\$(?:\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)(?::-(?P<default>[^}]*))?\}|(?P<bare>[A-Za-z_][A-Za-z0-9_]*))")
_ESCAPES = {"\\n": "\n", "\\t": "\t", '\\"': '"', "\\$": "\x00"}


class DotenvError(ValueError):
    def __init__(self, line_no: int, message: str):
        super().__init__(f"line {line_no}: {message}")
        self.line_no = line_no


def _unquote(raw: str, line_no: int):
    """Returns (text, interpolate): single quotes are literal, double quotes take escapes."""
    if raw[:1] in ("'", '"'):
        quote = raw[0]
        end = raw.find(quote, 1)
        while quote == '"' and end > 0 and raw[end - 1] == "\\":
            end = raw.find(quote, end + 1)
        if end < 0:
            raise DotenvError(line_no, f"unterminated {quote} quote")
        rest = raw[end + 1 :].strip()
        if rest and not rest.startswith("#"):
            raise DotenvError(line_no, f"unexpected text after the closing quote: {rest!r}")
        text = raw[1:end]
        if quote == "'":
            return text, False
        for escape, char in _ESCAPES.items():
            text = text.replace(escape, char)
        return text, True
    # unquoted: a ' #' starts a comment; a '#' inside a word (a URL fragment, a colour) does not
    comment = raw.find(" #")
    if comment >= 0:
        raw = raw[:comment]
    return raw.strip(), True


def interpolate(value: str, scope: Mapping[str, str]) -> str:
    """Replaces $NAME, ${NAME} and ${NAME:-default}; unknown names become ''.
    The default is used when the name is unset or empty, as in the shell."""

    def replace(match: "re.Match[str]") -> str:
        name = match.group("braced") or match.group("bare")
        found = scope.get(name)
        default = match.group("default")
        if default is not None and not found:
            return default
        return found or ""

    return _REFERENCE.sub(replace, value).replace("\x00", "$")


def parse_dotenv(
    text: str,
    into: Optional[Dict[str, str]] = None,
    environ: Optional[Mapping[str, str]] = None,
) -> Dict[str, str]:
    """Parses .env text into `into` (a new dict by default) and returns it. References see
    the keys defined above them first, then `environ`."""
    values: Dict[str, str] = {} if into is None else into
    for line_no, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = _LINE.match(stripped)
        if match is None:
            raise DotenvError(line_no, f"expected KEY=value, got {stripped!r}")
        text_value, expand = _unquote(match.group("value"), line_no)
        if expand:
            scope = dict(environ or {})
            scope.update(values)
            text_value = interpolate(text_value, scope)
        values[match.group("key")] = text_value
    return values


def read_dotenv(path, environ: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    return parse_dotenv(Path(path).read_text(encoding="utf-8"), environ=environ)
