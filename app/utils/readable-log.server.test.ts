import { describe, expect, it } from "vitest";
import { readableLine } from "./readable-log.server";

const plain = { colors: false };
const at = new Date(2026, 10, 25, 14, 2, 3).getTime();

describe("readable log lines on a terminal", () => {
  it("shows the time, the level and the message, then the fields without pid and hostname", () => {
    const json = JSON.stringify({
      level: 40,
      time: at,
      pid: 1,
      hostname: "vm",
      outboxDir: "/srv/data/outbox",
      inFlight: 2,
      msg: "SMTP_URL is not set",
    });
    expect(readableLine(json, plain)).toBe(
      "14:02:03 WARN  SMTP_URL is not set  outboxDir=/srv/data/outbox inFlight=2\n",
    );
  });

  it("puts an error's stack under its line, indented", () => {
    const json = JSON.stringify({
      level: 50,
      time: at,
      err: { type: "Error", message: "boom", stack: "Error: boom\n    at here" },
      msg: "request failed",
    });
    expect(readableLine(json, plain)).toBe(
      "14:02:03 ERROR request failed\n    Error: boom\n        at here\n",
    );
  });

  it("passes a line that is not JSON through as it is", () => {
    expect(readableLine("not json", plain)).toBe("not json");
  });
});
