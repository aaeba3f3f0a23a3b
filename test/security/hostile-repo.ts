import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A repository under repair with a bug in calc.add, and whatever hostile files a case adds. */
export function hostileRepo(files: Record<string, string>): string {
  const repo = mkdtempSync(path.join(tmpdir(), "hypofix-hostile-"));
  const all = {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "tests/__init__.py": "",
    ...files,
  };
  for (const [file, content] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), content);
  }
  return repo;
}

/** Python: `attempt(fn)` runs fn and names what it got, "ok" or the errno ("EACCES"). Needs `import errno`. */
export const ATTEMPT = [
  "def attempt(fn):",
  "    try:",
  "        fn()",
  '        return "ok"',
  "    except OSError as e:",
  "        return errno.errorcode.get(e.errno, str(e.errno))",
].join("\n");
