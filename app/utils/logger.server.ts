import pino from "pino";

const LEVELS = ["debug", "info", "warn", "error", "silent"];
const requested = process.env.LOG_LEVEL ?? "";

/**
 * The shop's one logger: JSON lines on stdout. Secrets never reach it —
 * request bodies, cookies and authorization headers are not logged anywhere.
 * An invalid LOG_LEVEL falls back to the default here; the configuration
 * check (env.server.ts) then stops start-up naming it.
 */
export const logger = pino({
  level: LEVELS.includes(requested) ? requested : process.env.NODE_ENV === "test" ? "silent" : "info",
  redact: { paths: ["password", "*.password", "headers.cookie", "headers.authorization"], remove: true },
});
