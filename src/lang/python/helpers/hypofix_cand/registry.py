"""The one list of candidate families: which generator runs where, and the families it proposes.

A rule runs on each expression of a suspect statement (`EXPRESSION`, on nodes of its AST types),
on the statement itself (`STATEMENT`, when it is of its types, or any with None), or once on the
function holding it (`FUNCTION`). Rules run in the order listed, expressions first, and that
order breaks ties between candidates of equal prior: it is part of the output. FAMILIES, the
names TypeScript accepts, is derived from the rules; scripts/candidate-families.ts writes it to
src/lang/python/candidate-families.json (a test checks that copy is current).
"""

import ast
from collections import namedtuple

from .families import accumulators, bounds, branches, calls, conditions, durations, edges, exceptions, functions, junctions, literals, members, names, occurrences, operators, patterns, repeated, statements

EXPRESSION, STATEMENT, FUNCTION = "expression", "statement", "function"

Rule = namedtuple("Rule", "at types families run")

RULES = (
    Rule(EXPRESSION, ast.Compare, ("changed-operator",), operators.changed_operator_compare),
    Rule(EXPRESSION, ast.BinOp, ("changed-operator",), operators.changed_operator_binop),
    Rule(EXPRESSION, ast.BinOp, ("swapped-operands",), operators.swapped_operands),
    Rule(EXPRESSION, ast.BinOp, ("off-by-one",), bounds.off_by_one_drop),
    Rule(EXPRESSION, ast.BoolOp, ("changed-operator",), operators.changed_operator_boolop),
    Rule(EXPRESSION, ast.BoolOp, ("over-specific-condition", "over-broad-condition"), conditions.condition_parts),
    Rule(EXPRESSION, ast.Constant, ("changed-literal", "changed-key"), literals.changed_literal),
    Rule(EXPRESSION, ast.UnaryOp, ("changed-operator", "changed-literal", "changed-key"), operators.changed_unary),
    Rule(EXPRESSION, ast.Name, ("changed-identifier",), names.changed_identifier),
    Rule(EXPRESSION, ast.Attribute, ("changed-attribute", "changed-identifier"), names.changed_attribute),
    Rule(EXPRESSION, ast.Subscript, ("off-by-one",), bounds.off_by_one_subscript),
    Rule(EXPRESSION, ast.Call, ("off-by-one",), bounds.range_call),
    Rule(EXPRESSION, ast.Call, ("off-by-one",), bounds.compared_length),
    Rule(EXPRESSION, ast.Call, ("wrong-function",), calls.wrong_function),
    Rule(EXPRESSION, ast.Call, ("missing-argument",), calls.missing_argument),
    Rule(EXPRESSION, ast.Call, ("extra-argument",), calls.extra_argument),
    Rule(EXPRESSION, ast.Call, ("swapped-arguments",), calls.swapped_arguments),
    Rule(EXPRESSION, ast.Call, ("changed-pattern",), patterns.changed_pattern),
    Rule(EXPRESSION, ast.Name, ("missing-member",), members.missing_member),
    Rule(EXPRESSION, (ast.Name, ast.Attribute), ("wrapped-expression",), occurrences.wrapped_expression),
    Rule(EXPRESSION, (ast.Name, ast.Attribute), ("extended-expression",), durations.bound_in_unit),
    Rule(STATEMENT, None, ("negated-condition",), conditions.negated_condition),
    Rule(STATEMENT, None, ("over-broad-condition", "missing-condition"), conditions.truthiness),
    Rule(STATEMENT, None, ("extended-expression",), statements.extended_expression),
    Rule(STATEMENT, ast.AugAssign, ("changed-operator",), operators.changed_operator_augassign),
    Rule(STATEMENT, ast.Assign, ("changed-operator",), operators.overwrite_instead_of_accumulate),
    Rule(STATEMENT, ast.ExceptHandler, ("wrong-exception",), exceptions.wrong_exception_handler),
    Rule(STATEMENT, ast.Raise, ("wrong-exception",), exceptions.wrong_exception_raised),
    Rule(STATEMENT, None, ("discarded-result",), statements.discarded_result),
    Rule(STATEMENT, None, ("missing-guard",), statements.missing_guard),
    Rule(STATEMENT, None, ("missing-copy",), statements.missing_copy),
    Rule(STATEMENT, None, ("missing-condition",), conditions.missing_condition),
    Rule(STATEMENT, None, ("missing-condition", "missing-alternative"), junctions.added_junction),
    Rule(STATEMENT, None, ("extended-expression",), statements.missing_clamp),
    Rule(STATEMENT, None, ("missing-call",), statements.missing_call),
    Rule(STATEMENT, None, ("moved-statement",), branches.moved_statement),
    Rule(STATEMENT, None, ("changed-identifier", "changed-attribute"), occurrences.every_occurrence),
    Rule(STATEMENT, None, ("repeated-edit",), repeated.repeated_edit),
    Rule(FUNCTION, None, ("mutable-default",), functions.mutable_default),
    Rule(FUNCTION, None, ("missing-return",), functions.missing_return),
    Rule(FUNCTION, None, ("missing-reset",), functions.missing_reset),
    Rule(FUNCTION, None, ("missing-append",), functions.missing_append),
    Rule(FUNCTION, None, ("missing-init",), functions.missing_init),
    Rule(FUNCTION, None, ("missing-edge-case",), edges.missing_edge_case),
    Rule(FUNCTION, None, ("missing-update",), accumulators.missing_update),
    Rule(FUNCTION, None, ("missing-reset",), accumulators.copy_reset),
)

EXPRESSION_RULES = tuple(r for r in RULES if r.at == EXPRESSION)
STATEMENT_RULES = tuple(r for r in RULES if r.at == STATEMENT)
FUNCTION_RULES = tuple(r for r in RULES if r.at == FUNCTION)

# {family: the generators that propose it}, in the order the families first appear in RULES.
FAMILIES = {}
for _rule in RULES:
    for _family in _rule.families:
        FAMILIES.setdefault(_family, []).append(_rule.run)


def applies(rule, node):
    return rule.types is None or isinstance(node, rule.types)


def on_statement(gen, unit):
    """Every expression and statement rule on one suspect statement."""
    for node in gen.exprs(unit):
        for rule in EXPRESSION_RULES:
            if applies(rule, node):
                rule.run(gen, node)
    for rule in STATEMENT_RULES:
        if applies(rule, unit):
            rule.run(gen, unit)


def on_function(gen, fn):
    for rule in FUNCTION_RULES:
        rule.run(gen, fn)
