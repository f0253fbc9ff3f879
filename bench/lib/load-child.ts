/**
 * The load generator's own process: forked by load.ts, it takes one autocannon run's options over
 * IPC (so no session token shows in the process list), runs it and sends back autocannon's result
 * with the latency percentiles of its 2xx answers to the microsecond: autocannon's own histogram
 * keeps whole milliseconds, too coarse for what a proxy adds on loopback.
 */
import autocannon from "autocannon";
import { quantile } from "./stats.ts";

process.once("message", async (options: autocannon.Options) => {
  try {
    const times: number[] = [];
    const run = autocannon(options);
    run.on("response", (_client: unknown, status: number, _bytes: number, responseTime: number) => {
      if (status >= 200 && status < 300) times.push(responseTime);
    });
    const result = await run;
    times.sort((a, b) => a - b);
    const latency = { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
    process.send?.({ result, latency }, () => process.exit(0));
  } catch (error) {
    process.send?.({ error: error instanceof Error ? error.message : String(error) }, () => process.exit(1));
  }
});
