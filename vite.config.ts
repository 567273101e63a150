import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * Packages the production server loads from node_modules instead of from its bundle, because they
 * read files next to their own modules or start threads by file name: PGlite its WebAssembly and
 * data files, sharp its native addon, pino its transport worker, i18n-iso-countries its languages
 * by computed name; pg has an optional native driver it requires inside a try, and oidc-provider
 * (the demo's identity provider) is loaded only when the demo turns it on.
 */
const LOADED_FROM_NODE_MODULES = [
  "@electric-sql/pglite",
  "sharp",
  "pino",
  "i18n-iso-countries",
  "pg",
  "oidc-provider",
];

export default defineConfig(({ command }) => ({
  resolve: { tsconfigPaths: true },
  environments: {
    // React, React DOM and React Router in one chunk, which every page loads and which changes
    // only with them: smaller gzipped than five pieces, and fewer requests (docs/decisions/0017).
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
                // The frame every page draws (header, footer, error page, buttons, icons, toasts): one
                // chunk instead of nine small ones, each a request and an import list of its own. The
                // shop page loads 16 files instead of 25, 134 KiB gzip instead of 135.8 (budget 135).
                {
                  name: "shell",
                  test: /app[\\/](components[\\/](layout|ui[\\/](button|icons|popover))|utils[\\/](hydrated|locale|redirect|nonce|toast))/,
                },
              ],
            },
          },
        },
      },
    },
    // The production server (server/main.ts) is bundled together with the React Router server
    // build and its dependencies, so `npm start` runs one plain JS file: resolving the 1,300 modules
    // of node_modules one by one took a third of each start (3.6 s to ready, 6.1 s of CPU; bundled
    // 2.4 s and 4.3 s), which a restart, a deploy and every test that starts a shop pay.
    // `npm run dev` keeps them external (Vite's dev server loads node_modules as Node does).
    ssr: {
      ...(command === "build" && { resolve: { noExternal: true, external: LOADED_FROM_NODE_MODULES } }),
      build: {
        rollupOptions: {
          input: { index: "./server/main.ts" },
          // The parts loaded after the configuration is checked (server/main.ts) sit beside the
          // entry, so that paths the server takes from its own module (../client) hold in each.
          output: { chunkFileNames: "[name]-[hash].js" },
        },
      },
    },
  },
  plugins: [tailwindcss(), reactRouter()],
}));
