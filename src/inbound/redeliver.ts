import type { Redis } from "ioredis";
import type { Logger } from "../log.js";
import type { QueueKeys } from "../queue/keys.js";

/** One attempt to deliver a webhook, as `GET /app/hook/deliveries` lists it. */
export interface Delivery {
  id: number;
  /** Same for every attempt of one event (the X-GitHub-Delivery header). */
  guid: string;
  delivered_at: string;
  status_code: number;
  event: string;
}

/**
 * The deliveries to ask GitHub to send again: per event (guid), the latest attempt,
 * when no attempt of it was answered 2xx and it is not older than `since`. GitHub
 * never resends a failed delivery by itself.
 */
export function deliveriesToRedeliver(deliveries: Delivery[], since: number): Delivery[] {
  const byGuid = new Map<string, Delivery[]>();
  for (const d of deliveries) byGuid.set(d.guid, [...(byGuid.get(d.guid) ?? []), d]);
  const failed: Delivery[] = [];
  for (const attempts of byGuid.values()) {
    if (attempts.some((d) => d.status_code >= 200 && d.status_code < 300)) continue;
    const latest = attempts.reduce((a, b) =>
      Date.parse(b.delivered_at) > Date.parse(a.delivered_at) ? b : a,
    );
    if (Date.parse(latest.delivered_at) >= since) failed.push(latest);
  }
  return failed;
}

/** What the sweep needs from GitHub, authenticated as the App (JWT). */
export interface AppHookApi {
  paginate: {
    iterator(
      route: "GET /app/hook/deliveries",
      parameters: { per_page: number },
    ): AsyncIterable<{ data: Delivery[] }>;
  };
  request(
    route: "POST /app/hook/deliveries/{delivery_id}/attempts",
    parameters: { delivery_id: number },
  ): Promise<unknown>;
}

export interface RedeliveryOptions {
  redis: Redis;
  keys: QueueKeys;
  log: Logger;
  /** How far back to look (GitHub keeps deliveries three days). */
  windowMs?: number;
  /** Redeliveries asked for one event at most; a delivery our server keeps refusing is not asked for forever. */
  maxAttempts?: number;
  now?: number;
}

const DEFAULT_WINDOW_MS = 24 * 3600_000;

/**
 * Lists the App's recent deliveries and asks GitHub to redeliver the failed ones.
 * A redelivery is an ordinary delivery to the webhook path, deduplicated there like
 * any other. Returns the guids asked for.
 */
export async function redeliverFailed(api: AppHookApi, options: RedeliveryOptions): Promise<string[]> {
  const now = options.now ?? Date.now();
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const since = now - windowMs;
  const seen: Delivery[] = [];
  // Newest first: stop paging once a page reaches past the window.
  for await (const page of api.paginate.iterator("GET /app/hook/deliveries", { per_page: 100 })) {
    seen.push(...page.data);
    if (page.data.some((d) => Date.parse(d.delivered_at) < since)) break;
  }
  const asked: string[] = [];
  for (const delivery of deliveriesToRedeliver(seen, since)) {
    const key = options.keys.redelivered(delivery.guid);
    const [[, count]] = (await options.redis.multi().incr(key).pexpire(key, windowMs).exec()) as [
      [unknown, number],
    ];
    if (count > (options.maxAttempts ?? 3)) continue;
    try {
      await api.request("POST /app/hook/deliveries/{delivery_id}/attempts", { delivery_id: delivery.id });
      asked.push(delivery.guid);
    } catch (err) {
      options.log.warn(
        { guid: delivery.guid, err: err instanceof Error ? err.message : String(err) },
        "redelivery refused",
      );
    }
  }
  if (asked.length > 0) options.log.info({ redelivered: asked }, "asked GitHub to redeliver failed webhooks");
  return asked;
}

/**
 * Sweeps now and every `intervalMs`; when several workers run, one sweeps per
 * interval (a Redis lock). Returns a function that stops it.
 */
export function startRedelivery(
  app: () => Promise<AppHookApi>,
  options: RedeliveryOptions & { intervalMs: number },
): () => void {
  const tick = async () => {
    const lock = await options.redis.set(
      options.keys.redeliverySweep,
      String(process.pid),
      "PX",
      options.intervalMs,
      "NX",
    );
    if (lock !== "OK") return;
    await redeliverFailed(await app(), { ...options, now: Date.now() });
  };
  const run = () =>
    void tick().catch((err: unknown) =>
      options.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        "could not sweep webhook deliveries",
      ),
    );
  run();
  const timer = setInterval(run, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
