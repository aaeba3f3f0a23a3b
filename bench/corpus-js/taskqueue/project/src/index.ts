export { backoffDelay, retry, RetryError, type BackoffOptions, type RetryOptions } from './backoff';
export { ManualClock, systemClock, type Clock } from './clock';
export { KeyedQueues } from './keyed';
export { QueueClearedError, TaskQueue, type QueueOptions, type TaskOptions } from './queue';
export { TokenBucket, type BucketOptions } from './token-bucket';
