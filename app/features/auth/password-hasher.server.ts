import { argon2, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Password storage: argon2id with OWASP's first recommended setting
 * (m = 19 MiB, t = 2, p = 1), through Node 24's built-in `crypto.argon2`. It
 * runs on libuv's thread pool, so hashing never blocks the event loop, and it
 * needs no native add-on. Hashes are PHC strings that carry their own
 * parameters, so the setting can be raised later without breaking old hashes.
 * See docs/decisions/0005-password-hashing.md.
 */
export interface Argon2Parameters {
  /** Memory in KiB. */
  memory: number;
  passes: number;
  parallelism: number;
  tagLength: number;
  saltLength: number;
}

export const PASSWORD_HASH_PARAMETERS: Readonly<Argon2Parameters> = Object.freeze({
  memory: 19 * 1024,
  passes: 2,
  parallelism: 1,
  tagLength: 32,
  saltLength: 16,
});

/** Guards against hashes crafted to make verification exhaust memory or time. */
const LIMITS = { maxMemory: 1024 * 1024, maxPasses: 10, maxParallelism: 16, maxTagLength: 64 };

function derive(password: string, salt: Buffer, parameters: Argon2Parameters): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    argon2(
      "argon2id",
      {
        message: Buffer.from(password.normalize("NFKC"), "utf8"),
        nonce: salt,
        memory: parameters.memory,
        passes: parameters.passes,
        parallelism: parameters.parallelism,
        tagLength: parameters.tagLength,
      },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

const b64 = (buffer: Buffer) => buffer.toString("base64").replace(/=+$/, "");

export async function hashPassword(
  password: string,
  parameters: Argon2Parameters = PASSWORD_HASH_PARAMETERS,
): Promise<string> {
  const salt = randomBytes(parameters.saltLength);
  const key = await derive(password, salt, parameters);
  return `$argon2id$v=19$m=${parameters.memory},t=${parameters.passes},p=${parameters.parallelism}$${b64(salt)}$${b64(key)}`;
}

export interface ParsedHash {
  parameters: Argon2Parameters;
  salt: Buffer;
  key: Buffer;
}

const PHC =
  /^\$argon2id\$v=19\$m=(\d{1,8}),t=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{22,})$/;

export function parseHash(hash: string): ParsedHash | null {
  const match = PHC.exec(hash);
  if (!match) return null;
  const [, m, t, p, salt, key] = match as unknown as [string, string, string, string, string, string];
  const parameters = {
    memory: Number(m),
    passes: Number(t),
    parallelism: Number(p),
    tagLength: Buffer.from(key, "base64").length,
    saltLength: Buffer.from(salt, "base64").length,
  };
  if (
    parameters.memory < 8 * parameters.parallelism ||
    parameters.memory > LIMITS.maxMemory ||
    parameters.passes < 1 ||
    parameters.passes > LIMITS.maxPasses ||
    parameters.parallelism < 1 ||
    parameters.parallelism > LIMITS.maxParallelism ||
    parameters.tagLength > LIMITS.maxTagLength
  ) {
    return null;
  }
  return { parameters, salt: Buffer.from(salt, "base64"), key: Buffer.from(key, "base64") };
}

/** Constant-time comparison; a malformed stored hash never matches. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  const parsed = parseHash(hash);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.parameters);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** True when a stored hash uses weaker parameters than today's (for a re-hash on next login). */
export function needsRehash(hash: string): boolean {
  const parsed = parseHash(hash);
  if (!parsed) return true;
  const current = PASSWORD_HASH_PARAMETERS;
  return (
    parsed.parameters.memory < current.memory ||
    parsed.parameters.passes < current.passes ||
    parsed.parameters.tagLength < current.tagLength
  );
}
