/**
 * Redis keys and channels Hypofix keeps beside a BullMQ queue (cancellations,
 * outcomes, per-repository locks, job and token quotas). One place, so the webhook side and
 * the worker agree on them. Everything lives under `hypofix:<queue>:`.
 */
export function queueKeys(queueName: string) {
  const base = `hypofix:${queueName}`;
  return {
    /** Pub/sub channel: `{ jobId, reason }` for a job to stop now. */
    cancelChannel: `${base}:cancel`,
    /** Marker that a job was cancelled (a worker that takes it later sees it). */
    cancelled: (jobId: string) => `${base}:cancelled:${jobId}`,
    /** The job's recorded outcome: written once, whichever run or worker gets there first. */
    outcome: (jobId: string) => `${base}:outcome:${jobId}`,
    /** Held by the one job running for a repository. */
    repoLock: (repo: string) => `${base}:repo-lock:${repo.toLowerCase()}`,
    /** Jobs started for a repository on a UTC day (a set of job ids). */
    quota: (repo: string, day: string) => `${base}:quota:${repo.toLowerCase()}:${day}`,
    /** Model tokens a repository's jobs spent on a UTC day (a counter). */
    tokens: (repo: string, day: string) => `${base}:tokens:${repo.toLowerCase()}:${day}`,
    /** The id of Hypofix's comment for `key` on a repository's issue or pull request. */
    commentId: (repo: string, issue: number, key: string) =>
      `${base}:comment-id:${repo.toLowerCase()}:${issue}:${key}`,
    /** What answered a failure signature in a repository (a review or a fix pull request). */
    answered: (repo: string, signature: string) => `${base}:answered:${repo.toLowerCase()}:${signature}`,
    /** A delivery guid Hypofix asked GitHub to redeliver, with the number of times. */
    redelivered: (guid: string) => `${base}:redelivered:${guid}`,
    /** Held by the process sweeping the App's deliveries, so only one does at a time. */
    redeliverySweep: `${base}:redelivery-sweep`,
  };
}

export type QueueKeys = ReturnType<typeof queueKeys>;
