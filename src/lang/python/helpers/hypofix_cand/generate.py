"""Candidates for one file: the suspect units, every registered rule on each, the best of each
unit up to the budget.
"""

import ast

from .generator import Generator
from .imports import file_keys, foreign_facts, imported_files, parsed_files, test_facts
from .registry import on_function, on_statement
from .scopes import Module
from .text import Source
from .units import suspect_units


MAX_TOTAL = 3000


def generate(text, lines, span, hints, budget, root=None, file=None, tests=None):
    src = Source(text)
    tree = ast.parse(text)
    module = Module(src, tree)
    if root and file:
        module.foreign_attributes, module.foreign_functions, foreign, module.foreign_keys = foreign_facts(
            imported_files(tree, root, file)
        )
        trees = list(parsed_files(tests or [], root))
        module.test_keys = file_keys(trees)
        module.test_strings, module.test_calls = test_facts(trees)
        module.test_trees = trees
        # Exception classes imported from the repository are raised here under their imported names.
        module.exception_inits.update({name: params for name, params in foreign.items() if name in module.imports})
    gen = Generator(module, hints)
    out = []
    done_units = set()
    done_functions = set()
    for line, unit in suspect_units(module, lines, span):
        gen.suspect = line
        gen.found = []
        if id(unit) not in done_units:
            done_units.add(id(unit))
            gen.unit = unit
            on_statement(gen, unit)
        fn = unit if isinstance(unit, (ast.FunctionDef, ast.AsyncFunctionDef)) else module.enclosing_function(unit)
        if fn is not None and id(fn) not in done_functions:
            done_functions.add(id(fn))
            gen.unit = fn
            on_function(gen, fn)
        out.extend(gen.materialize(budget))
        if len(out) >= MAX_TOTAL:
            break
    return out[:MAX_TOTAL], gen.parses
