import pytest


@pytest.fixture
def registry():
    return {
        "webapp": {
            "1.0": {"router": ">=2.0, <3", "templates": "~=1.4", "logkit": "*"},
        },
        "router": {
            "1.9": {},
            "2.0": {"logkit": ">=1.0"},
            "2.3": {"logkit": ">=1.0"},
            "2.10": {"logkit": ">=1.2"},
            "3.0": {"logkit": ">=2.0"},
        },
        "templates": {
            "1.3": {},
            "1.4.0": {"markup": ">=0.9"},
            "1.4.5": {"markup": ">=0.9"},
            "1.5.1": {"markup": ">=1.0"},
            "2.0": {"markup": ">=1.0"},
        },
        "markup": {"0.9": {}, "1.0": {}, "1.1": {}},
        "logkit": {"1.0": {}, "1.2": {}, "1.2.1": {}, "2.0": {}},
    }
