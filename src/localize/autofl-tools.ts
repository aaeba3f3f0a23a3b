import { z } from "zod";
import type { FunctionInfo } from "../lang/types.js";
import { promptTemplate } from "../llm/prompts.js";
import type { ToolCall, ToolSpec } from "../llm/types.js";
import { functionKey, matchFunction } from "./names.js";
import {
  displaySignature,
  docAndComments,
  moduleName,
  numberedSource,
  qualifiedName,
} from "./python-source.js";

/** What the tools can see during one AutoFL run. */
export interface ToolContext {
  /** Every function of the covered source files (tests excluded). */
  functions: FunctionInfo[];
  /** Keys (functionKey) of the functions this run's failing test executed. */
  coveredByTest: Set<string>;
  /** Keys of the functions any failing test executed: preferred when a name is ambiguous. */
  coveredByFailing: Set<string>;
  /** Source lines of a repository file; undefined when it cannot be read. */
  source(file: string): Promise<string[] | undefined>;
  /** Times each function's code or comments were looked at (AutoFL's tie-break for unnamed functions). */
  lookedAt: Map<string, number>;
  /** How a test imports a file's module (the language's words), when that differs from its qualified name. */
  importOf?(file: string): string;
}

export interface ToolOutcome {
  content: string;
  /** False when the call was rejected (unknown tool, bad arguments, unknown name). */
  ok: boolean;
}

const noArgs = z.object({});
const containerArgs = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .describe("qualified name of a module or class, e.g. `pkg.mod` or `pkg.mod.Class`"),
});
const moduleArgs = z.object({
  name: z.string().trim().min(1).describe("qualified name of a module, e.g. `pkg.mod`"),
});
const functionArgs = z.object({
  signature: z
    .string()
    .trim()
    .min(1)
    .describe("qualified name of a function or method, e.g. `pkg.mod.Class.method`"),
});

