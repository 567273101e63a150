import pino from "pino";
import { readableLogDestination } from "./readable-log.server";

const LEVELS = ["debug", "info", "warn", "error", "silent"];
const requested = process.env.LOG_LEVEL ?? "";

interface LoggedError {
  type: string;
  message: string;
  code?: string | number;
  stack?: string;
  cause?: LoggedError;
}

/**
 * Errors as they are logged: name, message, code and stack, never the values
 * a failed query was given or the row a constraint refused. Those hold what a
 * shopper typed (emails, names, password hashes): Drizzle appends a failed
 * query's parameters to its message, and PostgreSQL puts the refused key in
 * an error's `detail`.
 */
function loggedError(error: unknown, depth = 0): LoggedError | undefined {
  if (error === undefined || error === null) return undefined;
  if (typeof error !== "object") return { type: typeof error, message: withoutParameters(String(error)) };
  const { name, message, code, errno, stack, cause } = error as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    errno?: unknown;
    stack?: unknown;
    cause?: unknown;
  };
  const logged: LoggedError = {
    type: typeof name === "string" ? name : (error.constructor?.name ?? "Object"),
    message: withoutParameters(typeof message === "string" ? message : ""),
  };
  const codeValue = typeof code === "string" || typeof code === "number" ? code : errno;
  if (typeof codeValue === "string" || typeof codeValue === "number") logged.code = codeValue;
  if (typeof stack === "string") logged.stack = withoutParameters(stack);
  if (cause !== undefined && depth < 3) logged.cause = loggedError(cause, depth + 1);
  return logged;
}

/** "Failed query: insert …\nparams: ada@example.com,…" keeps the query and loses the values. */
function withoutParameters(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, "\nparams: (not logged)");
}

/**
 * The shop's one logger: JSON lines on stdout — readable lines instead when
 * stdout is a terminal (a person runs `npm start`), so JSON goes only where a
 * program reads it (a pipe, a file, a log collector). Secrets and personal data
 * never reach it: request bodies, cookies and authorization headers are not
 * logged anywhere, errors go through `loggedError`, and fields that could
 * carry an email or a password are removed. Accounts are named by id.
 * An invalid LOG_LEVEL falls back to the default here; the configuration
 * check (env.server.ts) then stops start-up naming it.
 */
export const logger = pino(
  {
    level: LEVELS.includes(requested) ? requested : process.env.NODE_ENV === "test" ? "silent" : "info",
    serializers: { err: loggedError, error: loggedError },
    redact: {
      paths: ["password", "*.password", "email", "*.email", "headers.cookie", "headers.authorization"],
      remove: true,
    },
  },
  process.stdout.isTTY ? readableLogDestination(process.stdout) : undefined,
);

/**
 * Logs a failed operation at error level — unless it failed only because the
 * database pool is refusing work while PostgreSQL is down (its outage is
 * logged once, when it starts and when it ends), which would otherwise write
 * one error per request for the whole outage.
 */
export function logFailure(error: unknown, message: string, fields: Record<string, unknown> = {}) {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if ((current as { name?: unknown }).name === "DatabaseUnavailableError") {
      logger.debug({ ...fields, err: error }, message);
      return;
    }
    current = (current as { cause?: unknown }).cause;
  }
  logger.error({ ...fields, err: error }, message);
}
