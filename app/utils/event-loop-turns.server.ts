import { setImmediate } from "node:timers/promises";

/**
 * A long loop's way of sharing the process: `await turn()` in it gives the
 * event loop a turn (timers, I/O, other requests) once `sliceMs` of work
 * have passed since the last, and costs next to nothing otherwise. A large
 * catalogue file read in one go held every other request for seconds.
 */
export function eventLoopTurns(sliceMs = 10): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await setImmediate();
    since = performance.now();
  };
}

export type EventLoopTurn = ReturnType<typeof eventLoopTurns>;
