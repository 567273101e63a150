import { afterEach, describe, expect, it, vi } from "vitest";
import { createSearchRateLimit, createTurns } from "./search-rate-limit.server";

/** Whether a promise has settled by now (after the microtasks queued so far). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe("turns for long searches", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives one turn at a time, and the next only after a rest of (1 / share − 1) times the last one's work", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const turns = createTurns({ share: 0.25, gapMs: 20, longestRestMs: 1000 }, 16);
    const done = await turns.take();
    expect(done).not.toBeNull();
    const second = turns.take();
    expect(await settled(second)).toBe(false);
    // The first turn works for 10 ms: the second waits for it, then rests 30 ms.
    await vi.advanceTimersByTimeAsync(10);
    done?.();
    expect(await settled(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(29);
    expect(await settled(second)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(second)).toBe(true);
    // A turn that takes no time: the next still starts 20 ms after it started (gapMs).
    (await second)?.();
    const third = turns.take();
    await vi.advanceTimersByTimeAsync(19);
    expect(await settled(third)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(third)).toBe(true);
  });

  it("rests no longer than longestRestMs after a slow turn", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const turns = createTurns({ share: 0.25, gapMs: 0, longestRestMs: 200 }, 16);
    const slow = await turns.take();
    const next = turns.take();
    // A turn of 5 s (a database answer waited for): the next waits 200 ms after it, not 15 s.
    await vi.advanceTimersByTimeAsync(5000);
    slow?.();
    await vi.advanceTimersByTimeAsync(199);
    expect(await settled(next)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(next)).toBe(true);
  });

  it("refuses at once past the number allowed to wait, and a turn given back twice counts once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const turns = createTurns({ share: 0.5, gapMs: 0, longestRestMs: 1000 }, 2);
    const first = await turns.take();
    const waiting = [turns.take(), turns.take()];
    expect(turns.waiting).toBe(2);
    expect(await turns.take()).toBeNull();
    first?.();
    first?.();
    expect(turns.waiting).toBe(1);
    const second = await waiting[0];
    second?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(turns.waiting).toBe(0);
    expect(await settled(waiting[1] as Promise<unknown>)).toBe(true);
  });
});

describe("search admission", () => {
  it("lets short searches through at once while a long one holds its turn", async () => {
    const limit = createSearchRateLimit();
    const long = await limit.admit("203.0.113.1", "one two three four");
    expect(long.allowed).toBe(true);
    const short = await limit.admit("203.0.113.2", "yoga mat");
    expect(short.allowed).toBe(true);
    const next = limit.admit("203.0.113.3", "five six seven eight");
    let answered = false;
    void next.then(() => {
      answered = true;
    });
    await new Promise(setImmediate);
    expect(answered).toBe(false);
    if (long.allowed) long.done();
    expect((await next).allowed).toBe(true);
  });
});
