/** The one line a shop that cannot start says before it exits with status 1. */
export function exitSaying(description: string): never {
  process.stderr.write(`Backline could not start: ${description}\n`);
  process.exit(1);
}
