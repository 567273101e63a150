import http from "node:http";
import { inspect } from "node:util";
import type { ShopLifecycle } from "../app/context.server";
import { type DatabaseHandle, EmbeddedDatabaseError, openDatabase } from "../app/db/client.server";
import { DataDirInUseError } from "../app/db/data-dir-lock.server";
import { migrateDatabase } from "../app/db/migrate.server";
import { seedDemoCatalog } from "../app/db/seed/seed.server";
import { DatabaseConfigurationError, waitForDatabase } from "../app/db/wait-for-database.server";
import { AuthSecretError, checkSecretFile } from "../app/features/auth/auth-secret.server";
import { ConfigError, type Env, getEnv } from "../app/utils/env.server";
import { logger } from "../app/utils/logger.server";
import { type ShopConnections, trackConnections } from "./connections";
import { boundHeapGrowth } from "./heap-growth";
import { createShopServices, type ShopRuntime } from "./services";
import { answerClientError, continueWhenAccepted, refuseTunnel } from "./shop-server";
import { exitSaying } from "./startup-failure";

export interface StartOptions {
  mode: "production" | "development";
  handlerFor(runtime: ShopRuntime, env: Env): http.RequestListener;
}

export interface RunningShop {
  url: string;
  close(): Promise<void>;
}

/** How long requests in flight may finish after SIGTERM before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;
/** The longest a client may take to send its request headers (slow-header attacks). */
const MAX_HEADERS_TIMEOUT_MS = 10_000;

/**
 * Start-up, in order: configuration, database (embedded or PostgreSQL, waited
 * for if it is not up yet), migrations, the demo catalogue if the shop is
 * empty, the services, then HTTP. SIGTERM or SIGINT at any point stops it
 * cleanly: before HTTP it simply exits; after, it drains (see shutdown below).
 */
export async function startShop(options: StartOptions): Promise<RunningShop> {
  const env = getEnv();
  const stopRequested = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => stopRequested.abort(signal);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  if (!env.DATABASE_URL && !env.BETTER_AUTH_SECRET) checkSecretFile(env.DATA_DIR);
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    poolSize: env.DATABASE_POOL_SIZE,
  });
  let runtime: ShopRuntime;
  try {
    await waitForDatabase(database, { databaseUrl: env.DATABASE_URL, signal: stopRequested.signal });
    await migrateDatabase(database);
    if (env.SEED_DEMO_CATALOG) {
      const { inserted } = await seedDemoCatalog(database.db);
      if (inserted > 0) logger.info({ inserted }, "loaded the demo catalogue");
    }
    runtime = await createShopServices(env, database);
  } catch (error) {
    await database.close();
    if (stopRequested.signal.aborted) {
      logger.info({ signal: stopRequested.signal.reason }, "stopped before it was ready");
      process.exit(0);
    }
    throw error;
  }

  const requestTimeoutMs = env.REQUEST_TIMEOUT_SECONDS * 1000;
  const handler = options.handlerFor(runtime, env);
  const server = http.createServer(
    {
      // Slow clients (slow headers, slow bodies) are cut off instead of
      // holding a connection open indefinitely; checked every second.
      headersTimeout: Math.min(MAX_HEADERS_TIMEOUT_MS, requestTimeoutMs),
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: 1_000,
    },
    handler,
  );
  // A client that asks first (Expect: 100-continue) is invited to send its
  // body only when the shop will read it; a refused one gets its 413 at once.
  server.on("checkContinue", continueWhenAccepted(handler));
  // CONNECT (a tunnel request) arrives as an event of its own; it gets its 405 there.
  server.on("connect", refuseTunnel);
  // What Node's parser refuses (an address past 16 KB, say) is answered in JSON too.
  server.on("clientError", answerClientError);
  // Keep-alive longer than typical load balancers' idle timeout (60 s).
  server.keepAliveTimeout = 65_000;
  const connections = trackConnections(server);
  await listen(server, env.PORT, env.HOST).catch(async (error) => {
    await runtime.close();
    await database.close();
    throw error;
  });

  runtime.listening();
  logger.info(
    {
      url: env.BASE_URL,
      database: database.kind === "pglite" ? `embedded (${env.DATA_DIR})` : "postgresql",
      mode: options.mode,
    },
    `listening on ${env.HOST}:${env.PORT}`,
  );
  // For the person who ran `npm start`, whatever stdout is: stderr, in words, once the shop answers
  // from its search index (when /healthz says 200; a large catalogue takes seconds to read).
  void runtime.services.catalog.indexReady().then(() => {
    boundHeapGrowth();
    process.stderr.write(readyMessage(env.BASE_URL, runtime));
  });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= shutdown({ connections, lifecycle: runtime.services.lifecycle, runtime, database });
    return closing;
  };
  const exitAfterClose = () =>
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  if (stopRequested.signal.aborted) exitAfterClose();
  else stopRequested.signal.addEventListener("abort", exitAfterClose, { once: true });
  return { url: env.BASE_URL, close };
}

