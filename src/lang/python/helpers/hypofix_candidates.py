"""Repair candidates for one Python file, drawn from the file's own syntax tree.

Usage: python3 -I hypofix_candidates.py < request.json. Standard library only, Python 3.9+;
the user's code is parsed with `ast`, never imported or run. The request names the file (or
carries its source) and the suspect lines or a function's span; the result, printed as JSON
after RESULT_MARK, is a list of candidate edits in the edit-and-run DSL of
src/lang/python/experiment.ts, each named by the kind of mistake it repairs (the families
follow the simple-stupid-bug taxonomies of ManySStuBs4J and PySStuBs), with a one-sentence
claim, features for rankers and a prior (smaller is likelier). Every candidate's edited
source parses. src/lang/python/candidates.ts is the only caller and validates the output.

This file reads the request and prints the result; the generator is the package beside it,
hypofix_cand/ (its core, and one module per family under families/, listed in registry.py).
"""

import json
import os
import sys
import time

# -I keeps this script's folder off sys.path; the package beside it is ours, not the repository's.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hypofix_cand.generate import generate  # noqa: E402

RESULT_MARK = "\n@@HYPOFIX-RESULT@@\n"
DEFAULT_BUDGET = 80


def main():
    request = json.load(sys.stdin)
    started = time.perf_counter()
    text = request.get("source")
    if text is None:
        root = request.get("root") or os.getcwd()
        path = os.path.normpath(os.path.join(root, request["file"]))
        if not path.startswith(os.path.normpath(root) + os.sep):
            return {"problem": f"{request['file']} is outside the repository"}
        try:
            # utf-8-sig: a byte order mark is no character of line 1 (the edits keep it on the host).
            with open(path, encoding="utf-8-sig") as fh:
                text = fh.read()
        except UnicodeDecodeError:
            return {"problem": f"{request['file']} is not UTF-8: Hypofix edits UTF-8 source files only"}
        except OSError as e:
            return {"problem": f"{request['file']} could not be read: {type(e).__name__}"}
    span = request.get("span")
    try:
        candidates, parses = generate(
            text,
            request.get("lines") or [],
            (span["start"], span["end"]) if span else None,
            request.get("hints") or {},
            int(request.get("budget") or DEFAULT_BUDGET),
            request.get("root") or os.getcwd(),
            request["file"],
            [t for t in request.get("tests") or [] if isinstance(t, str)],
        )
    except SyntaxError as e:
        return {"problem": f"{request['file']} does not parse: {e.msg} (line {e.lineno})"}
    return {
        "candidates": candidates,
        "stats": {"parses": parses, "ms": round((time.perf_counter() - started) * 1000, 1)},
    }


if __name__ == "__main__":
    result = main()
    sys.stdout.write(RESULT_MARK + json.dumps(result))
