"""Layered loading: field defaults < config files (in order) < the environment."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional

from .dotenv import read_dotenv
from .ini import read_ini
from .schema import Schema

REDACTED = "********"


class ConfigError(Exception):
    """Every problem found while loading, one per line."""

    def __init__(self, problems: List[str]):
        super().__init__("invalid configuration:\n  " + "\n  ".join(problems))
        self.problems = problems


class Config:
    def __init__(self, schema: Schema, values: Dict[str, Any], sources: Dict[str, str]):
        self._schema = schema
        self._values = values
        self.sources = sources

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name.upper()]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def as_dict(self, redact: bool = True) -> Dict[str, Any]:
        secrets = {f.name for f in self._schema if f.secret}
        return {
            name: REDACTED if redact and name in secrets and value is not None else value
            for name, value in self._values.items()
        }

    def __repr__(self) -> str:
        pairs = ", ".join(f"{name}={value!r}" for name, value in self.as_dict().items())
        return f"Config({pairs})"


def _read_file(path: Path, environ: Mapping[str, str]) -> Dict[str, str]:
    if path.suffix in (".ini", ".cfg"):
        return read_ini(path)
    return read_dotenv(path, environ=environ)


def load(
    schema: Schema,
    files: Iterable[Any] = (),
    environ: Optional[Mapping[str, str]] = None,
    prefix: str = "",
) -> Config:
    """Loads every field of `schema`. Missing files are skipped. The environment is read
    with `prefix` (APP_PORT for the field PORT when prefix is 'APP_')."""
    env = dict(os.environ if environ is None else environ)
    layers: List[tuple] = []
    for file in files:
        path = Path(file)
        if path.is_file():
            layers.append((str(path), _read_file(path, env)))
    layers.append(("environment", {key[len(prefix) :]: value for key, value in env.items() if key.startswith(prefix)}))

    values: Dict[str, Any] = {}
    sources: Dict[str, str] = {}
    problems: List[str] = []
    for field in schema:
        raw: Optional[str] = None
        for source, layer in layers:
            if field.name in layer:
                raw, sources[field.name] = layer[field.name], source
        if raw is None:
            if field.required:
                problems.append(f"{field.name}: required but not set")
            else:
                values[field.name] = field.default
                sources[field.name] = "default"
            continue
        try:
            values[field.name] = field.convert(raw)
        except ValueError as error:
            problems.append(f"{field.name}: {error}")
    if problems:
        raise ConfigError(problems)
    return Config(schema, values, sources)
