"""The repository's own files, and the functions in them, as the runtime's instruments see them.

Used by hypofix_runtime.py, which sets ROOT from the request before any mode runs. A file is the
repository's when it is under ROOT, outside our helpers and outside skipped folders (virtualenvs,
build output, caches); test files follow the rules shared with src/lang/python/test-files.ts, plus
the files pytest collected tests from in this process. Functions are read with `ast`, never imported.
"""

import ast
import json
import os
import sys
import types

from hypofix_compat import code_lines, read_source

# The repository root: paths are reported relative to it (hypofix_runtime.py sets it from the request).
# Tests run from the working directory (os.getcwd()), which is the root or, in a monorepo, a folder below it.
ROOT = os.getcwd()
HELPERS = os.path.dirname(os.path.abspath(__file__))
SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", "dist-packages"}
# Usually a virtualenv or build output, but sometimes a real package: see is_source_dir.
MAYBE_SKIP_DIRS = {"venv", "env", "build", "dist"}


def rel(path):
    path = os.path.abspath(path)
    return os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path


_SOURCE_DIRS = {}


def is_source_dir(path):
    """A folder named build/dist/env/venv is source when the code imports it: a regular package
    (its __init__.py), or a module loaded from inside it under a name that goes through it.
    A virtualenv (pyvenv.cfg) never is. Decided once per folder, when first asked."""
    known = _SOURCE_DIRS.get(path)
    if known is not None:
        return known
    name = os.path.basename(path)
    if os.path.exists(os.path.join(path, "pyvenv.cfg")):
        found = False
    elif os.path.isfile(os.path.join(path, "__init__.py")):
        found = True
    else:
        found = any(
            name in module_name.split(".")[:-1]
            and os.path.abspath(getattr(module, "__file__", None) or "").startswith(path + os.sep)
            for module_name, module in list(sys.modules.items())
        )
        if not found:
            return False  # not imported (yet): ask again later
    _SOURCE_DIRS[path] = found
    return found


def skipped_dir(parent, name):
    if name in SKIP_DIRS or name.startswith("."):
        return True
    return name in MAYBE_SKIP_DIRS and not is_source_dir(os.path.join(parent, name))


def is_repo_file(path):
    if not os.path.isabs(path):
        return False  # "<frozen os>", "<string>", attrs-generated code
    path = os.path.abspath(path)
    if not path.startswith(ROOT + os.sep) or path.startswith(HELPERS + os.sep):
        return False
    parent = ROOT
    for part in path[len(ROOT) + 1 :].split(os.sep)[:-1]:
        if skipped_dir(parent, part):
            return False
        parent = os.path.join(parent, part)
    return True


with open(os.path.join(HELPERS, "test_files.json"), encoding="utf-8") as _rules_file:
    TEST_FILES = json.load(_rules_file)  # the same rules as src/lang/python/test-files.ts


# Files pytest collected test functions from in this process: test code whatever its name
# (python_files = check_*.py, a test module outside any test folder).
COLLECTED_TEST_FILES = set()


def is_test_file(relpath):
    parts = relpath.split(os.sep)
    name = parts[-1]
    return (
        relpath in COLLECTED_TEST_FILES
        or any(p in TEST_FILES["dirs"] for p in parts[:-1])
        or any(name.startswith(p) for p in TEST_FILES["prefixes"])
        or any(name.endswith(s) for s in TEST_FILES["suffixes"])
        or name in TEST_FILES["names"]
    )


def function_nodes(tree):
    """(qualname, node) of every function: `Class.method`, nested `outer.inner`."""
    found = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((prefix + child.name, child))
                visit(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def functions_in(relpath):
    try:
        tree = ast.parse(read_source(os.path.join(ROOT, relpath)))
    except (SyntaxError, ValueError, OSError):
        return []
    return [
        {"file": relpath, "qualname": name, "startLine": node.lineno, "endLine": node.end_lineno}
        for name, node in function_nodes(tree)
    ]


def python_files(include_tests):
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames if not skipped_dir(dirpath, d))
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if name.endswith(".py") and is_repo_file(path) and (include_tests or not is_test_file(rel(path))):
                yield rel(path)


def resolve_file(name):
    """A repository file by relative path, or by a unique path suffix (models often drop the package)."""
    path = os.path.normpath(os.path.join(ROOT, name))
    if os.path.isfile(path) and is_repo_file(path):
        return rel(path), None
    suffix = os.sep + os.path.normpath(name).lstrip(os.sep)
    matches = [f for f in python_files(True) if (os.sep + f).endswith(suffix)]
    if len(matches) == 1:
        return matches[0], None
    if matches:
        return None, f"File {name} is ambiguous in the repository: {', '.join(matches[:10])}."
    return None, f"File {name} does not exist in the repository."


def executable_lines(relpath):
    code = compile(read_source(os.path.join(ROOT, relpath)), relpath, "exec")
    lines = set()
    stack = [code]
    while stack:
        co = stack.pop()
        lines.update(code_lines(co))
        stack.extend(c for c in co.co_consts if isinstance(c, types.CodeType))
    return lines


def function_header(relpath, line):
    """(line, name) for a line in a function's header (decorators, `def`): the function's first line, as
    bdb matches it, and its name. Other lines: (line, None)."""
    try:
        tree = ast.parse(read_source(os.path.join(ROOT, relpath)))
    except (SyntaxError, ValueError):
        return line, None
    for _, node in function_nodes(tree):
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        if first <= line < node.body[0].lineno:
            return first, node.name
    return line, None


def find_function(tree, qualname):
    return next((node for name, node in function_nodes(tree) if name == qualname), None)
