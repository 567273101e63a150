import cliProgress from "cli-progress";

/**
 * Progress of a long step of a catalogue command (pictures, writing): a bar
 * with its rate and time left on a terminal, and a plain line every second
 * when the output goes to a file or a pipe (CI logs, `| tee`), on stderr so
 * that stdout keeps only the command's results. cli-progress draws both.
 */
export function startProgress(
  step: string,
  total: number,
  unit: string,
  stream: NodeJS.WriteStream = process.stderr,
) {
  const started = Date.now();
  const bar = new cliProgress.SingleBar({
    stream,
    noTTYOutput: true,
    notTTYSchedule: 1_000,
    hideCursor: true,
    etaBuffer: 50,
    format: (options, params) => {
      const seconds = (Date.now() - started) / 1000;
      const rate = seconds > 0 ? Math.round(params.value / seconds) : 0;
      const percent = Math.floor(params.progress * 100);
      const left = Number.isFinite(params.eta) && params.value > 0 ? `, about ${params.eta} s left` : "";
      const counted = `${params.value.toLocaleString("en")}/${params.total.toLocaleString("en")} ${unit}`;
      const drawn = stream.isTTY ? `${cliProgress.Format.BarFormat(params.progress, options)} ` : "";
      return `${step}: ${drawn}${percent}% ${counted} (${rate.toLocaleString("en")} ${unit}/s${left})`;
    },
  });
  bar.start(total, 0);
  return {
    update: (done: number) => bar.update(done),
    stop: () => bar.stop(),
  };
}
