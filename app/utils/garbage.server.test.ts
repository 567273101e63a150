import { describe, expect, it } from "vitest";
import { collectGarbage } from "./garbage.server";

describe("collecting garbage on demand", () => {
  it("frees what nothing references any more, without a flag on the command line", async () => {
    let garbage: object | null = { rows: Array.from({ length: 1000 }, (_, n) => `row ${n}`) };
    let registry: FinalizationRegistry<string> | undefined;
    const collected = new Promise<string>((resolve) => {
      registry = new FinalizationRegistry<string>(resolve);
      registry.register(garbage as object, "the rows");
    });
    garbage = null;
    expect(garbage).toBeNull();
    collectGarbage();
    // Finalizers run after the collection, in a later task.
    expect(await collected).toBe("the rows");
    expect(registry).toBeDefined();
  });
});
