"""Kinds of values (int, str, list, ...) as the file's syntax shows them, and the classes of
runtime type names the failing test saw.
"""

import ast
import builtins


BUILTIN_NAMES = set(dir(builtins))


FRESH_CALLS = {"list", "dict", "set", "defaultdict", "Counter", "OrderedDict", "deque"}


KIND_OF_CALL = {
    "int": "int",
    "len": "int",
    "sum": "number",
    "round": "number",
    "float": "float",
    "abs": "number",
    "str": "str",
    "repr": "str",
    "list": "list",
    "sorted": "list",
    "dict": "dict",
    "set": "set",
    "tuple": "tuple",
    "bool": "bool",
    "defaultdict": "dict",
    "Counter": "dict",
    "OrderedDict": "dict",
}


KIND_OF_METHOD = {
    "strip": "str",
    "lstrip": "str",
    "rstrip": "str",
    "lower": "str",
    "upper": "str",
    "title": "str",
    "capitalize": "str",
    "casefold": "str",
    "format": "str",
    "join": "str",
    "split": "list",
    "rsplit": "list",
    "splitlines": "list",
    "isdigit": "bool",
    "startswith": "bool",
    "endswith": "bool",
    "count": "int",
    "find": "int",
}


KIND_OF_ANNOTATION = {
    "List": "list",
    "Dict": "dict",
    "Set": "set",
    "Tuple": "tuple",
    "Sequence": "list",
    "Mapping": "dict",
    "Iterable": "list",
    "FrozenSet": "set",
    "frozenset": "set",
    "Optional": None,
}


NUMERIC = {"int", "float", "bool", "number"}


def kind_of_value(node):
    """A coarse type of an expression's value, when the syntax says it."""
    if isinstance(node, ast.Constant):
        if node.value is None:
            return None
        if isinstance(node.value, bool):
            return "bool"
        return type(node.value).__name__
    if isinstance(node, (ast.List, ast.ListComp)):
        return "list"
    if isinstance(node, (ast.Dict, ast.DictComp)):
        return "dict"
    if isinstance(node, (ast.Set, ast.SetComp)):
        return "set"
    if isinstance(node, ast.Tuple):
        return "tuple"
    if isinstance(node, ast.JoinedStr):
        return "str"
    if isinstance(node, ast.Compare) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return "bool"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return KIND_OF_CALL.get(node.func.id)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return KIND_OF_METHOD.get(node.func.attr)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return kind_of_value(node.operand)
    return None


def kind_of_annotation(node):
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(node, ast.Subscript):
        base = node.value
        name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else None
        if name == "Optional":
            inner = node.slice
            if isinstance(inner, ast.Index):  # Python 3.8 shape, kept for safety
                inner = inner.value
            return kind_of_annotation(inner)
        return KIND_OF_ANNOTATION.get(name, name.lower() if name in ("list", "dict", "set", "tuple") else name)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = kind_of_annotation(node.left), kind_of_annotation(node.right)
        if left == "None":
            return right
        return left if right in ("None", None) else None
    if isinstance(node, ast.Name):
        return KIND_OF_ANNOTATION.get(node.id, node.id)
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


CLASS_OF_KIND = {
    "list": "container",
    "dict": "container",
    "set": "container",
    "tuple": "container",
    "int": "scalar",
    "float": "scalar",
    "number": "scalar",
    "bool": "scalar",
    "str": "text",
}


CONTAINER_METHODS = {
    "append", "extend", "add", "update", "items", "keys", "values", "get", "pop", "remove",
    "discard", "sort", "setdefault", "popleft", "appendleft", "clear", "copy",
}


TEXT_METHODS = {"strip", "lower", "upper", "startswith", "endswith", "split", "replace", "format", "encode", "isdigit"}


CONTAINER_CALLS = {"len", "sorted", "sum", "list", "set", "any", "all", "enumerate", "zip", "reversed", "dict", "tuple"}


def usage_classes(nodes):
    """{name: "container" | "scalar" | "text"} from how a function uses each name (conflicts left out)."""
    found = {}

    def mark(node, cls):
        if isinstance(node, ast.Name):
            found.setdefault(node.id, set()).add(cls)

    for n in nodes:
        if isinstance(n, ast.Subscript):
            mark(n.value, "container")
            index = n.slice
            if isinstance(index, ast.Name):
                mark(index, "scalar")
        elif isinstance(n, (ast.For, ast.comprehension)):
            mark(n.iter, "container")
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            if n.func.id in CONTAINER_CALLS and len(n.args) == 1:
                mark(n.args[0], "container")
            elif n.func.id == "range":
                for a in n.args:
                    mark(a, "scalar")
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            if n.func.attr in CONTAINER_METHODS:
                mark(n.func.value, "container")
            elif n.func.attr in TEXT_METHODS:
                mark(n.func.value, "text")
            elif n.func.attr == "join" and len(n.args) == 1:
                mark(n.args[0], "container")
        elif isinstance(n, ast.Compare):
            for op, right in zip(n.ops, n.comparators):
                if isinstance(op, (ast.In, ast.NotIn)):
                    mark(right, "container")
            operands = [n.left] + list(n.comparators)
            if any(isinstance(o, ast.Constant) and isinstance(o.value, (int, float)) and not isinstance(o.value, bool) for o in operands):
                for o in operands:
                    mark(o, "scalar")
        elif isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)):
            mark(n.left, "scalar")
            mark(n.right, "scalar")
    return {name: next(iter(cls)) for name, cls in found.items() if len(cls) == 1}


def compatible(a, b):
    if a is None or b is None or a == b:
        return True
    return a in NUMERIC and b in NUMERIC


def docstring_node(body):
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        if isinstance(body[0].value.value, str):
            return body[0]
    return None


def is_fresh(node):
    """An empty or zero initial value: what an accumulator starts from."""
    if isinstance(node, ast.Constant):
        return node.value in (0, "", None, False) or node.value == 0.0
    if isinstance(node, (ast.List, ast.Set, ast.Tuple)):
        return not node.elts
    if isinstance(node, ast.Dict):
        return not node.keys
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in FRESH_CALLS and not node.keywords and len(node.args) <= 1
    return False


# Runtime type names (hints.types) that take part in arithmetic with an integer.
NUMERIC_TYPES = {"int", "float", "bool", "Decimal", "Fraction", "complex"}


# Runtime types an integer index or slice bound applies to.
SEQUENCE_TYPES = {"list", "tuple", "str", "bytes", "bytearray", "range", "deque", "memoryview"}


def type_class(name):
    """The class of a runtime type name for compatibility: numbers are one class; None fits anything."""
    if name is None or name == "NoneType":
        return None
    return "number" if name in NUMERIC_TYPES else name


# Methods that change their object in place.
MUTATORS = {
    "append", "extend", "add", "update", "insert", "setdefault", "pop", "remove", "discard",
    "clear", "appendleft", "popleft", "sort", "reverse",
}
