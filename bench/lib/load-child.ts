/**
 * The load generator's own process: forked by load.ts, it takes autocannon runs' options over IPC
 * (so no session token shows in the process list), one at a time, and answers each with
 * autocannon's result and the latency percentiles of its 2xx answers to the microsecond:
 * autocannon's own histogram keeps whole milliseconds, too coarse for what a proxy adds on loopback.
 */
import autocannon from "autocannon";
import type { LoadAnswer } from "./load.ts";
import { quantile } from "./stats.ts";

async function measure(options: autocannon.Options): Promise<LoadAnswer> {
  const times: number[] = [];
  const run = autocannon(options);
  run.on("response", (_client: unknown, status: number, _bytes: number, responseTime: number) => {
    if (status >= 200 && status < 300) times.push(responseTime);
  });
  const result = await run;
  // Without a single 2xx answer there is no latency to report: say why rather than send NaN.
  if (times.length === 0) {
    return {
      error: `no 2xx answer from ${options.url}: ${result.non2xx} other answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    };
  }
  times.sort((a, b) => a - b);
  return { result, latency: { p50: quantile(times, 0.5), p99: quantile(times, 0.99) } };
}

process.on("message", (options: autocannon.Options) => {
  measure(options).then(
    (answer) => process.send?.(answer),
    (error: unknown) => process.send?.({ error: error instanceof Error ? error.message : String(error) }),
  );
});
// Ends with its parent's channel.
process.on("disconnect", () => process.exit(0));
