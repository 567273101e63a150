// Adds the lock-file entries npm leaves out when the registry it reaches has
// no copy of some platform-specific optional packages (this workplace's npm
// mirror serves only Linux builds of @biomejs/cli-* and @tailwindcss/oxide-*).
// Without the entries `npm ci` refuses the lock file as "not in sync".
// Each added entry carries the os/cpu/libc its name states, so npm skips it
// on every other platform and installs it, by version, where it belongs.
// Run after any `npm install` that changed package-lock.json:
//   node scripts/complete-lockfile.mjs
import fs from "node:fs";

const LOCK = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(fs.readFileSync(LOCK, "utf8"));
const packages = lock.packages;

const OS = ["darwin", "win32", "android", "freebsd", "linux", "openbsd", "sunos", "aix"];
const CPU = {
  arm64: "arm64",
  x64: "x64",
  ia32: "ia32",
  arm: "arm",
  wasm32: "wasm32",
  riscv64: "riscv64",
  s390x: "s390x",
  ppc64: "ppc64",
};

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const platform = {};
  const os = parts.find((part) => OS.includes(part));
  if (os) platform.os = [os];
  const cpu = parts.find((part) => part in CPU);
  if (cpu) platform.cpu = [CPU[cpu]];
  if (parts.includes("musl")) platform.libc = ["musl"];
  else if (parts.includes("gnu") || parts.includes("gnueabihf")) platform.libc = ["glibc"];
  return platform;
}

const added = [];
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ""}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform.os && !platform.cpu) continue; // not a platform build: leave it to npm
    packages[`node_modules/${name}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added.push(`${name}@${version}`);
  }
}

// Keep npm's own ordering: entries sorted by path, the root first.
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  added.length ? `Added ${added.length} entries: ${added.join(", ")}` : "The lock file is complete.",
);
