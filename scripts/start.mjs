// `npm start`: build when the build is missing or older than the sources,
// then run the production server (which migrates and seeds by itself).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const entry = path.join(root, process.env.BUILD_DIR ?? "build", "server/index.js");
const sources = ["app", "server", "public", "package-lock.json", "vite.config.ts", "react-router.config.ts"];

function newestChange(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, name)));
  return newest;
}

const built = fs.statSync(entry, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const changed = Math.max(...sources.map((source) => newestChange(path.join(root, source))));
if (built < changed) {
  console.log(built ? "Sources changed since the last build: building…" : "No build yet: building…");
  const result = spawnSync("react-router", ["build"], { cwd: root, stdio: "inherit", shell: false });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

process.env.NODE_ENV ??= "production";
await import(pathToFileURL(entry).href);
