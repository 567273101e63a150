import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "server/**/*.test.ts",
      "scripts/**/*.test.ts",
      "tests/integration/**/*.test.ts",
      "tests/architecture/**/*.test.ts",
    ],
    environment: "node",
    setupFiles: ["./tests/support/fail-on-console-error.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
