"""A small filter language: `status>=500 path^=/api method=POST since=2024-03-01T10:00`."""
from __future__ import annotations

import operator
import re
import shlex
from datetime import datetime, timezone
from typing import Callable, List, Optional

from .parsing import Entry

_TERM = re.compile(r"^(?P<field>[a-z]+)(?P<op>>=|<=|!=|\^=|~=|=|>|<)(?P<value>.*)$")

# filter field -> Entry attribute
ATTRIBUTES = {
    "ip": "ip",
    "user": "user",
    "method": "method",
    "path": "path",
    "status": "status",
    "size": "size",
    "agent": "agent",
    "duration": "duration_ms",
}
NUMERIC = {"status", "size", "duration"}
OPERATORS: dict = {
    "=": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
    "^=": lambda value, prefix: value.startswith(prefix),
    "~=": lambda value, pattern: re.search(pattern, value) is not None,
}

Predicate = Callable[[Entry], bool]


def _moment(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _term(field: str, op: str, value: str) -> Predicate:
    if field not in ATTRIBUTES:
        raise ValueError(f"unknown field {field!r}")
    attribute = ATTRIBUTES[field]
    compare = OPERATORS[op]
    if field in NUMERIC:
        if op in ("^=", "~="):
            raise ValueError(f"{op} needs a text field, not {field}")
        wanted: object = int(value)
    else:
        wanted = value

    def predicate(entry: Entry) -> bool:
        actual = getattr(entry, attribute)
        if actual is None:
            return op == "!="
        return bool(compare(actual, wanted))

    return predicate


def parse_filter(text: str) -> Predicate:
    """All terms must hold. `since`/`until` bound the time (until is exclusive); naive times are UTC."""
    predicates: List[Predicate] = []
    since: Optional[datetime] = None
    until: Optional[datetime] = None
    for term in shlex.split(text):
        match = _TERM.match(term)
        if match is None:
            raise ValueError(f"bad filter term {term!r}")
        field, op, value = match.group("field", "op", "value")
        if field in ("since", "until"):
            if op != "=":
                raise ValueError(f"{field} takes '=', not {op!r}")
            if field == "since":
                since = _moment(value)
            else:
                until = _moment(value)
            continue
        predicates.append(_term(field, op, value))

    def matches(entry: Entry) -> bool:
        if since is not None and entry.time < since:
            return False
        if until is not None and entry.time >= until:
            return False
        return all(predicate(entry) for predicate in predicates)

    return matches
