/** The llm engine over chosen bugs with a model answering through an OpenAI-compatible endpoint
 * (the relay of ../shared/tools/relay-model/, or any other): `hypofix fix` with the llm engine
 * and AutoFL on a fresh buggy copy of each bug, scored like the repair benchmark, with the
 * model's calls and tokens per bug. With HYPOFIX_RELAY_DIR set (the relay's folder), the
 * requests and answers of each bug are copied to test/fixtures/relay/<bug>/ as transcripts.
 * bench/README.md says how to run it. */
import { copyFile, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRunContext } from "../src/compose.js";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/log.js";
import { DEFAULT_REPO_CONFIG } from "../src/repo-config.js";
import { loadSelection } from "./lib/bugs.js";
import { closeJsMirror } from "./lib/js-bugs.js";
import { tally } from "./lib/score.js";
import { repairBug, repairRows, selectionOf, type MakeContext } from "./repair.bench.js";
import type { Benchmark, BenchOptions, BenchResult } from "./types.js";

const FIXTURES = fileURLToPath(new URL("../test/fixtures/relay/", import.meta.url));

const llmContext: MakeContext = async (repoDir) => {
  const config = loadConfig();
  const context = await createRunContext({
    engine: "llm",
    config,
    repoConfig: DEFAULT_REPO_CONFIG,
    repoDir,
    log: createLogger("warn"),
  });
  if (context.engine.name !== "llm") throw new Error("the model endpoint refused the run: no llm engine");
  return context;
};

/** The relay's request and answer files not in `before`. */
async function relayFiles(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [])).filter((f) => /^(req|resp)-\d+\.json$/.test(f));
}

async function keepTranscript(dir: string, before: Set<string>, bugId: string): Promise<number> {
  const fresh = (await relayFiles(dir)).filter((f) => !before.has(f));
  if (fresh.length === 0) return 0;
  const dest = join(FIXTURES, bugId);
  await mkdir(dest, { recursive: true });
  for (const f of fresh) await copyFile(join(dir, f), join(dest, f));
  return fresh.length;
}

const relayBench: Benchmark = {
  name: "relay",
  description:
    "llm engine (AutoFL, AutoSD) over chosen bugs with a model answering an OpenAI-compatible endpoint: correct fixes, model calls and tokens per bug",
  async run(options: BenchOptions): Promise<BenchResult> {
    const endpoint = process.env.HYPOFIX_LLM_BASE_URL;
    if (!endpoint) {
      // `npm run bench` runs every benchmark: without an endpoint this one has nothing to ask.
      return {
        rows: [{ metric: "not run", value: "HYPOFIX_LLM_BASE_URL is not set (bench/README.md)" }],
        data: { ran: false, reason: "HYPOFIX_LLM_BASE_URL is not set" },
      };
    }
    process.env.HYPOFIX_PYTHON ??= "/usr/bin/python3";
    const selection = selectionOf(options);
    const bugs = await loadSelection(selection);
    const relayDir = process.env.HYPOFIX_RELAY_DIR;
    const outcomes: (Awaited<ReturnType<typeof repairBug>> & { transcript?: string })[] = [];
    try {
      // One bug at a time: whoever answers the relay answers one conversation at a time.
      for (const bug of bugs) {
        const before = new Set(relayDir ? await relayFiles(relayDir) : []);
        const outcome = await repairBug(bug, options.timeoutMs, llmContext);
        const kept = relayDir ? await keepTranscript(relayDir, before, bug.id) : 0;
        const u = outcome.usage;
        process.stderr.write(
          `relay: ${bug.group} ${bug.id} (${bug.shape}): ${outcome.verdict} [${outcome.status}], ${u?.llmCalls ?? 0} calls, ${(u?.promptTokens ?? 0) + (u?.completionTokens ?? 0)} tokens, ${(outcome.ms / 1000).toFixed(1)} s${kept > 0 ? `, ${kept} transcript files` : ""}\n`,
        );
        outcomes.push({
          ...outcome,
          ...(kept > 0 ? { transcript: join("test/fixtures/relay", bug.id) } : {}),
        });
      }
    } finally {
      // A JS bug's setup served packages from the corpus's npm mirror.
      await closeJsMirror();
    }
    const perBug = outcomes.map((o) => ({
      metric: `${o.id}: ${o.verdict}`,
      value: `${o.usage?.llmCalls ?? 0} calls`,
      unit: `${(o.usage?.promptTokens ?? 0) + (o.usage?.completionTokens ?? 0)} tokens`,
    }));
    return {
      rows: [{ metric: "bugs", value: outcomes.length }, ...repairRows(outcomes), ...perBug],
      data: {
        endpoint: new URL(endpoint).host,
        model: process.env.HYPOFIX_LLM_MODEL ?? null,
        corpus: selection.corpus,
        split: selection.split,
        tally: tally(outcomes),
        outcomes,
      },
    };
  },
};

export default relayBench;
