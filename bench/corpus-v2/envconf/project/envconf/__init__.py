"""Typed application settings from .env files, INI files and the process environment."""
from .dotenv import DotenvError, parse_dotenv, read_dotenv
from .ini import read_ini
from .loader import Config, ConfigError, load
from .schema import Field, Schema

__all__ = [
    "Config",
    "ConfigError",
    "DotenvError",
    "Field",
    "Schema",
    "load",
    "parse_dotenv",
    "read_dotenv",
    "read_ini",
]
