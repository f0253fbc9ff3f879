import { describe, expect, it } from "vitest";
import { nginxConfig } from "./nginx.ts";

describe("nginxConfig", () => {
  const config = nginxConfig({ dir: "/tmp/n", port: 8081, upstream: "127.0.0.1:3001", asRoot: false });

  it("keeps its pid, logs and temporary files in its own folder", () => {
    expect(config).toContain("pid /tmp/n/nginx.pid;");
    expect(config).toContain("error_log /tmp/n/error.log warn;");
    for (const kind of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
      expect(config).toContain(`${kind}_temp_path /tmp/n/${kind};`);
    }
    expect(config).toContain("access_log off;");
  });
  it("proxies to the backend over keep-alive connections", () => {
    expect(config).toMatch(/upstream backend \{\s+server 127\.0\.0\.1:3001;\s+keepalive \d+;/);
    expect(config).toContain("proxy_http_version 1.1;");
    expect(config).toContain('proxy_set_header Connection "";');
    expect(config).toContain("listen 127.0.0.1:8081;");
  });
  it("never closes a kept-alive connection after a number of requests, on either side", () => {
    const limits = [...config.matchAll(/keepalive_requests (\d+);/g)].map(([, n]) => Number(n));
    expect(limits).toHaveLength(2);
    for (const limit of limits) expect(limit).toBeGreaterThanOrEqual(1_000_000);
    expect(config).toMatch(/upstream backend \{[^}]*keepalive_requests/);
    expect(config).toMatch(/server \{[^}]*keepalive_requests/);
  });
  it("runs in the foreground with one worker, as the user who starts it", () => {
    expect(config).toContain("daemon off;");
    expect(config).toContain("worker_processes 1;");
    expect(config).not.toContain("user ");
    expect(nginxConfig({ dir: "/tmp/n", port: 1, upstream: "h:1", asRoot: true })).toMatch(/^user root;/);
  });
});