/** What a person reads once the shop answers: its address, and what the local demo turns on. */
function readyMessage(baseUrl: string, runtime: ShopRuntime): string {
  const lines = [`Backline is ready: ${baseUrl}`];
  if (runtime.demoIdentityProvider) {
    lines.push(
      "  Demo sign-in: 'Continue with Google' signs in any email through a local stand-in for Google.",
    );
  }
  if (runtime.demoPaymentProvider) {
    lines.push(
      "  Demo card payments: 'Card' at checkout pays on a local stand-in for Stripe; no money moves.",
    );
  }
  if (runtime.services.devOutbox) {
    lines.push(`  The emails it sends (confirmations, password resets): ${baseUrl}/dev/outbox`);
  }
  return `${lines.join("\n")}\n`;
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") {
        reject(
          new StartupError(
            `Port ${port} is already in use. Stop the other server or set PORT to a free port.`,
          ),
        );
      } else reject(error);
    });
    server.listen(port, host, () => resolve());
  });
}

/**
 * Graceful shutdown: the listener closes, so load balancers' next health
 * check fails and new connections go elsewhere; /healthz on a connection
 * still open says 503; requests in flight finish (up to the grace period),
 * and a request that arrives on a connection already open is answered with
 * Connection: close (server/connections.ts); then the services (emails still
 * going out, Redis) and the database pool close, each within a bounded time
 * even if what is behind them stopped answering.
 */
async function shutdown(parts: {
  connections: ShopConnections;
  lifecycle: ShopLifecycle;
  runtime: ShopRuntime;
  database: DatabaseHandle;
}): Promise<void> {
  const { connections, lifecycle } = parts;
  lifecycle.draining = true;
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, SHUTDOWN_GRACE_MS);
  });
  const drained = connections.drain(graceOver);
  // Logged once new connections are refused, so whoever reads it can rely on that.
  logger.info(
    { inFlight: connections.inFlight() },
    "shutting down: no new connections; finishing requests in flight",
  );
  await drained;
  clearTimeout(timer);
  if (connections.inFlight() > 0) {
    logger.warn({ requests: connections.inFlight() }, "cut off requests still running");
  }
  connections.closeAll();
  await parts.runtime.close();
  await parts.database.close();
  logger.info("stopped");
}

class StartupError extends Error {
  override name = "StartupError";
}

const EXPECTED = [
  ConfigError,
  DataDirInUseError,
  StartupError,
  EmbeddedDatabaseError,
  AuthSecretError,
  DatabaseConfigurationError,
];

/** What went wrong at start-up, in words: a stack trace only for what is a bug. */
function describeStartupError(error: unknown): string {
  if (EXPECTED.some((kind) => error instanceof kind)) return (error as Error).message;
  const message = error instanceof Error ? error.message : "";
  const code = (error as { code?: unknown } | null)?.code;
  if (/no space left on device/i.test(message) || code === "53100" || code === "ENOSPC") {
    return `The disk holding the database is full (${message.split("\n")[0]}). Free some space and start again.`;
  }
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) {
    return `The database refused a start-up step: ${message} (PostgreSQL error ${code}).`;
  }
  if (error instanceof Error) return `\n${error.stack ?? error.message}`;
  return `\n${inspect(error, { depth: 3 })}`;
}

export function exitOnStartupError(error: unknown): never {
  exitSaying(describeStartupError(error));
}
