// Loaded into a shop process by the search benchmark (NODE_OPTIONS=--import …): on SIGUSR2 it
// prints one JSON line with the event loop's delay since the last line (perf_hooks'
// monitorEventLoopDelay, in ms) and the CPU the process spent meanwhile, then starts afresh.
// Not part of the shop: the benchmark alone loads it.
import { monitorEventLoopDelay } from "node:perf_hooks";

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
let since = process.cpuUsage();
let sample = 0;
process.on("SIGUSR2", () => {
  const cpu = process.cpuUsage(since);
  const ms = (nanoseconds) => Math.round(nanoseconds / 1e4) / 100;
  sample += 1;
  process.stdout.write(
    `${JSON.stringify({
      probe: "event-loop",
      sample,
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
      cpuMs: Math.round((cpu.user + cpu.system) / 100) / 10,
    })}\n`,
  );
  delay.reset();
  since = process.cpuUsage();
});
