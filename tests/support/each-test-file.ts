import { afterAll, afterEach, vi } from "vitest";
import { settleShopMoney, shopMoneyOf } from "~/commerce/shop-money.server";

// Run before every test file (vitest.config.ts's setupFiles).
//
// An unexpected console.error is a bug: fail the test that caused it.
// A test that expects one spies on console.error itself.
//
// The unit tests share one module cache per worker (vitest.config.ts, isolate: false), so this
// runs again for each file in the same process: the console is wrapped only once, and each file
// starts as the first would, whatever the file before it changed.
const consoleState = globalThis as typeof globalThis & {
  unexpectedErrors?: unknown[][];
  originalConsoleError?: typeof console.error;
};
if (!consoleState.originalConsoleError) {
  const original = console.error;
  consoleState.originalConsoleError = original;
  consoleState.unexpectedErrors = [];
  console.error = (...args: unknown[]) => {
    consoleState.unexpectedErrors?.push(args);
    original(...args);
  };
}
consoleState.unexpectedErrors = [];
// A deprecated call is tomorrow's failure: it throws in the test that made it (Node warns once per
// process, so the first one is the one caught). pg, for one, refuses in its next major version a
// query sent on a connection that is still running another.
process.throwDeprecation = true;
// The configuration's currency, whichever currency a catalogue index read in the file before.
settleShopMoney(shopMoneyOf({}));

afterEach(() => {
  const seen = consoleState.unexpectedErrors ?? [];
  consoleState.unexpectedErrors = [];
  if (seen.length > 0 && !vi.isMockFunction(console.error)) {
    throw new Error(`console.error was called during the test:\n${seen.map((a) => a.join(" ")).join("\n")}`);
  }
});

// Nothing a file stubbed or faked reaches the next file.
afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
