#!/usr/bin/env python3
"""Generates the bug corpus from the correct programs in bench/corpus/originals.

Each mutant changes one line (or two, for multi-hunk bugs) of a program's source,
found through the AST and applied as a text splice so the rest of the file keeps
its exact form. A mutant is kept only when the program's visible suite, run under
a timeout, has between 1 and --max-failing failing tests and no collection error.
Deterministic for a given --seed and set of originals.

Usage: /usr/bin/python3 bench/corpus-tools/generate.py [--seed 7] [--per-program 3]
"""

import argparse
import ast
import json
import os
import random
import resource
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(REPO, 'bench', 'corpus')
ORIGINALS = os.path.join(CORPUS, 'originals')
HELDOUT = os.path.join(CORPUS, 'heldout')
BUGS = os.path.join(CORPUS, 'bugs')
PYTHON = os.environ.get('HYPOFIX_PYTHON', '/usr/bin/python3')

CATEGORIES = {
    'roman': 'parsing', 'rle': 'string', 'binsearch': 'list', 'dates': 'dates',
    'intervals': 'list', 'wordfreq': 'string', 'caesar': 'string', 'matrix': 'math',
    'primes': 'math', 'rpn': 'parsing', 'brackets': 'parsing', 'linkedlist': 'data-structure',
    'minheap': 'data-structure', 'lru': 'data-structure', 'combinatorics': 'recursion',
    'palindrome': 'string', 'stats': 'math', 'csvline': 'parsing', 'duration': 'dates',
    'fraction': 'math', 'wrap': 'string', 'islands': 'recursion', 'casing': 'string',
    'inventory': 'package', 'textstats': 'package', 'geometry': 'package',
}

SINGLE_MUTATORS = ['compare', 'arith', 'off-by-one', 'wrong-var', 'negate', 'delete-stmt', 'literal']
COMPARE_SWAP = {'<': '<=', '<=': '<', '>': '>=', '>=': '>', '==': '!=', '!=': '=='}
ARITH_SWAP = {'+': '-', '-': '+', '*': '+', '//': '/', '/': '//', '%': '//'}
LITERAL_CHAR_SWAP = {' ': '', ',': ';', ':': ';', '.': ',', '-': '_', '_': '-', '=': ':'}
# A hanging mutant is stopped by CPU time, which the load of a shared machine does not
# stretch; the wall-clock limit is only a backstop.
CPU_LIMIT_S = 4
WALL_LIMIT_S = 120
SUMMARY_LINE = re.compile(r'^(FAILED|ERROR) (\S+)')


class Site:
    """One candidate single-line mutation: replace line[start:end] (or delete the line)."""

    def __init__(self, mutator, path, line, start, end, new, function, description):
        self.mutator = mutator
        self.path = path
        self.line = line
        self.start = start
        self.end = end
        self.new = new
        self.function = function
        self.description = description

    def key(self):
        return (self.path, self.line, self.start, self.end, self.new)


def functions_by_line(tree):
    """(qualname, first line, last line) of every function, innermost last."""
    spans = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                spans.append((name, child.lineno, child.end_lineno, child))
                visit(child, name + '.')
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + '.')
            else:
                visit(child, prefix)

    visit(tree, '')
    return spans


def enclosing(spans, line):
    best = None
    for name, first, last, node in spans:
        if first <= line <= last and (best is None or first >= best[1]):
            best = (name, first, last, node)
    return best


def op_position(lines, left, right, candidates):
    """Column span of the operator token between two operands on one line."""
    if left.end_lineno != right.lineno:
        return None
    text = lines[left.end_lineno - 1]
    between = text[left.end_col_offset:right.col_offset]
    match = re.search(r'(<=|>=|==|!=|//|<|>|\+|-|\*|/|%)', between)
    if not match or match.group(1) not in candidates:
        return None
    start = left.end_col_offset + match.start(1)
    return start, start + len(match.group(1)), match.group(1)


def docstring_nodes(tree):
    nodes = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                nodes.add(id(body[0].value))
    return nodes


def mutate_string(value):
    if value == '':
        return ' '
    if len(value) == 1:
        if value in LITERAL_CHAR_SWAP:
            return LITERAL_CHAR_SWAP[value]
        return value.swapcase() if value.isalpha() else ''
    return value[:-1]


def assigned_before(function_node, line):
    """Parameters and names assigned in the function above `line`."""
    names = [a.arg for a in function_node.args.args + function_node.args.kwonlyargs]
    for node in ast.walk(function_node):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.lineno < line:
            names.append(node.id)
    return sorted(set(names) - {'self', 'cls'})


