import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIOME = path.join(ROOT, "node_modules/.bin/biome");

interface Diagnostic {
  category: string;
  location: { path: { file: string } | string };
}

export interface Fixture {
  /** Where the file stands, relative to the project root: the rules depend on the folder and the ending. */
  file: string;
  source: string;
}

/**
 * Lints fixture files with the project's own Biome configuration, in a
 * scratch copy of the tree's shape, all in one run of Biome (a run per file
 * took most of a minute on two cores). Returns the rules each file breaks,
 * by its path.
 */
export function lintFixtures(fixtures: Fixture[]): Map<string, string[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "backline-lint-"));
  try {
    const config = JSON.parse(fs.readFileSync(path.join(ROOT, "biome.json"), "utf8"));
    // The scratch folder is not a git work tree.
    delete config.vcs;
    delete config.$schema;
    fs.writeFileSync(path.join(scratch, "biome.json"), JSON.stringify(config));
    for (const { file, source } of fixtures) {
      fs.mkdirSync(path.join(scratch, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(scratch, file), source);
    }
    const result = spawnSync(
      BIOME,
      ["lint", "--reporter=json", "--max-diagnostics=none", ...fixtures.map(({ file }) => file)],
      { cwd: scratch, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    const report = JSON.parse(result.stdout) as { diagnostics: Diagnostic[] };
    const broken = new Map(fixtures.map(({ file }) => [file, [] as string[]]));
    for (const { category, location } of report.diagnostics) {
      const file = typeof location.path === "string" ? location.path : location.path.file;
      broken.get(file)?.push(category);
    }
    return broken;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
