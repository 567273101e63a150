import type { Config } from "@react-router/dev/config";

export default {
  // Server rendering: every page, filters included, arrives complete in the first HTML.
  ssr: true,
  // BUILD_DIR lets two builds live side by side (e.g. parallel test runs); default build/.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
