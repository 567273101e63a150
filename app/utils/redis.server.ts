import { Redis } from "ioredis";
import { logger } from "./logger.server";

/**
 * How long the shop waits for Redis. A Redis that stops answering without
 * closing its connections (frozen, or cut off by the network) must not hold
 * a login for seconds: each command gives up after COMMAND_TIMEOUT_MS, and a
 * watchdog that sees a ping time out reconnects, so that until Redis answers
 * again the client is "not ready" and callers fall back at once instead of
 * waiting out a timeout each.
 */
const REDIS_TIMEOUTS = Object.freeze({
  commandMs: 500,
  connectMs: 2_000,
  watchdogMs: 1_000,
  closeMs: 1_000,
});

export interface RedisConnection {
  client: Redis;
  close(): Promise<void>;
}

/**
 * A Redis client for counters that have a fallback: it never queues commands
 * while disconnected, and reports an outage once at warn level (and its end at
 * info), not once per request.
 */
export function connectRedis(url: string, purpose: string): RedisConnection {
  const client = new Redis(url, {
    commandTimeout: REDIS_TIMEOUTS.commandMs,
    connectTimeout: REDIS_TIMEOUTS.connectMs,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  let down = false;
  const reportDown = (reason: string) => {
    if (down) return;
    down = true;
    logger.warn({ reason }, `Redis is unavailable; ${purpose} until it is back`);
  };
  client.on("error", (error: NodeJS.ErrnoException) => reportDown(error.code ?? error.message));
  client.on("ready", () => {
    if (down) logger.info("Redis is back");
    down = false;
  });
  const watchdog = setInterval(() => {
    if (client.status !== "ready") return;
    client.ping().catch((error: Error) => {
      if (!/timed out/i.test(error.message)) return;
      reportDown("it stopped answering");
      client.disconnect(true);
    });
  }, REDIS_TIMEOUTS.watchdogMs);
  watchdog.unref();

  return {
    client,
    async close() {
      clearInterval(watchdog);
      let timer: NodeJS.Timeout | undefined;
      // QUIT waits for Redis to answer; a frozen Redis never does.
      await Promise.race([
        client.quit().catch(() => undefined),
        new Promise((resolve) => {
          timer = setTimeout(resolve, REDIS_TIMEOUTS.closeMs);
        }),
      ]);
      clearTimeout(timer);
      client.disconnect();
    },
  };
}
