import pg from "pg";
import { logger } from "~/utils/logger.server";

/** Waits between attempts to listen again after the connection was lost, growing to the last. */
const RECONNECT_DELAYS_MS = [250, 1_000, 2_000, 5_000];

/** How long closing waits for the server to acknowledge. */
const CLOSE_MS = 1_000;

export interface Listening {
  close(): Promise<void>;
}

/**
 * Listens on a PostgreSQL notification channel on a connection of its own
 * (a pooled one would be handed to other queries): `onNotify` runs on each
 * notification, and once more after every reconnection, since notifications
 * sent while the connection was down are lost. The connection is kept up
 * for as long as the process runs and is tried again while PostgreSQL is
 * away.
 */
export function listenForNotifications(
  connectionString: string,
  channel: string,
  onNotify: () => void,
): Listening {
  /** The connection in use or being made; events of any other are ignored. */
  let current: pg.Client | null = null;
  let closed = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (closed) return;
    const attempt = new pg.Client({
      connectionString,
      connectionTimeoutMillis: 3_000,
      // LISTEN answers at once; a server that does not is as good as gone.
      query_timeout: 5_000,
      // A connection that only listens sends nothing: keep-alive probes after 10 s idle find out
      // when a NAT or a load balancer dropped it (the system's default waits two hours).
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    current = attempt;
    attempt.on("error", () => lost(attempt));
    attempt.on("end", () => lost(attempt));
    attempt.on("notification", (message) => {
      if (attempt === current && message.channel === channel) onNotify();
    });
    try {
      await attempt.connect();
      await attempt.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      if (failures === 0) {
        logger.warn(
          { channel, reason: (error as Error).message },
          "cannot listen for catalogue changes; trying again",
        );
      }
      lost(attempt);
      return;
    }
    if (closed || attempt !== current) {
      await attempt.end().catch(() => undefined);
      return;
    }
    if (failures > 0) {
      logger.info({ channel }, "listening for catalogue changes again");
      // Whatever changed while nobody listened is taken as changed.
      onNotify();
    }
    failures = 0;
  };

  /** The connection `client` failed or ended: drop it (only once), and try again after a while. */
  const lost = (client: pg.Client) => {
    if (client !== current) return;
    current = null;
    client.removeAllListeners();
    // Errors of a connection being dropped are of no interest any more.
    client.on("error", () => {});
    client.end().catch(() => undefined);
    if (closed) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length - 1)];
    failures++;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    timer.unref();
  };

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const open = current;
      current = null;
      if (!open) return;
      open.removeAllListeners();
      open.on("error", () => {});
      // A server that stopped answering never acknowledges the goodbye: give it a moment, then drop the socket.
      let timeout: NodeJS.Timeout | undefined;
      const ended = await Promise.race([
        open.end().then(
          () => true,
          () => true,
        ),
        new Promise<false>((resolve) => {
          timeout = setTimeout(() => resolve(false), CLOSE_MS);
        }),
      ]);
      clearTimeout(timeout);
      if (!ended)
        (open as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    },
  };
}
