from pathlib import Path

import pytest

from logreport import read_log

DATA = Path(__file__).parent / "data"


@pytest.fixture
def log_path():
    return DATA / "access.log"


@pytest.fixture
def parsed(log_path):
    return read_log(log_path)


@pytest.fixture
def entries(parsed):
    return parsed[0]
