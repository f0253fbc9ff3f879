/** The part of autocannon's API the benchmark uses (the package ships no types). */
declare module "autocannon" {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      headers?: Record<string, string>;
      /** Each connection sends these in turn, over and over. */
      requests?: Request[];
    }
    interface Histogram {
      average: number;
      p50: number;
      p99: number;
      total: number;
    }
    interface Result {
      /** Seconds the run lasted. */
      duration: number;
      latency: Histogram;
      requests: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
    }
  }
  /** A run under way: it emits "response" (client, statusCode, bytes, responseTime in ms) per answer. */
  type Instance = import("node:events").EventEmitter & PromiseLike<autocannon.Result>;
  function autocannon(options: autocannon.Options): Instance;
  export default autocannon;
}
