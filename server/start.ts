import http from "node:http";
import type { ShopServices } from "../app/context.server";
import { type DatabaseHandle, openDatabase } from "../app/db/client.server";
import { DataDirInUseError } from "../app/db/data-dir-lock.server";
import { migrateDatabase } from "../app/db/migrate.server";
import { seedDemoCatalog } from "../app/db/seed/seed.server";
import { createAccounts } from "../app/features/auth/accounts.server";
import { createCatalog } from "../app/features/catalog/catalog.server";
import { ConfigError, getEnv } from "../app/utils/env.server";
import { logger } from "../app/utils/logger.server";

export interface StartOptions {
  mode: "production" | "development";
  handlerFor(services: ShopServices): http.RequestListener;
}

export interface RunningShop {
  url: string;
  close(): Promise<void>;
}

/** How long open requests may finish after SIGTERM before connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Start-up, in order: configuration, database (embedded or PostgreSQL),
 * migrations, the demo catalogue if the shop is empty, then HTTP.
 */
export async function startShop(options: StartOptions): Promise<RunningShop> {
  const env = getEnv();
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    poolSize: env.DATABASE_POOL_SIZE,
  });
  try {
    await migrateDatabase(database);
    if (env.SEED_DEMO_CATALOG) {
      const { inserted } = await seedDemoCatalog(database.db);
      if (inserted > 0) logger.info({ inserted }, "loaded the demo catalogue");
    }
  } catch (error) {
    await database.close();
    throw error;
  }

  const accounts = createAccounts(env, database.db);
  const services: ShopServices = {
    database,
    catalog: createCatalog(database.db, { cacheSeconds: env.CATALOG_CACHE_SECONDS }),
    auth: accounts.auth,
    demoIdentityProvider: accounts.demoIdentityProvider,
  };
  const server = http.createServer(options.handlerFor(services));
  // Keep-alive longer than typical load balancers' idle timeout (60 s).
  server.keepAliveTimeout = 65_000;
  await listen(server, env.PORT, env.HOST).catch(async (error) => {
    await accounts.close();
    await database.close();
    throw error;
  });

  const url = `http://localhost:${env.PORT}`;
  logger.info(
    {
      url,
      database: database.kind === "pglite" ? `embedded (${env.DATA_DIR})` : "postgresql",
      mode: options.mode,
    },
    `Backline is ready on ${url}`,
  );

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= shutdown(server, database).finally(() => accounts.close());
    return closing;
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      logger.info({ signal }, "shutting down");
      close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  return { url, close };
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

async function shutdown(server: http.Server, database: DatabaseHandle): Promise<void> {
  const forced = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  clearTimeout(forced);
  await database.close();
}

export class StartupError extends Error {
  override name = "StartupError";
}

/** Expected start-up failures print one clear message; anything else is a bug worth its stack. */
export function exitOnStartupError(error: unknown): never {
  if (error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof StartupError) {
    process.stderr.write(`Backline could not start: ${error.message}\n`);
  } else {
    process.stderr.write(
      `Backline could not start:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
}
