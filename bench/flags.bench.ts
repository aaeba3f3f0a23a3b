/** The confidence flags' precision over the bug corpora: every plausible patch the offline engine
 * proposes (audited as the product audits it) is judged correct or wrong by the held-out tests
 * (bench/lib/score.ts); the share of wrong patches that carry a ⚠️/❌, and of correct ones that
 * carry none (and that are all ✅). Default split: v2's test half. */
import { pipelineAudit } from "../src/audit/index.js";
import { GROUPS, loadSelection, type Selection } from "./lib/bugs.js";
import { flagPrecision, reportFlags, type JudgedPatch } from "./lib/flags.js";
import { mapLimit } from "./lib/stats.js";
import { offlineContext, repairBug } from "./repair.bench.js";
import type { Benchmark, BenchOptions, BenchResult } from "./types.js";

const pct = (n: number, d: number) => (d === 0 ? "–" : `${Math.round((1000 * n) / d) / 10}%`);

const flagsBench: Benchmark = {
  name: "flags",
  description:
    "confidence flags over the corpora: wrong plausible patches with a ⚠️/❌, correct ones with none (held-out tests judge)",
  async run(options: BenchOptions): Promise<BenchResult> {
    process.env.HYPOFIX_PYTHON ??= "/usr/bin/python3";
    const selection: Selection = {
      corpus: options.corpus ?? "all",
      split: options.split ?? "test",
      subset: options.subset,
      ...(options.bugs ? { ids: options.bugs } : {}),
    };
    const bugs = await loadSelection(selection);
    const audit = pipelineAudit({ engine: "offline" });
    const outcomes = await mapLimit(bugs, options.jobs ?? 1, async (bug) => {
      const outcome = await repairBug(bug, options.timeoutMs, offlineContext(audit));
      const warned = outcome.run
        ? reportFlags(outcome.run.report)
            .filter((f) => f.icon === "⚠️" || f.icon === "❌")
            .map((f) => `${f.icon} ${f.name}: ${f.value}`)
        : [];
      process.stderr.write(
        `flags: ${bug.group} ${bug.id}: ${outcome.verdict}; ${warned.join("; ") || "no ⚠️/❌"}\n`,
      );
      return outcome;
    });
    // Plausible patches only: the visible suite passes from scratch, and the held-out tests judge.
    const judged: JudgedPatch[] = outcomes.flatMap((o) =>
      o.run && (o.verdict === "correct" || o.verdict === "overfit")
        ? [{ id: o.id, group: o.group, correct: o.verdict === "correct", flags: reportFlags(o.run.report) }]
        : [],
    );
    const rows: BenchResult["rows"] = [{ metric: "bugs", value: outcomes.length }];
    const byGroup: Record<string, ReturnType<typeof flagPrecision>> = {};
    for (const group of [...GROUPS, "all"]) {
      const these = judged.filter((j) => group === "all" || j.group === group);
      if (these.length === 0) continue;
      const p = flagPrecision(these);
      byGroup[group] = p;
      rows.push(
        { metric: `${group}: plausible patches (correct / wrong)`, value: `${p.correct} / ${p.wrong}` },
        {
          metric: `${group}: wrong patches with a ⚠️/❌`,
          value: `${p.wrongWarned} / ${p.wrong}`,
          unit: pct(p.wrongWarned, p.wrong),
          target: "100%",
        },
        {
          metric: `${group}: correct patches with no ⚠️/❌`,
          value: `${p.correctClear} / ${p.correct}`,
          unit: pct(p.correctClear, p.correct),
          target: "≥ 90%",
        },
        {
          metric: `${group}: correct patches all ✅`,
          value: `${p.correctAllOk} / ${p.correct}`,
          unit: pct(p.correctAllOk, p.correct),
        },
        {
          metric: `${group}: flags that warned (wrong, correct)`,
          value:
            Object.entries(p.perFlag)
              .map(([name, n]) => `${name} ${n.wrong}, ${n.correct}`)
              .join("; ") || "none",
        },
      );
    }
    return {
      rows,
      data: {
        corpus: selection.corpus,
        split: selection.split,
        precision: byGroup,
        patches: judged.map((j) => ({
          ...j,
          warned: j.flags.filter((f) => f.icon === "⚠️" || f.icon === "❌"),
        })),
        verdicts: outcomes.map((o) => ({ id: o.id, group: o.group, verdict: o.verdict, reason: o.reason })),
      },
    };
  },
};

export default flagsBench;
