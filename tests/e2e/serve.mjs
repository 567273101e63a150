// Serves the production build for the end-to-end tests on a fresh embedded
// database, so every run starts from the demo catalogue and no users.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-e2e-"));
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "production";
process.env.LOG_LEVEL ??= "warn";
delete process.env.DATABASE_URL;
process.on("exit", () => fs.rmSync(dataDir, { recursive: true, force: true }));
await import(pathToFileURL(path.resolve(process.env.BUILD_DIR ?? "build", "server/index.js")).href);