def find_sites(path, source):
    tree = ast.parse(source)
    lines = source.split('\n')
    spans = functions_by_line(tree)
    docstrings = docstring_nodes(tree)
    fstring_parts = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for part in ast.walk(node):
                fstring_parts.add(id(part))
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    last_code_line = max(i for i, text in enumerate(lines, 1) if text.strip())
    sites = []

    def add(mutator, node_line, start, end, new, description):
        owner = enclosing(spans, node_line)
        if owner is None or node_line == owner[1]:
            return  # module level or the def line itself (defaults): not a function body bug
        sites.append(Site(mutator, path, node_line, start, end, new, owner[0], description))

    for node in ast.walk(tree):
        single_line = getattr(node, 'lineno', None) is not None and node.lineno == node.end_lineno
        if isinstance(node, ast.Compare):
            operands = [node.left] + node.comparators
            for left, right in zip(operands, operands[1:]):
                found = op_position(lines, left, right, COMPARE_SWAP)
                if found:
                    start, end, op = found
                    add('compare', left.end_lineno, start, end, COMPARE_SWAP[op],
                        '`%s` -> `%s`' % (op, COMPARE_SWAP[op]))
        elif isinstance(node, ast.BinOp):
            found = op_position(lines, node.left, node.right, ARITH_SWAP)
            formatting = isinstance(node.op, ast.Mod) and isinstance(node.left, (ast.Constant, ast.JoinedStr))
            if found and not formatting:
                start, end, op = found
                add('arith', node.left.end_lineno, start, end, ARITH_SWAP[op],
                    '`%s` -> `%s`' % (op, ARITH_SWAP[op]))
        elif isinstance(node, ast.AugAssign) and single_line:
            text = lines[node.lineno - 1]
            between = text[node.target.end_col_offset:node.value.col_offset]
            match = re.search(r'(//|\+|-|\*|/)=', between)
            if match and match.group(1) in ARITH_SWAP:
                start = node.target.end_col_offset + match.start(1)
                new = ARITH_SWAP[match.group(1)]
                add('arith', node.lineno, start, start + len(match.group(1)), new,
                    '`%s=` -> `%s=`' % (match.group(1), new))
        if isinstance(node, ast.Constant) and single_line and id(node) not in fstring_parts:
            segment = lines[node.lineno - 1][node.col_offset:node.end_col_offset]
            if isinstance(node.value, bool):
                new = 'False' if node.value else 'True'
                add('literal', node.lineno, node.col_offset, node.end_col_offset, new,
                    '`%s` -> `%s`' % (segment, new))
            elif isinstance(node.value, int) and segment.isdigit():
                for delta in (1, -1):
                    value = node.value + delta
                    if value >= 0:
                        add('off-by-one', node.lineno, node.col_offset, node.end_col_offset, str(value),
                            '`%s` -> `%d`' % (segment, value))
            elif (isinstance(node.value, str) and id(node) not in docstrings
                  and segment[:1] in ('"', "'") and segment[:3] not in ('"""', "'''")):
                new = repr(mutate_string(node.value))
                add('literal', node.lineno, node.col_offset, node.end_col_offset, new,
                    '`%s` -> `%s`' % (segment, new))
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            owner = enclosing(spans, node.lineno)
            parent = parents.get(id(node))
            if owner and node.id not in ('self', 'cls') and not (isinstance(parent, ast.Call) and parent.func is node):
                for other in assigned_before(owner[3], node.lineno):
                    if other != node.id and node.id in assigned_before(owner[3], node.lineno + 1):
                        add('wrong-var', node.lineno, node.col_offset, node.end_col_offset, other,
                            '`%s` -> `%s`' % (node.id, other))
        if isinstance(node, (ast.If, ast.While, ast.IfExp)) and node.test.lineno == node.test.end_lineno:
            test = node.test
            segment = lines[test.lineno - 1][test.col_offset:test.end_col_offset]
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                inner = lines[test.lineno - 1][test.operand.col_offset:test.operand.end_col_offset]
                new = inner[1:-1] if inner.startswith('(') and inner.endswith(')') else inner
            elif isinstance(test, (ast.Name, ast.Call, ast.Attribute, ast.Compare, ast.Subscript)):
                new = 'not ' + segment
            else:
                new = 'not (' + segment + ')'
            add('negate', test.lineno, test.col_offset, test.end_col_offset, new, 'condition negated')
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.Expr, ast.Break, ast.Continue)) and single_line:
            parent = parents.get(id(node))
            body = None
            for field in ('body', 'orelse', 'finalbody'):
                block = getattr(parent, field, None)
                if isinstance(block, list) and node in block:
                    body = block
            # A deleted last line would need an ADD past the end of the file.
            if (body is not None and len(body) >= 2 and id(getattr(node, 'value', None)) not in docstrings
                    and node.lineno < last_code_line):
                add('delete-stmt', node.lineno, None, None, None,
                    'deleted `%s`' % lines[node.lineno - 1].strip())
    return sites