interface Tool<S extends z.ZodType> {
  schema: S;
  run(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutcome>;
}

function tool<S extends z.ZodType>(schema: S, run: Tool<S>["run"]): Tool<S> {
  return { schema, run };
}

const TOOLS = {
  get_covered_classes: tool(noArgs, async (_args, ctx) => coveredClasses(ctx)),
  get_covered_functions: tool(containerArgs, async (args, ctx) => coveredFunctions(args.name, ctx)),
  get_code_snippet: tool(functionArgs, async (args, ctx) =>
    withFunction(args.signature, ctx, (f, lines) => `# ${f.file}\n${numberedSource(lines, f)}`),
  ),
  get_comments: tool(functionArgs, async (args, ctx) =>
    withFunction(args.signature, ctx, (f, lines) => {
      const text = docAndComments(lines, f);
      return text === "" ? `${qualifiedName(f)} has no docstring and no comments.` : text;
    }),
  ),
  get_module_code: tool(moduleArgs, async (args, ctx) => moduleCode(args.name, ctx)),
} as const;

export type ToolName = keyof typeof TOOLS;
const TOOL_NAMES = Object.keys(TOOLS) as ToolName[];

/** The functions offered to the model, their descriptions read from prompts/autofl-tool-<name>.txt. */
export function autoflToolSpecs(): ToolSpec[] {
  return TOOL_NAMES.map((name) => {
    const { $schema: _drop, ...parameters } = z.toJSONSchema(TOOLS[name].schema);
    return { name, description: promptTemplate(`autofl-tool-${name}`).trim(), parameters };
  });
}

/** Runs one tool call. Never throws for anything the model sent: every problem is an answer it can act on. */
export async function runTool(call: ToolCall, ctx: ToolContext): Promise<ToolOutcome> {
  if (!(TOOL_NAMES as string[]).includes(call.name)) {
    return {
      ok: false,
      content: `Error: there is no function \`${call.name}\`. Available: ${TOOL_NAMES.join(", ")}.`,
    };
  }
  const name = call.name as ToolName;
  let raw: unknown;
  try {
    raw = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch {
    return { ok: false, content: `Error: the arguments of ${name} are not valid JSON. ${usage(name)}` };
  }
  const parsed = TOOLS[name].schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`)
      .join("; ");
    return { ok: false, content: `Error: bad arguments for ${name} (${issues}). ${usage(name)}` };
  }
  // The schema and the runner come from the same entry; TypeScript cannot correlate them through the union.
  const run = TOOLS[name].run as (args: unknown, ctx: ToolContext) => Promise<ToolOutcome>;
  return run(parsed.data, ctx);
}

function usage(name: ToolName): string {
  const example = {
    get_covered_classes: "{}",
    get_covered_functions: '{"name": "package.module.Class"}',
    get_code_snippet: '{"signature": "package.module.Class.method"}',
    get_comments: '{"signature": "package.module.Class.method"}',
    get_module_code: '{"name": "package.module"}',
  }[name];
  return `Expected arguments like ${example}.`;
}

/** The class a function belongs to (`Class` or `Outer.Inner`), or undefined for a module-level function. */
function classOf(f: FunctionInfo, all: Set<string>): string | undefined {
  const parts = f.qualname.split(".");
  for (let i = parts.length - 1; i >= 1; i--) {
    const prefix = parts.slice(0, i).join(".");
    // A prefix that is itself a function makes f a nested function: look further out.
    if (!all.has(`${f.file}::${prefix}`)) return prefix;
  }
  return undefined;
}

function covered(ctx: ToolContext): FunctionInfo[] {
  return ctx.functions.filter((f) => ctx.coveredByTest.has(functionKey(f)));
}

function containers(ctx: ToolContext) {
  const all = new Set(ctx.functions.map(functionKey));
  const modules = new Map<string, FunctionInfo[]>();
  const classes = new Map<string, FunctionInfo[]>();
  for (const f of covered(ctx)) {
    const m = moduleName(f.file);
    modules.set(m, [...(modules.get(m) ?? []), f]);
    const cls = classOf(f, all);
    if (cls !== undefined) {
      const c = `${m}.${cls}`;
      classes.set(c, [...(classes.get(c) ?? []), f]);
    }
  }
  return { modules, classes };
}

function coveredClasses(ctx: ToolContext): ToolOutcome {
  const { modules, classes } = containers(ctx);
  if (modules.size === 0) {
    return { ok: true, content: "The failing test executed no function of the project's source files." };
  }
  // Qualified names follow the path from the root; a src layout's tests import another name.
  const imports: Record<string, string> = {};
  for (const [m, fns] of [...modules].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const how = ctx.importOf?.(fns[0]!.file);
    if (how && !how.includes(` ${m} `) && !how.includes(`"${m}"`)) imports[m] = how;
  }
  const content = JSON.stringify({
    modules: [...modules.keys()].sort(),
    classes: [...classes.keys()].sort(),
    ...(Object.keys(imports).length > 0 ? { imported_by_tests_as: imports } : {}),
  });
  return { ok: true, content: `${content}\nCall get_covered_functions with one of these names.` };
}

async function coveredFunctions(name: string, ctx: ToolContext): Promise<ToolOutcome> {
  const { modules, classes } = containers(ctx);
  const wanted = name.replace(/[`'"]/g, "").replace(/\.py$/, "").replace(/\//g, ".").replace(/::/g, ".");
  const all = new Map([...modules, ...classes]);
  let found = all.get(wanted);
  if (!found) {
    const suffix = [...all.keys()].filter((k) => k.endsWith(`.${wanted}`));
    if (suffix.length === 1 && suffix[0]) found = all.get(suffix[0]);
    else if (suffix.length > 1) {
      return {
        ok: false,
        content: `Error: \`${name}\` could be ${suffix.join(", ")}. Call again with one of them.`,
      };
    }
  }
  if (!found) {
    return {
      ok: false,
      content: `Error: the failing test executed no module or class named \`${name}\`. Covered: ${[...all.keys()].sort().join(", ")}.`,
    };
  }
  const signatures: string[] = [];
  for (const f of found) {
    const lines = await ctx.source(f.file);
    signatures.push(lines ? displaySignature(lines, f) : qualifiedName(f));
  }
  return { ok: true, content: JSON.stringify(signatures) };
}

async function withFunction(
  signature: string,
  ctx: ToolContext,
  render: (f: FunctionInfo, lines: string[]) => string,
): Promise<ToolOutcome> {
  const m = matchFunction(signature, ctx.functions, ctx.coveredByFailing);
  if (m.kind === "ambiguous") {
    const names = m.candidates.map(qualifiedName).join(", ");
    return { ok: false, content: `Error: \`${signature}\` could be ${names}. Call again with one of them.` };
  }
  if (m.kind === "none") {
    const some = covered(ctx).slice(0, 20).map(qualifiedName).join(", ");
    return {
      ok: false,
      content: `Error: no function \`${signature}\` in the project's covered source files. Functions the test executed include: ${some}.`,
    };
  }
  const lines = await ctx.source(m.function.file);
  if (!lines) return { ok: false, content: `Error: ${m.function.file} could not be read.` };
  const key = functionKey(m.function);
  ctx.lookedAt.set(key, (ctx.lookedAt.get(key) ?? 0) + 1);
  return { ok: true, content: render(m.function, lines) };
}

/** Lines of a module's code shown at most: module-level names rarely take more. */
const MODULE_LINES = 200;

/**
 * A module's code outside its functions, numbered: imports, constants, regular expressions,
 * class attributes; each function is reduced to its `def` line(s).
 */
async function moduleCode(name: string, ctx: ToolContext): Promise<ToolOutcome> {
  const wanted = name.replace(/[`'"]/g, "").replace(/\.py$/, "").replace(/\//g, ".");
  const files = [...new Set(ctx.functions.map((f) => f.file))];
  const exact = files.filter((f) => moduleName(f) === wanted);
  const matches = exact.length > 0 ? exact : files.filter((f) => moduleName(f).endsWith(`.${wanted}`));
  if (matches.length !== 1) {
    const known = files.map(moduleName).sort().join(", ");
    return {
      ok: false,
      content:
        matches.length > 1
          ? `Error: \`${name}\` could be ${matches.map(moduleName).join(", ")}. Call again with one of them.`
          : `Error: no module \`${name}\` among the project's covered source files: ${known}.`,
    };
  }
  const file = matches[0]!;
  const lines = await ctx.source(file);
  if (!lines) return { ok: false, content: `Error: ${file} could not be read.` };
  // A function's body is left out; its header (up to the line that ends it with a colon) stays.
  const hidden = new Set<number>();
  for (const f of ctx.functions.filter((fn) => fn.file === file)) {
    let n = f.startLine;
    while (n < f.endLine && !/:\s*(#.*)?$/.test(lines[n - 1] ?? "")) n++;
    for (let k = n + 1; k <= f.endLine; k++) hidden.add(k);
  }
  const out: string[] = [];
  let skipped = false;
  for (let n = 1; n <= lines.length; n++) {
    if (hidden.has(n)) {
      if (!skipped) out.push("     ...");
      skipped = true;
      continue;
    }
    skipped = false;
    if ((lines[n - 1] ?? "").trim() !== "") out.push(`${String(n).padStart(4)} ${lines[n - 1]}`);
  }
  const shown = out.slice(0, MODULE_LINES);
  if (out.length > MODULE_LINES) shown.push(`     ... (${out.length - MODULE_LINES} more lines)`);
  return { ok: true, content: `# ${file}\n${shown.join("\n")}` };
}
