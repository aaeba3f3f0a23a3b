import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Result } from "./result.js";

/*
 * Prometheus metrics. Labels carry kinds, outcomes, phases and states only, never
 * a repository, sha or user: `/metrics` is readable without the dashboard's password.
 */

/** Job and phase durations run from seconds to the job deadline (minutes). */
const DURATION_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600];

export type QueueCounts = () => Promise<Record<string, number>>;

export class Metrics {
  readonly registry = new Registry();
  private readonly counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter<L>({ name, help, labelNames, registers: [this.registry] });
  private readonly histogram = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Histogram<L>({ name, help, labelNames, buckets: DURATION_BUCKETS, registers: [this.registry] });

  readonly jobs = this.counter(
    "hypofix_jobs_total",
    "Job attempts finished by this process, by kind and outcome (the status, or failed when the attempt threw)",
    ["kind", "outcome"],
  );
  readonly jobSeconds = this.histogram("hypofix_job_duration_seconds", "Wall clock of a job in the worker", [
    "kind",
  ]);
  readonly phaseSeconds = this.histogram(
    "hypofix_phase_duration_seconds",
    "Time spent in each pipeline phase of a fix job",
    ["phase"],
  );
  readonly sandboxStarts = this.counter(
    "hypofix_sandbox_starts_total",
    "Docker sandboxes handed to a run, by source: cold (started for it) or pool (pre-started)",
    ["source"],
  );
  readonly sandboxRuns = this.counter("hypofix_sandbox_runs_total", "Commands run in Docker sandboxes");
  readonly environments = this.counter(
    "hypofix_environment_total",
    "Test environments fix jobs used, by cache: hit (reused) or miss (built, or the base image)",
    ["cache"],
  );
  readonly llmCalls = this.counter("hypofix_llm_calls_total", "Chat-model calls made by fix jobs");
  readonly llmTokens = this.counter(
    "hypofix_llm_tokens_total",
    "Chat-model tokens used by fix jobs, by type (prompt, completion)",
    ["type"],
  );

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: "hypofix_" });
  }

  private queueGauge?: Gauge<"state">;

  /** Reports the queue's job counts by state (its depth) at each scrape; once per process. */
  observeQueue(queueCounts: QueueCounts): void {
    if (this.queueGauge) return;
    this.queueGauge = new Gauge({
      name: "hypofix_queue_jobs",
      help: "Jobs in the queue by state (waiting is the depth)",
      labelNames: ["state"] as const,
      registers: [this.registry],
      async collect() {
        // A scrape while Redis is down shows no queue figures rather than failing or hanging.
        let timer: NodeJS.Timeout | undefined;
        const counts = await Promise.race([
          queueCounts(),
          new Promise<Record<string, number>>((resolve) => (timer = setTimeout(() => resolve({}), 1000))),
        ])
          .catch(() => ({}))
          .finally(() => clearTimeout(timer));
        this.reset();
        for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
      },
    });
  }

  /** Records what a finished fix job's result says: phases, environment cache, model use. */
  recordResult(result: Pick<Result, "timings" | "usage" | "environment">): void {
    for (const [phase, ms] of Object.entries(result.timings)) this.phaseSeconds.observe({ phase }, ms / 1000);
    if (result.environment) this.environments.inc({ cache: result.environment.cached ? "hit" : "miss" });
    this.llmCalls.inc(result.usage.llmCalls);
    this.llmTokens.inc({ type: "prompt" }, result.usage.promptTokens);
    this.llmTokens.inc({ type: "completion" }, result.usage.completionTokens);
  }

  /** Times one job and counts it by its outcome; rethrows what the job throws. */
  async job<T extends Record<string, unknown>>(kind: string, work: () => Promise<T>): Promise<T> {
    const end = this.jobSeconds.startTimer({ kind });
    try {
      const summary = await work();
      this.jobs.inc({ kind, outcome: typeof summary.status === "string" ? summary.status : "done" });
      return summary;
    } catch (err) {
      this.jobs.inc({ kind, outcome: "failed" });
      throw err;
    } finally {
      end();
    }
  }
}

/**
 * This process's metrics. Sandboxes are started deep inside a run (pipeline,
 * audit, re-validation); counting them here keeps those signatures unchanged.
 */
export const metrics = new Metrics({ processMetrics: true });
