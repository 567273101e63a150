import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { count } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { catalogRevisions, products } from "~/db/schema";
import { writeCatalogFile } from "~/features/catalog/management/index.server";
import {
  describeOnEmbedded,
  describeWhen,
  postgresServer,
  SCRIPT,
  terminalRecorder,
} from "../support/requirements";
import { startShopProcess, temporaryDataDir } from "../support/shop-process";
import { createScratchPostgres, type ScratchPostgres } from "../support/test-database";
import { testProcessFlags } from "../support/test-node-flags";

/**
 * `npm run catalog:import` as a command: its progress when its output is a
 * log, Ctrl-C and a crash in the middle of writing, a running shop on the
 * embedded database, and running shops on PostgreSQL that show an import
 * once they have its revision. (What it imports is in catalog-import.test.ts.)
 */

/** As `npm run catalog:import` runs it: one process, TypeScript through tsx's loader. */
const NODE_ARGS = [...testProcessFlags(), "--import", "tsx", "scripts/catalog-import.ts"];
const work = fs.mkdtempSync(path.join(os.tmpdir(), "backline-import-command-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
const STACK_TRACE = /\n\s+at .+[(:]\d+/;
beforeAll(() =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: "#2f6b4f" } })
    .png()
    .toFile(path.join(work, "tent.png")),
);

/** A catalogue file of `size` products, sku prefix `prefix`, in brands and categories new to the shop. */
function catalogueFile(name: string, size: number, prefix = "P"): string {
  const records = Array.from({ length: size }, (_, at) => ({
    sku: `${prefix}-${at + 1}`,
    name: `Northpeak Camp Item ${at + 1}`,
    description: "Made for long weekends outside.",
    price: 5 + (at % 190),
    rating: 4,
    brand: "northpeak",
    brand_label: "Northpeak",
    category: "camping",
    category_label: "Camping",
    created: "2026-05-01T10:00:00.000Z",
    // The first product has a picture, as an owner's file would give it: next to the file.
    image: at === 0 && size < 100 ? "tent.png" : "",
  }));
  const file = path.join(work, name);
  fs.writeFileSync(file, writeCatalogFile(records, "csv"));
  return file;
}

interface Command {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  waitForStdout(pattern: RegExp): Promise<void>;
  exited: Promise<number | null>;
}

/** Runs `npm run catalog:import -- …` (its script) with the shop's configuration in `env`, output to pipes. */
function catalogImport(args: string[], env: Record<string, string>): Command {
  const child = spawn(process.execPath, [...NODE_ARGS, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiting = new Set<() => void>();
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
    for (const check of waiting) check();
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitForStdout: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(stdout)) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        exited.then(() => {
          if (waiting.delete(check))
            reject(new Error(`exited before printing ${pattern}:\n${stdout}\n${stderr}`));
        });
        check();
      }),
  };
}

async function productCount(env: { DATABASE_URL?: string; DATA_DIR?: string }): Promise<number> {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    const [row] = await database.db.select({ products: count() }).from(products);
    return row?.products ?? 0;
  } finally {
    await database.close();
  }
}

async function catalogRevision(env: { DATABASE_URL?: string }): Promise<number> {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL });
  try {
    const [row] = await database.db.select({ revision: catalogRevisions.revision }).from(catalogRevisions);
    return row?.revision ?? 0;
  } finally {
    await database.close();
  }
}

/** A shop's log line saying its search index now answers at this revision (read again or changes applied). */
const indexAtRevision = (revision: number) =>
  new RegExp(
    `^(?=.*"revision":${revision}[,}])(?=.*"msg":"catalogue (index read|changes applied to the index)")`,
  );

