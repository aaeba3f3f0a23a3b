import type { Logger } from "pino";
import type { CheckRunConclusion, FoundCheckRun } from "../outbound/check-run.js";
import type { RepoHost } from "../outbound/repo-host.js";
import { checkRunEnd, checkRunProgress, type OwnLink, type PhaseNote } from "../report/check-run.js";

export type Conclusion = CheckRunConclusion["conclusion"];

/**
 * A job's "Hypofix" check run on its head commit: `in_progress` from the start,
 * its summary updated after every phase, concluded once. GitHub trouble never
 * fails the job: every call is logged and skipped when it fails, and a run that
 * could not be started is created at the end instead.
 */
export class JobCheck {
  private id: number | undefined;
  private readonly notes: PhaseNote[] = [];
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: RepoHost,
    private readonly headSha: string,
    /** Stable across a job's attempts, so a retry keeps the same check run. */
    private readonly externalId: string,
    private readonly log: Logger,
  ) {}

  /**
   * Finds the job's unfinished check run (a retry) or creates one, `in_progress`.
   * `known`: the run the caller has already looked up, so it is not asked for twice.
   */
  async start(known?: FoundCheckRun): Promise<void> {
    await this.safely("start", async () => {
      const found = known ?? (await this.host.findCheckRun(this.headSha, this.externalId));
      if (found && found.status !== "completed") {
        this.id = found.id;
        await this.host.updateCheckRun(found.id, checkRunProgress(this.notes));
      } else {
        this.id = await this.host.createCheckRun(this.headSha, this.externalId, checkRunProgress(this.notes));
      }
    });
  }

  /** A phase finished: the summary lists it. Updates are sent in order, without holding the job up. */
  phase(phase: string, line: string): void {
    this.notes.push({ phase, line });
    const progress = checkRunProgress(this.notes);
    this.pending = this.pending.then(() =>
      this.safely("update", async () => {
        if (this.id !== undefined) await this.host.updateCheckRun(this.id, progress);
      }),
    );
  }

  /** Waits for the updates sent so far. */
  settled(): Promise<void> {
    return this.pending;
  }

  /** Ends the check run; `reason` is untrusted plain text, `report` Markdown from src/report/, `link` our own. */
  async conclude(
    conclusion: Conclusion,
    title: string,
    reason: string,
    options: { report?: string; link?: OwnLink } = {},
  ): Promise<void> {
    await this.pending;
    const end: CheckRunConclusion = {
      conclusion,
      ...checkRunEnd(title, reason, this.notes, options),
      ...(options.link ? { detailsUrl: options.link.url } : {}),
    };
    await this.safely("conclude", async () => {
      this.id ??= await this.host.createCheckRun(this.headSha, this.externalId, checkRunProgress(this.notes));
      await this.host.concludeCheckRun(this.id, end);
    });
  }

  private async safely(step: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      this.log.warn({ step, err: err instanceof Error ? err.message : String(err) }, "check run call failed");
    }
  }
}

/** Why a signal was aborted, as one line. */
export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message;
  return typeof reason === "string" && reason ? reason : "the job was cancelled";
}
