"""For candidate-families.test.ts: runs every rule of the candidate registry on every unit and
function of the request's sources (without materializing: which families are proposed is what
counts) and prints the families proposed and each `rule family` proposed by a rule that does not
declare it. `mislabel` names a rule whose declared families become a made-up one, so the check
can be seen to fail."""

import ast
import json
import sys

sys.dont_write_bytecode = True
request = json.load(sys.stdin)
sys.path.insert(0, request["helpers"])

from hypofix_cand import registry  # noqa: E402
from hypofix_cand.generator import Generator  # noqa: E402
from hypofix_cand.imports import parsed_files  # noqa: E402
from hypofix_cand.scopes import Module  # noqa: E402
from hypofix_cand.text import Source  # noqa: E402
from hypofix_cand.units import units_of  # noqa: E402

running = []  # (rule name, families it declares) of the rule running now
seen, wrong = set(), set()


def watched(rule):
    declared = ("no-such-family",) if rule.run.__name__ == request["mislabel"] else rule.families

    def run(gen, node):
        running.append((rule.run.__name__, declared))
        try:
            rule.run(gen, node)
        finally:
            running.pop()

    return rule._replace(run=run)


registry.EXPRESSION_RULES = tuple(map(watched, registry.EXPRESSION_RULES))
registry.STATEMENT_RULES = tuple(map(watched, registry.STATEMENT_RULES))
registry.FUNCTION_RULES = tuple(map(watched, registry.FUNCTION_RULES))
emit = Generator.emit


def checked(gen, family, *args, **kw):
    seen.add(family)
    name, declared = running[-1]
    if family not in declared:
        wrong.add(f"{name} {family}")
    return emit(gen, family, *args, **kw)


Generator.emit = checked
for text in request["sources"]:
    module = Module(Source(text), ast.parse(text))
    # The failing tests' files, for the families that read their literals (missing-member).
    if request.get("root"):
        module.test_trees = list(parsed_files(request.get("tests") or [], request["root"]))
    gen = Generator(module, {})
    for _, unit in units_of(module):
        gen.unit = unit
        registry.on_statement(gen, unit)
        if isinstance(unit, (ast.FunctionDef, ast.AsyncFunctionDef)):
            registry.on_function(gen, unit)
print(json.dumps({"seen": sorted(seen), "wrong": sorted(wrong)}))
