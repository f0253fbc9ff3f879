/**
 * No Docker engine runs here, so compose.yaml is checked against the Dockerfile and the repository:
 * every built service names a target the Dockerfile has, every dependency names a service with a
 * condition Compose knows, the one-shot migration runs a script the backend image holds, health
 * checks ask the paths and ports the services answer, nginx's upstreams are the gateways, and every
 * `${VAR}` is a setting the services read (docs/operations.md#several-gateways-and-backends).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const ROOT = path.resolve(import.meta.dirname, "../..");
const compose = parse(readFileSync(path.join(ROOT, "compose.yaml"), "utf8"), { merge: true }) as {
  services: Record<string, ComposeService>;
  configs?: Record<string, { content?: string }>;
};
const dockerfile = readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
const stages = [...dockerfile.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((match) => match[1]);
const composeText = readFileSync(path.join(ROOT, "compose.yaml"), "utf8");

interface ComposeService {
  build?: { context: string; target?: string };
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
}

const services = Object.entries(compose.services);
const built = services.filter(([, service]) => service.build);
const CONDITIONS = ["service_started", "service_healthy", "service_completed_successfully"];

describe("compose.yaml", () => {
  it("builds every service it builds from a target of the Dockerfile", () => {
    expect(built.length).toBeGreaterThanOrEqual(5);
    for (const [name, service] of built) {
      expect(stages, `${name}'s target`).toContain(service.build?.target);
    }
  });

  it("runs Postgres, one migration, two backends, two gateways and a load balancer", () => {
    const targetOf = (target: string) => built.filter(([, s]) => s.build?.target === target && !s.command);
    expect(targetOf("backend")).toHaveLength(2);
    expect(targetOf("gateway")).toHaveLength(2);
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
    expect(compose.services["load-balancer"]?.image).toMatch(/^nginx:/);
    const migrate = compose.services.migrate;
    expect(migrate?.restart).toBe("no");
    const script = migrate?.command?.[1] ?? "";
    expect(migrate?.command?.[0]).toBe("node");
    // The script is in the repository and in a folder the backend target copies.
    expect(existsSync(path.join(ROOT, script))).toBe(true);
    const backendStage = dockerfile.split(/^FROM /m).find((stage) => /\bAS backend\b/.test(stage)) ?? "";
    expect(backendStage).toContain(`COPY ${script.split("/")[0]} `);
  });

  it("names only services, with conditions Compose knows, and starts backends after the migration", () => {
    for (const [name, service] of services) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(Object.keys(compose.services), `${name} depends on ${dependency}`).toContain(dependency);
        expect(CONDITIONS, `${name}'s condition on ${dependency}`).toContain(condition);
      }
    }
    for (const [name, service] of built.filter(([, s]) => s.build?.target === "backend" && !s.command)) {
      expect(service.depends_on?.migrate?.condition, name).toBe("service_completed_successfully");
      expect(service.depends_on?.postgres?.condition, name).toBe("service_healthy");
    }
  });

  it("checks each long-running service's health on a path and port it answers", () => {
    const expected: Record<string, string> = {
      backend: "http://127.0.0.1:3001/healthz",
      gateway: "http://127.0.0.1:3000/readyz",
    };
    for (const [name, service] of services) {
      if (service.restart === "no") continue;
      expect(service.healthcheck?.test, `${name}'s health check`).toBeDefined();
      const target = service.build?.target;
      if (target) expect(service.healthcheck?.test.join(" ")).toContain(expected[target]);
    }
    expect(existsSync(path.join(ROOT, "server/health.ts"))).toBe(true);
    expect(readFileSync(path.join(ROOT, "server/health.ts"), "utf8")).toContain('"/readyz"');
  });

  it("points each gateway at a backend service and nginx at every gateway", () => {
    const gateways = built.filter(([, s]) => s.build?.target === "gateway");
    for (const [name, service] of gateways) {
      const backend = new URL(service.environment?.BACKEND_URL ?? "").hostname;
      expect(compose.services[backend]?.build?.target, `${name}'s backend`).toBe("backend");
      expect(service.environment?.TRUST_PROXY, `${name} sits behind one proxy`).toBe("1");
    }
    const nginx = compose.configs?.["nginx-conf"]?.content ?? "";
    for (const [name] of gateways) expect(nginx).toContain(`server ${name}:3000`);
    // Compose interpolates `$name`: nginx's own variables must be written `$$name`.
    expect(nginx.match(/(?<!\$)\$[a-z_]+/g) ?? []).toEqual([]);
  });

  it("reads only settings the services know (or Compose's own)", () => {
    const example = readFileSync(path.join(ROOT, ".env.example"), "utf8");
    const known = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]));
    for (const own of ["POSTGRES_PASSWORD", "ARGUS_PORT"]) known.add(own);
    const used = [...composeText.matchAll(/\$\{([A-Z][A-Z0-9_]+)/g)].map((match) => match[1]);
    expect(used.length).toBeGreaterThan(0);
    for (const variable of used) expect(known, variable).toContain(variable);
  });
});