def apply_sites(source, sites):
    """The mutated source; line numbers stay valid because deletions come last."""
    lines = source.split('\n')
    for site in sorted(sites, key=lambda s: s.line, reverse=True):
        if site.new is None:
            del lines[site.line - 1]
        else:
            text = lines[site.line - 1]
            lines[site.line - 1] = text[:site.start] + site.new + text[site.end:]
    return '\n'.join(lines)


def replace_span(original, buggy):
    """Smallest whitespace-delimited span of `buggy` that is unique on the line and
    turns it into `original`: (buggy text, original text)."""
    prefix = 0
    while prefix < min(len(original), len(buggy)) and original[prefix] == buggy[prefix]:
        prefix += 1
    suffix = 0
    while (suffix < min(len(original), len(buggy)) - prefix
           and original[-1 - suffix] == buggy[-1 - suffix]):
        suffix += 1
    indent = len(buggy) - len(buggy.lstrip())
    left, right = prefix, suffix
    while True:
        while left > indent and buggy[left - 1] != ' ':
            left -= 1
        while right > 0 and buggy[len(buggy) - right] != ' ':
            right -= 1
        left = max(left, indent)
        old = buggy[left:len(buggy) - right]
        new = original[left:len(original) - right]
        if old and buggy.count(old) == 1:
            return old, new
        if left <= indent and right == 0:
            raise ValueError('no unique span for %r' % buggy)
        left = max(indent, left - 1)
        right = max(0, right - 1)


def dsl_text(text):
    return json.dumps(text, ensure_ascii=False)


def hunks_for(original_source, buggy_source, sites):
    """Manifest hunks (in buggy-file line numbers) for the given sites."""
    original_lines = original_source.split('\n')
    buggy_lines = buggy_source.split('\n')
    hunks = []
    for site in sorted(sites, key=lambda s: s.line):
        if site.new is None:
            hunks.append({'mutator': site.mutator, 'file': site.path, 'function': site.function,
                          'line': site.line, 'op': 'add', 'buggy': '',
                          'original': original_lines[site.line - 1]})
        else:
            old, new = replace_span(original_lines[site.line - 1], buggy_lines[site.line - 1])
            hunks.append({'mutator': site.mutator, 'file': site.path, 'function': site.function,
                          'line': site.line, 'op': 'replace', 'buggy': old, 'original': new})
    return hunks


def inverse_of(hunks):
    parts = []
    for hunk in hunks:
        if hunk['op'] == 'add':
            parts.append('ADD(%d, %s)' % (hunk['line'], dsl_text(hunk['original'])))
        else:
            parts.append('REPLACE(%d, %s, %s)' % (hunk['line'], dsl_text(hunk['buggy']),
                                                   dsl_text(hunk['original'])))
    return ' AND '.join(parts)


def apply_inverse(buggy_source, hunks):
    lines = buggy_source.split('\n')
    for hunk in sorted(hunks, key=lambda h: h['line'], reverse=True):
        if hunk['op'] == 'add':
            lines.insert(hunk['line'] - 1, hunk['original'])
        else:
            text = lines[hunk['line'] - 1]
            assert text.count(hunk['buggy']) == 1
            lines[hunk['line'] - 1] = text.replace(hunk['buggy'], hunk['original'])
    return '\n'.join(lines)


def limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT_S, CPU_LIMIT_S + 1))


