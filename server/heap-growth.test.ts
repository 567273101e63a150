import v8 from "node:v8";
import { afterEach, describe, expect, it, vi } from "vitest";
import { boundHeapGrowth } from "./heap-growth";

describe("boundHeapGrowth", () => {
  afterEach(() => vi.restoreAllMocks());

  it("sets V8's heap growth to 1.5 times the live heap", () => {
    const setFlags = vi.spyOn(v8, "setFlagsFromString").mockImplementation(() => {});
    boundHeapGrowth(["--enable-source-maps"]);
    expect(setFlags).toHaveBeenCalledWith("--heap-growing-percent=50");
  });

  it.each(["--heap-growing-percent=0", "--heap_growing_percent=80"])(
    "keeps what the command line chose (%s)",
    (flag) => {
      const setFlags = vi.spyOn(v8, "setFlagsFromString").mockImplementation(() => {});
      boundHeapGrowth(["--enable-source-maps", flag]);
      expect(setFlags).not.toHaveBeenCalled();
    },
  );
});
