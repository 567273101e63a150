/**
 * Lists the SQL a server runs for each request it answers: loaded into the
 * shop or the floor server (`NODE_OPTIONS=--import=<this file's URL>`, with
 * STATEMENT_CAPTURE_FILE naming where to write), it appends one JSON line per
 * statement: the request that caused it (its number and `METHOD /path`, null
 * for background work begun by none) and the statement's text. Parameters are
 * never written: they hold shoppers' emails and addresses.
 *
 * It watches pg's Client, which every pool connection is, so it sees exactly
 * what reaches PostgreSQL (BEGIN and COMMIT included) whatever builds the
 * SQL. Used by bench/floor-check.ts; not for a measured run (it writes a line
 * synchronously per statement).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import http from "node:http";
import pg from "pg";

const file = process.env.STATEMENT_CAPTURE_FILE;
if (!file) throw new Error("statement-capture.mjs: set STATEMENT_CAPTURE_FILE");

const requests = new AsyncLocalStorage();
let counter = 0;

// Every statement issued while a request is being answered, or by work it started, carries its number.
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function emitInRequest(event, ...args) {
  if (event !== "request") return emit.call(this, event, ...args);
  const [request] = args;
  const owner = { id: ++counter, route: `${request.method} ${request.url.split("?")[0]}` };
  return requests.run(owner, () => emit.call(this, event, ...args));
};

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function capturedQuery(config, ...rest) {
  const text = typeof config === "string" ? config : config?.text;
  const owner = requests.getStore() ?? null;
  fs.appendFileSync(
    file,
    `${JSON.stringify({ request: owner?.id ?? null, route: owner?.route ?? null, text })}\n`,
  );
  return query.call(this, config, ...rest);
};
