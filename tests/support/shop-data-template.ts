import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TEST_BUFFER_CACHE } from "./pglite-template";
import { SHOP_DATA_TEMPLATE, spawnShopProcess } from "./shop-process";

/**
 * One embedded-database folder as the built shop leaves it after its first
 * start (initdb, every migration, the demo catalogue), made once per test run,
 * which the shop processes the tests start on the embedded database begin
 * from (shop-process.ts): a first start costs about 8 s of CPU, a later one
 * about 3 s, and the integration tests start some hundred processes on two
 * cores.
 *
 * A test about the first start itself (an empty folder, the session secret
 * generated, the demo catalogue loaded) passes a DATA_DIR of its own and gets
 * a real first start. The folder keeps no session secret (each process makes
 * its own, as on a first start) and is made afresh by every run, so the demo's
 * dates are today's. Vitest's global set-up for the "shop" project
 * (vitest.config.ts) runs this, and names the folder in
 * BACKLINE_TEST_SHOP_DATA_TEMPLATE (shop-process.ts).
 */
export default async function makeShopDataTemplate(): Promise<(() => void) | undefined> {
  const entry = path.resolve(process.env.BUILD_DIR ?? "build", "server/index.js");
  // Without a build the tests that start shops say so themselves (shop-process.ts).
  if (!fs.existsSync(entry)) return undefined;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "backline-shop-data-"));
  const remove = () => fs.rmSync(folder, { recursive: true, force: true });
  try {
    const shop = await spawnShopProcess({ DATA_DIR: folder });
    const ready = shop.ready(120_000);
    await ready.catch(() => {});
    const code = await shop.stop();
    await ready;
    // A copy of an unclean stop would carry its folder lock into every test's shop.
    if (code !== 0 || fs.existsSync(path.join(folder, "backline.lock"))) {
      throw new Error(`the template shop did not stop cleanly (exit ${code}):\n${shop.output()}`);
    }
  } catch (error) {
    remove();
    throw error;
  }
  // As `alter system` writes it; a test's shop reads it at its start (pglite-template.ts).
  fs.appendFileSync(path.join(folder, "postgresql.auto.conf"), `${TEST_BUFFER_CACHE}\n`);
  fs.rmSync(path.join(folder, "auth-secret"), { force: true });
  fs.rmSync(path.join(folder, "outbox"), { recursive: true, force: true });
  process.env[SHOP_DATA_TEMPLATE] = folder;
  return remove;
}
