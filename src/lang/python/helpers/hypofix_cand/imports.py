"""Facts from the repository files a module imports from and the failing tests' files: their
classes' attributes, functions' arities, exception classes and string keys.
"""

import ast
import os

from .scopes import Module, exception_inits, n_params
from .text import Source


MAX_IMPORTED_FILES = 12


MAX_IMPORTED_BYTES = 512 * 1024


def imported_files(tree, root, file):
    """Repository files this module imports names from (`from .models import X`, `from pkg.mod import Y`)."""
    here = os.path.dirname(os.path.join(root, file))
    bases = [root, os.path.join(root, "src")]
    top = here
    while os.path.isfile(os.path.join(top, "__init__.py")) and os.path.dirname(top) != top:
        top = os.path.dirname(top)
    bases.append(top)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        parts = (node.module or "").split(".") if node.module else []
        if node.level:
            start = here
            for _ in range(node.level - 1):
                start = os.path.dirname(start)
            options = [os.path.join(start, *parts)]
        else:
            options = [os.path.join(b, *parts) for b in bases]
        for base in options:
            for path in (base + ".py", os.path.join(base, "__init__.py")):
                real = os.path.realpath(path)
                if real.startswith(os.path.realpath(root) + os.sep) and os.path.isfile(real) and real not in found:
                    found.append(real)
    return found[:MAX_IMPORTED_FILES]


def repository_trees(paths, root):
    """The syntax trees of these repository files (relative to root); unreadable ones are skipped."""
    real_root = os.path.realpath(root) + os.sep
    for rel in paths[:MAX_IMPORTED_FILES]:
        path = os.path.realpath(os.path.join(root, rel))
        if not path.startswith(real_root):
            continue
        try:
            if os.path.getsize(path) > MAX_IMPORTED_BYTES:
                continue
            with open(path, encoding="utf-8-sig") as fh:
                tree = ast.parse(fh.read())
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
            continue
        yield tree


def file_keys(paths, root):
    """String keys (Module._key_nodes) used in these repository files; unreadable ones are skipped."""
    keys = set()
    for tree in repository_trees(paths, root):
        for node in ast.walk(tree):
            keys.update(k.value for k in Module._key_nodes(node))
    return keys


def foreign_facts(paths):
    """{attribute: kind} of the classes, {name: parameter count} of the functions, the exception
    classes' __init__ parameters (exception_inits) and the string keys of other modules."""
    out = []
    functions = {}
    exceptions = {}
    keys = set()
    for path in paths:
        try:
            if os.path.getsize(path) > MAX_IMPORTED_BYTES:
                continue
            with open(path, encoding="utf-8-sig") as fh:
                text = fh.read()
            other = Module(Source(text), ast.parse(text))
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
            continue
        out.extend(dict(attrs) for attrs in other.class_attributes.values() if attrs)
        for name, fn in other.functions.items():
            functions.setdefault(name, n_params(fn))
        for name, params in exception_inits(other).items():
            exceptions.setdefault(name, params)
        keys.update(other.keys)
    return out, functions, exceptions, keys
