import { styleText } from "node:util";

const LEVELS: Record<number, { name: string; color?: "yellow" | "red" | "gray" }> = {
  10: { name: "TRACE", color: "gray" },
  20: { name: "DEBUG", color: "gray" },
  30: { name: "INFO" },
  40: { name: "WARN", color: "yellow" },
  50: { name: "ERROR", color: "red" },
  60: { name: "FATAL", color: "red" },
};

/** Fields every line has, which a person at the terminal does not need repeated. */
const OMITTED = new Set(["level", "time", "msg", "pid", "hostname", "err", "error"]);

interface LoggedError {
  type?: string;
  message?: string;
  stack?: string;
}

/**
 * One of pino's JSON lines as a person reads it on a terminal:
 * `14:02:03 WARN  SMTP_URL is not set: …  outboxDir=/srv/data/outbox`, then an
 * error's stack, indented; in colour if `colors`.
 */
export function readableLine(json: string, { colors }: { colors: boolean }): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json);
  } catch {
    return json;
  }
  const level = LEVELS[Number(record.level)] ?? { name: String(record.level) };
  const clock = new Date(Number(record.time)).toTimeString().slice(0, 8);
  const paint = (color: "yellow" | "red" | "gray" | undefined, text: string) =>
    colors && color ? styleText(color, text, { validateStream: false }) : text;
  const fields = Object.entries(record)
    .filter(([name]) => !OMITTED.has(name))
    .map(([name, value]) => `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  let line = `${paint("gray", clock)} ${paint(level.color, level.name.padEnd(5))} ${String(record.msg ?? "")}`;
  if (fields) line += `  ${paint("gray", fields)}`;
  const error = (record.err ?? record.error) as LoggedError | undefined;
  if (error) {
    const text = error.stack ?? `${error.type ?? "Error"}: ${error.message ?? ""}`;
    line += `\n${text.replace(/^/gm, "    ")}`;
  }
  return `${line}\n`;
}

/** A destination for pino that writes readable lines to a terminal, in colour if it has them (NO_COLOR, FORCE_COLOR). */
export function readableLogDestination(stream: NodeJS.WriteStream) {
  const colors = stream.hasColors?.() ?? false;
  return {
    write(json: string) {
      stream.write(readableLine(json.trimEnd(), { colors }));
    },
  };
}
