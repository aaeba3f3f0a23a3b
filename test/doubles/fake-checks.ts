import type { Recorded } from "./fake-github.js";

export interface CheckRunState {
  id: number;
  head_sha: string;
  external_id?: string;
  status: string;
  conclusion?: string;
  details_url?: string;
  output?: { title: string; summary: string };
}

/**
 * The check-runs part of GitHub's API, with state: created runs can be listed
 * for a commit and updated, and every state a run went through is kept, so a
 * test can assert the sequence a maintainer would have seen.
 */
export class FakeChecks {
  private readonly runs = new Map<number, CheckRunState>();
  /** Every state of every run, in order. */
  readonly states: CheckRunState[] = [];
  private next = 100;

  route(r: Recorded): { status: number; body: unknown } | undefined {
    if (r.method === "POST" && /^\/repos\/[^/]+\/[^/]+\/check-runs$/.test(r.path)) {
      const body = r.body as Omit<CheckRunState, "id">;
      const run: CheckRunState = {
        ...body,
        id: this.next++,
        status: body.conclusion ? "completed" : body.status,
      };
      this.save(run);
      return { status: 201, body: run };
    }
    const update = /^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/.exec(r.path);
    if (r.method === "PATCH" && update) {
      const old = this.runs.get(Number(update[1]));
      if (!old) return { status: 404, body: { message: "Not Found" } };
      const body = r.body as Partial<CheckRunState>;
      const run = { ...old, ...body, ...(body.conclusion ? { status: "completed" } : {}) };
      this.save(run);
      return { status: 200, body: run };
    }
    const list = /^\/repos\/[^/]+\/[^/]+\/commits\/([0-9a-f]{40})\/check-runs/.exec(r.path);
    if (r.method === "GET" && list) {
      const runs = [...this.runs.values()].filter((c) => c.head_sha === list[1]);
      return { status: 200, body: { total_count: runs.length, check_runs: runs } };
    }
    return undefined;
  }

  /** The states of the runs on a commit, as "status/conclusion: title". */
  sequence(headSha: string): string[] {
    return this.states
      .filter((s) => s.head_sha === headSha)
      .map((s) => `${s.status}${s.conclusion ? `/${s.conclusion}` : ""}: ${s.output?.title ?? ""}`);
  }

  private save(run: CheckRunState): void {
    this.runs.set(run.id, run);
    this.states.push(structuredClone(run));
  }
}
