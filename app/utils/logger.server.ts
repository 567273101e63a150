import pino from "pino";

/**
 * The shop's one logger: JSON lines on stdout. Secrets never reach it —
 * request bodies, cookies and authorization headers are not logged anywhere.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  redact: { paths: ["password", "*.password", "headers.cookie", "headers.authorization"], remove: true },
});