// Each test starts shops or waits out a dead process's folder lock (10 s): more than the default minute on a loaded machine.
describeOnEmbedded(
  "the import command on the embedded database",
  () => {
    it("reports progress as plain lines in a log, and says to stop a running shop instead of failing on its lock", async () => {
      const dataDir = temporaryDataDir();
      const file = catalogueFile("camping.csv", 3);
      const shop = await startShopProcess({ DATA_DIR: dataDir });
      try {
        const refused = catalogImport([file], { DATA_DIR: dataDir });
        expect(await refused.exited).toBe(1);
        expect(refused.stderr()).toContain(
          `The shop is running on the embedded database in ${path.resolve(dataDir)}, and only one process may use it at a time. Stop the shop (Ctrl-C in its terminal), run the import, then start the shop again.`,
        );
        expect(refused.stderr()).not.toMatch(/ELOCKED|lock file/i);
        expect(refused.stderr()).not.toMatch(STACK_TRACE);
      } finally {
        await shop.stop();
      }

      const imported = catalogImport([file], { DATA_DIR: dataDir });
      expect(await imported.exited).toBe(0);
      expect(imported.stdout()).toContain("3 new products, 0 updated products, 0 unchanged products.");
      // Not a terminal: no bar drawn with control characters, a plain line with the count and the rate.
      expect(imported.stderr()).toMatch(/^Writing: 100% 3\/3 products \(\d[\d,]* products\/s/m);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for terminal escapes is the point
      expect(imported.stderr()).not.toMatch(/\u001b\[/);
      expect(imported.stdout()).toMatch(
        /Imported .*camping\.csv in \d+\.\d s\. Start the shop \(npm start\) to show it\./,
      );

      const restarted = await startShopProcess({ DATA_DIR: dataDir });
      try {
        const facets = await (await fetch(`${restarted.url}/facets?band=northpeak`)).json();
        expect(facets.count).toBe(3);
        expect(facets.brands).toContainEqual({ value: "northpeak", label: "Northpeak", count: 3 });
        // Its picture, served by the shop from the database, to be kept for a year.
        const [first] = await (
          await fetch(`${restarted.url}/all-products?search=camp%20item%201&size=1`)
        ).json();
        expect(first.image).toMatch(/^\/pictures\/[0-9a-f]{20}-800\.webp$/);
        const picture = await fetch(`${restarted.url}${first.image}`);
        expect([picture.status, picture.headers.get("content-type")]).toEqual([200, "image/webp"]);
        expect(picture.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        const page = await (await fetch(`${restarted.url}/?band=northpeak`)).text();
        expect(page).toContain(first.image.replace("-800", "-400"));
      } finally {
        await restarted.stop();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    // (Without the option, the same address is refused: catalog-import.test.ts.)
    it("downloads pictures from the owner's own network with --allow-private-network", async () => {
      const dataDir = temporaryDataDir();
      let served = 0;
      const pictures = http.createServer((_, res) => {
        served++;
        res.end(fs.readFileSync(path.join(work, "tent.png")));
      });
      await new Promise<void>((resolve) => pictures.listen(0, "127.0.0.1", resolve));
      try {
        const address = `http://127.0.0.1:${(pictures.address() as AddressInfo).port}/tent.png`;
        const file = path.join(work, "intranet.csv");
        fs.writeFileSync(
          file,
          `sku,name,price,brand,category,image\nNET-1,Tent,10,northpeak,camping,${address}\n`,
        );
        const allowed = catalogImport([file, "--dry-run", "--allow-private-network"], { DATA_DIR: dataDir });
        expect(await allowed.exited).toBe(0);
        expect(allowed.stdout()).not.toContain("could not be read");
        expect(allowed.stdout()).toContain("1 new product, 0 updated products, 0 unchanged products.");
        expect(served).toBe(1);
      } finally {
        await new Promise((resolve) => pictures.close(resolve));
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });

    it("leaves the catalogue as it was after Ctrl-C or a kill -9 in the middle of writing", async () => {
      const dataDir = temporaryDataDir();
      await catalogImport([catalogueFile("first.csv", 10, "FIRST")], { DATA_DIR: dataDir }).exited;
      const big = catalogueFile("big.csv", 20_000);
      const stopped = catalogImport([big], { DATA_DIR: dataDir });
      await stopped.waitForStdout(/Writing 20,000 products in one transaction/);
      stopped.child.kill("SIGINT");
      expect(await stopped.exited).toBe(130);
      expect(stopped.stdout()).toContain("Interrupted: nothing was imported; the catalogue is as it was.");
      expect(stopped.stderr()).toContain(
        "Stopping at the next step: what is not yet committed is rolled back…",
      );
      expect(await productCount({ DATA_DIR: dataDir })).toBe(10);
      // A crash: the database is opened again (once the dead process's folder lock is stale) as it was.
      const killed = catalogImport([big], { DATA_DIR: dataDir });
      await killed.waitForStdout(/Writing 20,000 products in one transaction/);
      killed.child.kill("SIGKILL");
      await killed.exited;
      expect(await productCount({ DATA_DIR: dataDir })).toBe(10);
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
  },
  { timeout: 120_000 },
);

describeWhen(
  [terminalRecorder],
  "the import command on a terminal",
  () => {
    it("draws a bar with the rate and the time left", async () => {
      const dataDir = temporaryDataDir();
      const typescript = path.join(work, "terminal.log");
      const command = [process.execPath, ...NODE_ARGS, catalogueFile("terminal.csv", 4_000, "TTY")].join(" ");
      const run = spawn(SCRIPT as string, ["-qec", command, typescript], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: "warn", DATA_DIR: dataDir },
        stdio: "ignore",
      });
      const [code] = await once(run, "exit");
      expect(code).toBe(0);
      const drawn = fs.readFileSync(typescript, "utf8");
      expect(drawn).toMatch(
        /Writing: [=-]{40} 100% 4,000\/4,000 products \(\d[\d,]* products\/s, about \d+ s left\)/,
      );
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the bar redraws its line in place
      expect(drawn).toMatch(/\u001b\[1GWriting:/);
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
  },
  { timeout: 120_000 },
);

describeWhen(
  [postgresServer],
  "the import command on PostgreSQL",
  () => {
    let database: ScratchPostgres;
    afterAll(() => database?.drop());

    it("leaves the catalogue as it was after Ctrl-C or a kill -9 in the middle of writing", async () => {
      database = await createScratchPostgres();
      const env = { DATABASE_URL: database.url };
      expect(await catalogImport([catalogueFile("first.csv", 10, "FIRST")], env).exited).toBe(0);
      const big = catalogueFile("big.csv", 20_000);
      for (const signal of ["SIGINT", "SIGKILL"] as const) {
        const running = catalogImport([big], env);
        await running.waitForStdout(/Writing 20,000 products in one transaction/);
        running.child.kill(signal);
        expect(await running.exited).toBe(signal === "SIGINT" ? 130 : null);
        expect(await productCount(env)).toBe(10);
      }
      // Run to its end, the same import adds every product at once.
      const finished = catalogImport([big], env);
      expect(await finished.exited).toBe(0);
      expect(await productCount(env)).toBe(20_010);
    });

    it("shows an import in every running shop as soon as the shop has the import's revision", async () => {
      const scratch = await createScratchPostgres();
      // Answers are kept an hour: only the import's notification can make the shops forget them.
      // At info level a shop says when its search index reaches a revision; how soon after the
      // commit it does is measured by `npm run bench -- index-changes`, not here.
      const env = { DATABASE_URL: scratch.url, CATALOG_CACHE_SECONDS: "3600", LOG_LEVEL: "info" };
      const shops = await Promise.all([startShopProcess(env), startShopProcess(env)]);
      try {
        const counted = async (url: string) =>
          ((await (await fetch(`${url}/counts?category=camping`)).json()) as { count: number }).count;
        for (const shop of shops) expect(await counted(shop.url)).toBe(0);

        const imported = catalogImport([catalogueFile("camping.csv", 3)], env);
        expect(await imported.exited).toBe(0);
        expect(imported.stdout()).toContain("Running shops show the new catalogue within a second.");
        const revision = await catalogRevision(env);
        for (const shop of shops) {
          // New brands and categories: the shop reads its whole index again rather than applying changes.
          await shop.waitForOutput(indexAtRevision(revision));
          expect(await counted(shop.url)).toBe(3);
        }
        const products = await (await fetch(`${shops[0]?.url}/all-products?band=northpeak&size=10`)).json();
        expect(products.map((product: { name: string }) => product.name)).toHaveLength(3);
      } finally {
        await Promise.all(shops.map((shop) => shop.stop()));
        await scratch.drop();
      }
    });
  },
  { timeout: 120_000 },
);
