import pytest

from minimark import Environment


@pytest.fixture
def env():
    return Environment()


@pytest.fixture
def strict_env():
    return Environment(strict=True)


@pytest.fixture
def article():
    return (
        "# Release notes\n"
        "\n"
        "Version **2.0** is out. See the [changelog](https://example.org/changes?v=2&full=1).\n"
        "\n"
        "## Breaking changes\n"
        "\n"
        "- `load()` now returns a *dict*\n"
        "- the `--fast` flag is gone\n"
        "\n"
        "## Upgrading\n"
        "\n"
        "```python\n"
        "config = load(path, *args, **kwargs)\n"
        "```\n"
    )
