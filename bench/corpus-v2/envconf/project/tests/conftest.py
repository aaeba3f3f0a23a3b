import pytest

from envconf import Field, Schema


@pytest.fixture
def schema():
    return Schema.of(
        Field("HOST", default="127.0.0.1"),
        Field("PORT", "int", default=8000),
        Field("DEBUG", "bool", default=False),
        Field("DATABASE_URL", secret=True),
        Field("LOG_LEVEL", default="info", choices=["debug", "info", "warning", "error"]),
        Field("ALLOWED_HOSTS", "list", default=[]),
        Field("REQUEST_TIMEOUT", "duration", default=None),
        Field("MAX_UPLOAD", "size", default=10 * 1000**2),
    )


@pytest.fixture
def write(tmp_path):
    def write(name, text):
        path = tmp_path / name
        path.write_text(text)
        return path

    return write
