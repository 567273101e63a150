// `npm start`: build when the build is missing or older than the sources,
// then run the production server (which migrates and seeds by itself).
// What it says to a person goes to stderr: stdout carries the shop's logs,
// JSON lines wherever stdout is not a terminal.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const entry = path.join(buildDir, "server/index.js");
// Next to the build, not in it: the build empties its folder first.
const buildLog = `${buildDir}.log`;
const sources = ["app", "server", "public", "package-lock.json", "vite.config.ts", "react-router.config.ts"];
const say = (line) => process.stderr.write(`${line}\n`);

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
  say(
    built
      ? "Sources changed since the last build: building the shop again (about a minute)…"
      : "First start: building the shop (about a minute; later starts skip this unless the code changes)…",
  );
  const started = Date.now();
  // The build's own output (dozens of lines, bundler timings) is kept for when it fails.
  const log = fs.openSync(buildLog, "w");
  const cli = path.join(root, "node_modules/@react-router/dev/bin.cjs");
  const result = spawnSync(process.execPath, [cli, "build"], { cwd: root, stdio: ["ignore", log, log] });
  fs.closeSync(log);
  const shown = path.relative(process.cwd(), buildLog);
  if (result.status !== 0) {
    process.stderr.write(fs.readFileSync(buildLog, "utf8"));
    if (result.error) say(String(result.error));
    say(`The build failed (its output is above, and in ${shown}).`);
    process.exit(result.status ?? 1);
  }
  say(`Built in ${Math.round((Date.now() - started) / 1000)} s (the build's output is in ${shown}).`);
}

process.env.NODE_ENV ??= "production";
await import(pathToFileURL(entry).href);