def run_pytest(project, extra=()):
    """(failing node ids, collection errors, timed out) for the project's suite."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE='1', COLUMNS='300')
    command = [PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--tb=no', '-rfE'] + list(extra)
    try:
        done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True,
                              timeout=WALL_LIMIT_S, preexec_fn=limit_cpu)
    except subprocess.TimeoutExpired:
        return [], [], True
    if done.returncode < 0:
        return [], [], True
    failing, errors = [], []
    for line in done.stdout.splitlines():
        match = SUMMARY_LINE.match(line)
        if match:
            (failing if '::' in match.group(2) else errors).append(match.group(2))
    if done.returncode not in (0, 1):
        errors.append('pytest exit %d' % done.returncode)
    return sorted(set(failing)), errors, False


def program_files(program):
    root = os.path.join(ORIGINALS, program)
    files = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ('tests', '__pycache__'))
        for name in sorted(names):
            if name.endswith('.py') and name != 'conftest.py':
                files.append(os.path.relpath(os.path.join(folder, name), root))
    return files


def count_tests(path):
    tree = ast.parse(open(path).read())
    return sum(1 for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith('test_'))


def visible_test_files(program):
    folder = os.path.join(ORIGINALS, program, 'tests')
    return [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.startswith('test_')]


def heldout_file(program):
    folder = os.path.join(HELDOUT, program)
    names = [n for n in sorted(os.listdir(folder)) if n.startswith('test_')]
    if len(names) != 1:
        sys.exit('heldout/%s must hold exactly one test file' % program)
    return os.path.join(folder, names[0])


def check_original(program):
    with tempfile.TemporaryDirectory() as scratch:
        project = os.path.join(scratch, program)
        shutil.copytree(os.path.join(ORIGINALS, program), project)
        failing, errors, timed_out = run_pytest(project)
        shutil.copy(heldout_file(program), os.path.join(project, 'tests'))
        h_failing, h_errors, h_timed_out = run_pytest(project)
    if failing or errors or timed_out or h_failing or h_errors or h_timed_out:
        sys.exit('original %s does not pass: %s%s' % (program, failing + errors + h_failing + h_errors,
                                                      ' (timed out)' if timed_out or h_timed_out else ''))


def evaluate(program, sources, sites, max_failing):
    """Runs the visible suite on the program with `sites` applied; failing ids or None."""
    by_file = {}
    for site in sites:
        by_file.setdefault(site.path, []).append(site)
    with tempfile.TemporaryDirectory() as scratch:
        project = os.path.join(scratch, program)
        shutil.copytree(os.path.join(ORIGINALS, program), project)
        for path, file_sites in by_file.items():
            with open(os.path.join(project, path), 'w') as handle:
                handle.write(apply_sites(sources[path], file_sites))
        failing, errors, timed_out = run_pytest(project)
    if timed_out or errors or not (1 <= len(failing) <= max_failing):
        return None
    return failing


def write_bug(bug_id, program, sources, sites, failing, multi_file, quick):
    path = sites[0].path
    original = sources[path]
    buggy = apply_sites(original, sites)
    hunks = hunks_for(original, buggy, sites)
    if apply_inverse(buggy, hunks) != original:
        raise AssertionError('inverse does not restore %s' % bug_id)
    target = os.path.join(BUGS, bug_id)
    shutil.copytree(os.path.join(ORIGINALS, program), target,
                    ignore=shutil.ignore_patterns('__pycache__', '.pytest_cache'))
    with open(os.path.join(target, path), 'w') as handle:
        handle.write(buggy)
    mutator = 'multi-hunk' if len(sites) > 1 else sites[0].mutator
    return {
        'id': bug_id, 'program': program, 'mutator': mutator, 'file': path,
        'function': hunks[0]['function'], 'line': hunks[0]['line'],
        'dir': os.path.relpath(target, REPO), 'failingTests': failing,
        'inverse': inverse_of(hunks), 'hunks': hunks,
        'heldout': os.path.relpath(heldout_file(program), REPO),
        'multiFile': multi_file, 'quick': quick,
        'description': '; '.join('%s:%d %s' % (s.path, s.line, s.description)
                                 for s in sorted(sites, key=lambda s: s.line)),
    }


def choose(program, index, args):
    """The kept mutants of one program: (sites, failing) pairs, deterministic."""
    rng = random.Random('%d:%s' % (args.seed, program))
    files = program_files(program)
    sources = {f: open(os.path.join(ORIGINALS, program, f)).read() for f in files}
    by_mutator = {m: [] for m in SINGLE_MUTATORS}
    for path in files:
        for site in find_sites(path, sources[path]):
            by_mutator[site.mutator].append(site)
    for mutator in SINGLE_MUTATORS:
        rng.shuffle(by_mutator[mutator])
    multi_file = len(files) > 1
    quota = args.per_package if multi_file else args.per_program
    order = SINGLE_MUTATORS[index % len(SINGLE_MUTATORS):] + SINGLE_MUTATORS[:index % len(SINGLE_MUTATORS)]
    kept, used_lines, used_files = [], set(), []
    for mutator in order * 2:
        if len(kept) >= quota:
            break
        # Packages spread their bugs over modules so localization has to look beyond one file.
        candidates = sorted(by_mutator[mutator], key=lambda s: used_files.count(s.path)) \
            if multi_file else by_mutator[mutator]
        for site in candidates[:args.tries]:
            if (site.path, site.line) in used_lines:
                continue
            failing = evaluate(program, sources, [site], args.max_failing)
            if failing:
                kept.append(([site], failing))
                used_lines.add((site.path, site.line))
                used_files.append(site.path)
                by_mutator[mutator].remove(site)
                break
    if index % args.multi_every == 0 and not multi_file:
        # Two replaced lines, each failing a test on its own, away from the single bugs' lines.
        pool = [s for m in SINGLE_MUTATORS if m != 'delete-stmt' for s in by_mutator[m]
                if (s.path, s.line) not in used_lines]
        rng.shuffle(pool)
        observable = []
        for site in pool[:args.tries * 2]:
            if len(observable) < 4 and evaluate(program, sources, [site], args.max_failing):
                observable.append(site)
        pairs = [(a, b) for i, a in enumerate(observable) for b in observable[i + 1:] if a.line != b.line]
        pairs.sort(key=lambda pair: pair[0].mutator == pair[1].mutator)
        for first, second in pairs[:args.tries]:
            failing = evaluate(program, sources, [first, second], args.max_failing + 2)
            if failing:
                kept.append(([first, second], failing))
                break
    return sources, kept, multi_file


def mark_quick(bugs):
    """The quick slice: one bug per mutator class, each from a different program, the
    first of them from a multi-file package; a smoke run of the repair engine fits in minutes."""
    chosen = []
    package_bug = next(b for b in bugs if b['multiFile'])
    chosen.append(package_bug)
    for mutator in SINGLE_MUTATORS + ['multi-hunk']:
        if any(b['mutator'] == mutator for b in chosen):
            continue
        programs = {b['program'] for b in chosen}
        candidates = [b for b in bugs if b['mutator'] == mutator]
        chosen.append(next((b for b in candidates if b['program'] not in programs), candidates[0]))
    for bug in bugs:
        bug['quick'] = any(bug is b for b in chosen)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--seed', type=int, default=7)
    parser.add_argument('--per-program', type=int, default=3, help='single-hunk bugs per module program')
    parser.add_argument('--per-package', type=int, default=3, help='bugs per multi-file package')
    parser.add_argument('--multi-every', type=int, default=2, help='a multi-hunk bug for every n-th program')
    parser.add_argument('--max-failing', type=int, default=3)
    parser.add_argument('--tries', type=int, default=6, help='candidates tried per mutator')
    parser.add_argument('--jobs', type=int, default=2)
    args = parser.parse_args()

    programs = sorted(os.listdir(ORIGINALS))
    unknown = [p for p in programs if p not in CATEGORIES]
    if unknown:
        sys.exit('no category for %s: add it to CATEGORIES' % unknown)
    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(check_original, programs))
        chosen = list(pool.map(lambda item: choose(item[1], item[0], args), enumerate(programs)))

    shutil.rmtree(BUGS, ignore_errors=True)
    os.makedirs(BUGS)
    bugs, program_entries = [], []
    for program, (sources, kept, multi_file) in zip(programs, chosen):
        program_entries.append({
            'name': program, 'category': CATEGORIES[program],
            'dir': os.path.relpath(os.path.join(ORIGINALS, program), REPO),
            'heldout': os.path.relpath(heldout_file(program), REPO),
            'files': sorted(sources), 'multiFile': multi_file,
            'visibleTests': sum(count_tests(f) for f in visible_test_files(program)),
            'heldoutTests': count_tests(heldout_file(program)),
        })
        numbers = {}
        for sites, failing in kept:
            mutator = 'multi-hunk' if len(sites) > 1 else sites[0].mutator
            numbers[mutator] = numbers.get(mutator, 0) + 1
            bug_id = '%s-%s-%d' % (program, mutator, numbers[mutator])
            bugs.append(write_bug(bug_id, program, sources, sites, failing, multi_file, False))
    mark_quick(bugs)
    manifest = {'version': 1, 'seed': args.seed, 'programs': program_entries, 'bugs': bugs}
    with open(os.path.join(CORPUS, 'manifest.json'), 'w') as handle:
        json.dump(manifest, handle, indent=2, ensure_ascii=False)
        handle.write('\n')
    summary = {}
    for bug in bugs:
        summary[bug['mutator']] = summary.get(bug['mutator'], 0) + 1
    print('%d bugs from %d programs: %s' % (len(bugs), len(programs), json.dumps(summary, sort_keys=True)))


if __name__ == '__main__':
    main()
