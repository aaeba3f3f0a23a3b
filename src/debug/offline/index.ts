import type { DebugEngine } from "../types.js";
import { besideBase, onBase, takeBase } from "./base.js";
import { changerOf, partnersOf, tryPairs } from "./pairs.js";
import { planRun } from "./plan.js";
import { probeLine } from "./probe.js";
import { singleEdit } from "./single.js";
import { finish, startRun } from "./state.js";
import { tryTwins } from "./twins.js";

export { alikeFirst, sameReplacement } from "./base.js";
export { copiesOf } from "./twins.js";

export interface OfflineOptions {
  /** Lines ranked below this suspiciousness are not tried. */
  minScore?: number;
}

/**
 * The offline engine: AutoSD's loop with hypotheses from the candidate generator.
 * The failing test is first run once under the evidence helper; its live values (a
 * KeyError's mapping, the values a failed assertion compared, the `except` clauses the
 * exception went through...) rank the candidates, and the budget is spent breadth-first
 * over the suspicious lines (plan.ts). At each line a debugger experiment first records
 * the real values there (probe.ts); each candidate is then an edit-and-run experiment,
 * supported when the failing test passes (single.ts). Edits that each change the failure
 * are combined into two-edit patches (twins.ts, pairs.ts); an edit that fixes the first
 * failing test but not the others becomes the base the next edits are tried on (base.ts).
 * The first supported edit that validates ends the loop (DONE).
 */
export function createOfflineEngine(options: OfflineOptions = {}): DebugEngine {
  return {
    name: "offline",
    async run(bug, runtime, budget, validate) {
      const run = startRun(
        bug,
        runtime,
        budget,
        validate,
        await planRun(bug, runtime, budget, options.minScore ?? 0),
      );
      for (let next = 0; next < run.queue.length; next++) {
        const item = run.queue[next]!;
        if (budget.exhausted()) return finish(run, "budget");
        const seen = await probeLine(run, item);
        if (seen === undefined) {
          if (!run.base) run.unreached.push(item);
          continue;
        }
        if (budget.exhausted()) return finish(run, "budget");
        if (besideBase(run, item)) {
          if (await onBase(run, item, seen)) return finish(run, "done");
          continue;
        }
        const tried = await singleEdit(run, item, seen);
        if (tried.validation?.plausible) return finish(run, "done");
        if (takeBase(run, next, item, tried)) continue;
        const changer = changerOf(run, item, tried);
        if (!changer) continue;
        const partners = partnersOf(run, changer);
        run.changers.push(changer);
        if (await tryTwins(run, changer)) return finish(run, "done");
        if (await tryPairs(run, changer, partners)) return finish(run, "done");
      }
      return {
        steps: run.steps,
        candidates: run.candidates,
        done: run.steps.some((s) => s.done),
        stop: "exhausted",
      };
    },
  };
}
