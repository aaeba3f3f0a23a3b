"""pytest as the repository configures it, minus what breaks Hypofix's instruments.

Kept: markers, testpaths, pythonpath, filterwarnings, other ini options and the
installed plugins. Set aside, and listed in SET_ASIDE for the report:
- pytest-xdist and pytest-forked (tests in other processes: coverage, breakpoints
  and the deadline see nothing), pytest-cov (a second tracer), pytest-timeout (its
  limits fire inside slowed-down experiments): blocked as soon as this plugin is
  registered (before installed plugins load), and their options removed from addopts / PYTEST_ADDOPTS so a missing plugin is no usage error;
- options that stop the suite early or wait for a person (-x, --maxfail, --pdb,
  --trace) or need the cache plugin Hypofix turns off (--lf, --ff, --sw, ...).
Markers and ini keys of the blocked plugins are registered so --strict-markers and
--strict-config still pass. Also: `pythonpath` for pytest < 7 (which lacks it), and
a src layout's src/ goes first on sys.path when the configuration sets no pythonpath.

Use: pytest.main(args, plugins=[this module]), `-p hypofix_pytest_options`, or
`pytest_plugins = ["hypofix_pytest_options"]` in another plugin.
"""

import os
import sys

from pluggy import HookimplMarker

hookimpl = HookimplMarker("pytest")

BLOCKED = ("xdist", "xdist.looponfail", "cov", "timeout", "forked")

# option -> True when it takes a value, None when the value is optional (argparse nargs="?").
_OPTIONS = {
    # pytest-xdist, pytest-forked
    "-n": True, "--numprocesses": True, "--maxprocesses": True, "--dist": True, "--tx": True,
    "--max-worker-restart": True, "--max_worker_restart": True, "--rsyncdir": True, "--rsyncignore": True,
    "-d": False, "--distload": False, "-f": False, "--looponfail": False, "--boxed": False, "--forked": False,
    # pytest-cov
    "--cov": None, "--cov-report": True, "--cov-config": True, "--cov-fail-under": True, "--cov-context": True,
    "--cov-precision": True, "--no-cov": False, "--no-cov-on-fail": False, "--cov-append": False,
    "--cov-branch": False, "--cov-reset": False,
    # pytest-timeout
    "--timeout": True, "--timeout-method": True, "--timeout_method": True, "--session-timeout": True,
    "--timeout-func-only": False, "--timeout_func_only": False, "--timeout-disable-debugger-detection": False,
    # stop early or wait for a person
    "-x": False, "--exitfirst": False, "--maxfail": True, "--pdb": False, "--pdbcls": True, "--trace": False,
    # need the cache plugin
    "--lf": False, "--last-failed": False, "--ff": False, "--failed-first": False, "--nf": False,
    "--new-first": False, "--sw": False, "--stepwise": False, "--sw-skip": False, "--stepwise-skip": False,
    "--cache-show": None, "--cache-clear": False, "--lfnf": True, "--last-failed-no-failures": True,
    # renames JUnit test cases, which Hypofix maps back to node ids
    "--junit-prefix": True, "--junitprefix": True,
}
_PLUGIN_NAMES = {f"{prefix}{name}" for name in BLOCKED for prefix in ("", "pytest_")} | {"xdist.plugin"}
_INI_KEYS = ("timeout", "timeout_method", "timeout_func_only", "session_timeout", "rsyncdirs", "rsyncignore", "looponfailroots")
_MARKERS = ("timeout(seconds): pytest-timeout's limit, set aside by Hypofix", "xdist_group(name): pytest-xdist, set aside by Hypofix")

SET_ASIDE = []


def _pytest_major():
    import pytest

    return int(pytest.__version__.split(".")[0])


def _split(token):
    """('-n', '4') for '-n4' / '--numprocesses=4', (token, None) otherwise."""
    if token.startswith("--"):
        name, eq, value = token.partition("=")
        return name, (value if eq else None)
    if len(token) > 2 and token[:2] in _OPTIONS and _OPTIONS[token[:2]] is True:
        return token[:2], token[2:].lstrip("=")
    return token, None


def strip_options(args):
    """The args without the options set aside, and the set-aside ones as they were written."""
    kept, dropped = [], []
    i = 0
    while i < len(args):
        token = args[i]
        if token == "-p" and i + 1 < len(args) and args[i + 1] in _PLUGIN_NAMES:
            dropped.append(f"-p {args[i + 1]}")
            i += 2
            continue
        if token.startswith("-p") and token[2:] in _PLUGIN_NAMES:
            dropped.append(token)
            i += 1
            continue
        name, inline = _split(token)
        takes = _OPTIONS.get(name, "keep")
        if takes == "keep":
            kept.append(token)
            i += 1
            continue
        if inline is None and (takes is True or (takes is None and i + 1 < len(args) and not args[i + 1].startswith("-"))):
            if i + 1 < len(args):
                dropped.append(f"{token} {args[i + 1]}")
                i += 2
                continue
        dropped.append(token)
        i += 1
    return kept, dropped


def pytest_addhooks(pluginmanager):
    # Called when this plugin is registered, which is before pytest loads installed plugins.
    for name in BLOCKED:
        pluginmanager.set_blocked(name)
        pluginmanager.set_blocked(f"pytest_{name}")
    # An explicit `-p xdist` in addopts would unblock (and fail when it is not installed).
    consider = pluginmanager.consider_pluginarg

    def consider_pluginarg(arg):
        if arg in _PLUGIN_NAMES:
            SET_ASIDE.append(f"-p {arg}")
        else:
            consider(arg)

    pluginmanager.consider_pluginarg = consider_pluginarg


def pytest_addoption(parser):
    for key in _INI_KEYS:
        parser.addini(key, "set aside by Hypofix")
    if _pytest_major() < 7:
        parser.addini("pythonpath", "paths put first on sys.path (pytest >= 7 does this itself)", type="pathlist")


@hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    # args already holds addopts and PYTEST_ADDOPTS; pytest parses this same list next.
    args[:], dropped = strip_options(args)
    SET_ASIDE.extend(dropped)
    for key in _INI_KEYS:
        if key in early_config.inicfg:
            SET_ASIDE.append(f"{key} = {early_config.inicfg[key]} (ini)")
    configured = list(early_config.getini("pythonpath"))
    if _pytest_major() < 7:
        for path in reversed(configured):
            sys.path.insert(0, str(path))
    src = os.path.join(os.getcwd(), "src")
    if not configured and _holds_python(src):
        sys.path.insert(0, src)


def pytest_configure(config):
    for marker in _MARKERS:
        config.addinivalue_line("markers", marker)


def _holds_python(folder):
    try:
        entries = os.listdir(folder)
    except OSError:
        return False
    return any(
        name.endswith(".py") or os.path.isfile(os.path.join(folder, name, "__init__.py")) for name in entries
    )
