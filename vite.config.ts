import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  // The production server (server/main.ts) is bundled together with the
  // React Router server build, so `npm start` runs one plain JS file.
  environments: {
    ssr: {
      build: {
        rollupOptions: { input: { index: "./server/main.ts" } },
      },
    },
  },
  plugins: [tailwindcss(), reactRouter()],
});
