/**
 * The AutoSD experiment language for JavaScript/TypeScript targets: the same forms as Python's
 * (`b file:line ;; c ;; p expr`, `REPLACE(...) AND ADD(...) AND DEL(...) AND RUN`, `trace
 * file:function`), parsed by the shared parser in lang/python/experiment.ts. That parser is
 * language-neutral except where it names a file: it reads `path.py:12`. So a JS/TS path is
 * handed to it as a `.py` stand-in and given back after; messages speak of `.ts` files.
 */
import { parseExperiment, type Edit, type Experiment, type ParsedExperiment } from "../python/experiment.js";

const JS_FILE = /^[^\s,():"'`]+\.(?:[cm]?[jt]sx?)$/;
const LOCATION = /[^\s,():"'`]+\.(?:[cm]?[jt]sx?)(?=:\d)/y;

/** Replaces JS/TS paths before `:<line>` outside quoted strings with stand-ins; the stand-ins, in order. */
function standIns(text: string): { text: string; files: string[] } {
  const files: string[] = [];
  let out = "";
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      out += ch;
      if (ch === "\\" && i + 1 < text.length) out += text[++i];
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      out += ch;
      continue;
    }
    LOCATION.lastIndex = i;
    const m = (i === 0 || /[\s(,]/.test(text[i - 1]!)) && LOCATION.exec(text);
    if (m) {
      files.push(m[0]);
      out += `hypofix-js-${files.length - 1}.py`;
      i += m[0].length - 1;
    } else out += ch;
  }
  return { text: out, files };
}

const back = (files: string[]) => (file: string | undefined) => {
  const m = file ? /^hypofix-js-(\d+)\.py$/.exec(file) : null;
  return m ? files[Number(m[1])] : file;
};

/** Python's help text, spoken for JavaScript/TypeScript files. */
function forJs(message: string, files: string[]): string {
  return message
    .replace(/hypofix-js-(\d+)\.py/g, (_, n: string) => files[Number(n)] ?? "file.ts")
    .replace(/path\/to\/file\.py/g, "path/to/file.ts")
    .replace(/src\/pkg\/mod\.py/g, "src/cart.ts")
    .replace(/file\.py/g, "file.ts");
}

/** Parses one experiment whose files are JavaScript or TypeScript sources. */
export function parseJsExperiment(input: string): ParsedExperiment {
  const trimmed = input
    .trim()
    .replace(/^`+|`+$/g, "")
    .trim();
  // A JS qualified name may hold `$`, `#`, `@` (`app.get@12`) and any letter: read `trace` here.
  const trace = /^trace\s+(\S+?):(\S+)$/i.exec(trimmed);
  if (trace && JS_FILE.test(trace[1]!)) {
    return { ok: true, experiment: { kind: "trace", file: trace[1]!, qualname: trace[2]! } };
  }
  const { text, files } = standIns(trimmed);
  const parsed = parseExperiment(text);
  if (!parsed.ok) return { ok: false, error: forJs(parsed.error, files) };
  const file = back(files);
  const exp: Experiment = parsed.experiment;
  if (exp.kind === "edit") {
    const edits = exp.edits.map((e): Edit => {
      const f = file(e.file);
      const { file: _drop, ...rest } = e;
      return f === undefined ? rest : { ...rest, file: f };
    });
    return { ok: true, experiment: { kind: "edit", edits } };
  }
  if (exp.kind === "debugger") {
    const { file: _drop, ...rest } = exp;
    const f = file(exp.file);
    return { ok: true, experiment: f === undefined ? rest : { ...rest, file: f } };
  }
  return { ok: true, experiment: { ...exp, file: file(exp.file) ?? exp.file } };
}
