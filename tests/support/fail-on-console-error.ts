import { afterAll, afterEach, vi } from "vitest";
import { settleShopMoney, shopMoneyOf } from "~/commerce/shop-money.server";

// An unexpected console.error is a bug: fail the test that caused it.
// A test that expects one spies on console.error itself.
//
// The unit tests share one module cache per worker (vitest.config.ts, isolate: false), so this
// file runs once per test file in the same process: the console is wrapped once, and each file
// starts from what the one before it may have changed.
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
