/**
 * nginx as the reference proxy (docs/decisions/023-benchmarks.md): Debian's nginx, when installed,
 * started as this user from a generated config in a temporary folder (its own pid, log and
 * temporary paths), with a keep-alive upstream to the same backend the gateway proxies to.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { claimPort } from "../../scripts/lib/ports.ts";

const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
const READY_TIMEOUT_MS = 10_000;

export interface NginxConfigOptions {
  /** The folder for its pid, log and temporary files. */
  dir: string;
  port: number;
  /** host:port of the backend, or of each of several (round-robin). */
  upstream: string | string[];
  /** Run by root, whose workers would otherwise drop to `nobody` and lose the folder. */
  asRoot: boolean;
}

/**
 * One worker process, as the gateway is one Node process; keep-alive connections to the upstream,
 * as the gateway's proxy keeps them; no access log, as the gateway's log is not what is compared.
 * Neither side's connections are closed after a number of requests, as Node's are not: with
 * nginx's default of 1000, the load generator's connections were cut every 1000 answers, which it
 * counted as failures and which skewed its latencies at one connection (p50 2 ms instead of 0.2).
 */
export function nginxConfig({ dir, port, upstream, asRoot }: NginxConfigOptions): string {
  const at = (name: string) => path.join(dir, name);
  return `${asRoot ? "user root;\n" : ""}worker_processes 1;
daemon off;
pid ${at("nginx.pid")};
error_log ${at("error.log")} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${at("client_body")};
  proxy_temp_path ${at("proxy")};
  fastcgi_temp_path ${at("fastcgi")};
  uwsgi_temp_path ${at("uwsgi")};
  scgi_temp_path ${at("scgi")};
  upstream backend {
${[upstream]
  .flat()
  .map((server) => `    server ${server};`)
  .join("\n")}
    keepalive 64;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:${port};
    keepalive_requests 1000000;
    location / {
      proxy_pass http://backend;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
    }
  }
}
`;
}

export interface RunningNginx {
  url: string;
  stop(): Promise<void>;
}

export function nginxInstalled(): boolean {
  return spawnSync(NGINX, ["-v"]).status === 0;
}

/** Starts nginx in front of `backendUrl` (or each of several); undefined when nginx is not installed. */
export async function startNginx(backendUrl: string | string[]): Promise<RunningNginx | undefined> {
  if (!nginxInstalled()) return undefined;
  const dir = await mkdtemp(path.join(tmpdir(), "argus-bench-nginx-"));
  const port = await claimPort();
  const config = path.join(dir, "nginx.conf");
  await writeFile(
    config,
    nginxConfig({
      dir,
      port,
      upstream: [backendUrl].flat().map((url) => new URL(url).host),
      asRoot: userInfo().uid === 0,
    }),
  );
  // -e: the error log before the config is read, so nothing is written to /var/log/nginx.
  const child = spawn(NGINX, ["-p", dir, "-c", config, "-e", path.join(dir, "error.log")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (chunk) => {
    errors += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, "exit");
      // QUIT: graceful shutdown of the master and its worker.
      child.kill("SIGQUIT");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilAnswering(`${url}/healthz`, child);
  } catch (error) {
    await stop();
    throw new Error(`nginx did not start: ${(error as Error).message} ${errors}`);
  }
  return { url, stop };
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    const answered = await fetch(url, { signal: AbortSignal.timeout(1000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no answer at ${url}`);
}
