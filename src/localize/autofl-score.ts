import { compareScores } from "./sbfl.js";

export interface ScoredFunction {
  key: string;
  score: number;
  /** Runs whose prediction named it. */
  votes: number;
}

/**
 * AutoFL's aggregation: a run naming n functions gives each 1/n; scores add
 * up over runs; equal scores go to the function predicted earlier (run order,
 * then position within the run). Empty runs contribute nothing.
 */
export function aggregateRuns(runs: string[][]): ScoredFunction[] {
  const scored = new Map<string, ScoredFunction & { first: number }>();
  let order = 0;
  for (const run of runs) {
    const names = [...new Set(run)];
    for (const key of names) {
      let s = scored.get(key);
      if (!s) {
        s = { key, score: 0, votes: 0, first: order++ };
        scored.set(key, s);
      }
      s.score += 1 / names.length;
      s.votes += 1;
    }
  }
  return [...scored.values()]
    .sort((a, b) => compareScores(a.score, b.score) || a.first - b.first)
    .map(({ key, score, votes }) => ({ key, score, votes }));
}

export interface UnnamedCandidate {
  key: string;
  /** Failing tests that executed it. */
  failingTests: number;
  /** Times the model looked at it through the tools. */
  lookedAt: number;
}

/**
 * The covered functions no run named, appended after the named ones: most
 * failing tests covering them first, then most looked at; the input order
 * (e.g. SBFL rank) breaks what remains.
 */
export function orderUnnamed(named: Set<string>, candidates: UnnamedCandidate[]): UnnamedCandidate[] {
  return candidates
    .map((c, index) => ({ c, index }))
    .filter(({ c }) => !named.has(c.key))
    .sort((a, b) => b.c.failingTests - a.c.failingTests || b.c.lookedAt - a.c.lookedAt || a.index - b.index)
    .map(({ c }) => c);
}

/** Share of the attempted runs whose first answer is `top`: 1 when every run put it first. */
export function runAgreement(runs: string[][], attempted: number, top: string | undefined): number {
  if (top === undefined || attempted === 0) return 0;
  return runs.filter((r) => r[0] === top).length / attempted;
}
