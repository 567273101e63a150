import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { logger } from "~/utils/logger.server";

const SECRET_FILE = "auth-secret";

/**
 * The secret that signs session cookies and OAuth state. BETTER_AUTH_SECRET
 * when set; otherwise (the two-command local demo) one generated on first
 * start and kept in DATA_DIR with mode 0600, so sessions survive restarts.
 * Several processes must share one secret: set BETTER_AUTH_SECRET for them.
 */
export function resolveAuthSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.resolve(dataDir, SECRET_FILE);
  try {
    const stored = fs.readFileSync(file, "utf8").trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  // "wx": never overwrite a secret another process wrote meanwhile.
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return fs.readFileSync(file, "utf8").trim();
    throw error;
  }
  logger.info({ file }, "BETTER_AUTH_SECRET is not set: generated a session secret and saved it (mode 0600)");
  return secret;
}
