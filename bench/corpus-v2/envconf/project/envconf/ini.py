"""INI files as flat settings: [database] host=... becomes DATABASE_HOST."""
from __future__ import annotations

import configparser
from pathlib import Path
from typing import Dict


def read_ini(path, root_section: str = "app") -> Dict[str, str]:
    """Keys of `root_section` keep their own name; other sections prefix theirs.
    Values from [DEFAULT] are inherited by every section, as configparser does."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keep the case; names are upper-cased below
    with Path(path).open(encoding="utf-8") as handle:
        parser.read_file(handle)
    flat: Dict[str, str] = {}
    for section in parser.sections():
        prefix = "" if section == root_section else section.upper().replace("-", "_") + "_"
        for key, value in parser.items(section):
            flat[prefix + key.upper()] = value
    return flat
