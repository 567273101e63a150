import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
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
    // The production server (server/main.ts) is bundled together with the
    // React Router server build, so `npm start` runs one plain JS file.
    ssr: {
      build: {
        rollupOptions: { input: { index: "./server/main.ts" } },
      },
    },
  },
  plugins: [tailwindcss(), reactRouter()],
});
