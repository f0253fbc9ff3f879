/**
 * Checks the Dockerfile without a Docker engine. It models which files each stage holds (COPY from
 * the build context minus .dockerignore, COPY --from another stage, or folders that a RUN makes)
 * and reports, one line each, what would break an image: a missing or ignored source, a start
 * command or an imported module that is not in the image, a package that `npm prune --omit=dev`
 * removes, a port or health check that disagrees with the service's configuration, application
 * files the service's user could change, V8 flags or memory settings other than those `npm start`
 * starts the service with.
 */
import { existsSync, readFileSync } from "node:fs";
import { builtinModules, stripTypeScriptTypes } from "node:module";
import path from "node:path";
import { initSync, parse as parseModule } from "es-module-lexer";

initSync();

/** What a service's configuration makes of the image's environment. */
export interface ServiceFacts {
  host: string;
  port: number;
  /** What it reads at run time that no import names (the client build), relative to WORKDIR. */
  reads: string[];
  /** Absolute folders it writes to. */
  writes: string[];
  /** Whether it refuses to start with the Firebase emulator configured. */
  refusesEmulator: boolean;
}

export interface Service {
  /** The Dockerfile target that runs it. */
  target: string;
  healthPath: string;
  /** The V8 flags and environment `npm start` starts it with (scripts/lib/stack.ts). */
  runtime: { v8Flags: readonly string[]; env: Readonly<Record<string, string>> };
  /** Throws when the configuration refuses the environment. */
  facts(env: Record<string, string>): ServiceFacts;
}

interface Copy {
  /** Absolute path in the image. */
  dest: string;
  /** A build-context path, or an absolute path in `from`. */
  source: string;
  from?: Stage;
}

interface Stage {
  name: string;
  parent?: Stage;
  workdir: string;
  copies: Copy[];
  runs: string[];
  env: Record<string, string>;
  user?: string;
  expose: number[];
  healthcheck?: string;
  cmd?: string[];
}

/** Folders a stage makes by running a command rather than copying them. */
const GENERATED: Record<string, RegExp> = {
  "/app/node_modules": /\bnpm (ci|install)\b/,
  "/app/build": /\breact-router build\b/,
};

const within = (file: string, folder: string) =>
  file === folder || file.startsWith(folder === "/" ? "/" : `${folder}/`);

function instructions(text: string): { keyword: string; args: string }[] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const [keyword = "", ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(" ") };
    });
}

function words(args: string): string[] {
  return args.startsWith("[") ? (JSON.parse(args) as string[]) : args.split(/\s+/);
}

/** Docker's rules: patterns match from the context root, and a matched folder excludes its content. */
function dockerignore(root: string): (relative: string) => boolean {
  const file = path.join(root, ".dockerignore");
  const rules = (existsSync(file) ? readFileSync(file, "utf8") : "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const negate = line.startsWith("!");
      const pattern = path.posix.normalize(line.slice(negate ? 1 : 0)).replace(/^\/+/, "");
      const regex = pattern
        .split(/(\*\*\/?|\*|\?)/)
        .map((part) => {
          if (part.startsWith("**")) return "(?:.*/)?.*";
          if (part === "*") return "[^/]*";
          if (part === "?") return "[^/]";
          return part.replace(/[.+^${}()|[\]\\]/g, "\\$&");
        })
        .join("");
      return { negate, regex: new RegExp(`^${regex}$`) };
    });
  return (relative) => {
    const parts = relative.split("/");
    let excluded = false;
    for (const rule of rules) {
      if (parts.some((_, i) => rule.regex.test(parts.slice(0, i + 1).join("/")))) excluded = !rule.negate;
    }
    return excluded;
  };
}

function lineage(stage: Stage): Stage[] {
  return stage.parent ? [...lineage(stage.parent), stage] : [stage];
}

export function checkDockerfile(text: string, root: string, services: Service[]): string[] {
  const problems: string[] = [];
  const isIgnored = dockerignore(root);
  const { scripts, dependencies } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
  };

  /** Whether `file` (absolute) is in the stage: some COPY brought it, or a RUN made its folder. */
  function holds(stage: Stage, file: string): boolean {
    const copied = lineage(stage).some((current) =>
      current.copies.some((copy) => {
        if (!within(file, copy.dest)) return false;
        const rest = path.posix.relative(copy.dest, file);
        if (copy.from) return holds(copy.from, path.posix.join(copy.source, rest));
        const relative = path.posix.join(copy.source, rest);
        return existsSync(path.join(root, relative)) && (relative === "." || !isIgnored(relative));
      }),
    );
    return (
      copied ||
      Object.entries(GENERATED).some(
        ([folder, command]) =>
          within(file, folder) &&
          lineage(stage).some((current) => current.runs.some((run) => command.test(run))),
      )
    );
  }

  // --- Parse: stages, and where each COPY puts what.
  const stages = new Map<string, Stage>();
  let stage: Stage | undefined;
  for (const { keyword, args } of instructions(text)) {
    if (keyword === "FROM") {
      const [image = "", , name = image] = args.split(/\s+/).filter((word) => !word.startsWith("--"));
      const parent = stages.get(image);
      stage = { name, parent, workdir: parent?.workdir ?? "/", copies: [], runs: [], env: {}, expose: [] };
      stages.set(name, stage);
    } else if (!stage) {
      problems.push(`${keyword} before FROM`);
    } else if (keyword === "WORKDIR") {
      stage.workdir = path.posix.resolve(stage.workdir, args);
    } else if (keyword === "ENV") {
      for (const [, name = "", value = ""] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g))
        stage.env[name] = value.replace(/^"|"$/g, "");
    } else if (keyword === "USER") {
      stage.user = args;
    } else if (keyword === "EXPOSE") {
      stage.expose.push(...args.split(/\s+/).map((port) => Number.parseInt(port, 10)));
    } else if (keyword === "HEALTHCHECK") {
      stage.healthcheck = args;
    } else if (keyword === "CMD" || keyword === "ENTRYPOINT") {
      stage.cmd = words(args);
    } else if (keyword === "RUN") {
      stage.runs.push(args);
    } else if (keyword === "COPY" || keyword === "ADD") {
      const all = words(args);
      const flags = all.filter((word) => word.startsWith("--"));
      const paths = all.filter((word) => !word.startsWith("--"));
      const destArg = paths.pop() ?? ".";
      const dest = path.posix.resolve(stage.workdir, destArg);
      const fromName = flags.find((flag) => flag.startsWith("--from="))?.slice("--from=".length);
      const from = fromName === undefined ? undefined : stages.get(fromName);
      if (fromName !== undefined && !from) problems.push(`COPY --from=${fromName}: no such stage`);
      for (const flag of flags.filter((word) => /^--(chown|chmod)=/.test(word)))
        problems.push(`COPY ${flag}: application files stay root's, read-only for the user that runs them`);
      for (const source of paths) {
        // Several sources, or a folder destination: each lands under its own name.
        const target =
          paths.length > 1 || destArg.endsWith("/")
            ? path.posix.join(dest, path.posix.basename(source))
            : dest;
        if (from) {
          const copy = { dest: target, source: path.posix.resolve(from.workdir, source), from };
          if (!holds(from, copy.source))
            problems.push(`COPY --from=${fromName} ${source}: not in that stage`);
          stage.copies.push(copy);
        } else {
          const relative = path.posix.normalize(source);
          if (!existsSync(path.join(root, relative))) problems.push(`COPY ${source}: not in the repository`);
          else if (relative !== "." && isIgnored(relative))
            problems.push(`COPY ${source}: excluded by .dockerignore`);
          stage.copies.push({ dest: target, source: relative });
        }
      }
    }
  }

  // --- Commands: the install is CI's, and every npm script and npx tool exists.
  const runs = [...stages.values()].flatMap((each) => each.runs);
  const ciInstall = /^\s*(npm install\b[^\n]*)$/m.exec(
    readFileSync(path.join(root, ".ci", "run"), "utf8"),
  )?.[1];
  for (const run of runs.filter((each) => /\bnpm (ci|install|i)\b/.test(each))) {
    if (!ciInstall || !run.includes(ciInstall.trim()))
      problems.push(`RUN ${run}: not the install command CI uses (${ciInstall?.trim()})`);
  }
  for (const command of runs.flatMap((run) => run.split(/&&|\|\||;/).map((part) => part.trim()))) {
    const [tool, first, second] = command.split(/\s+/);
    if (tool === "npm" && first === "run" && !(second && scripts[second]))
      problems.push(`RUN ${command}: no such script in package.json`);
    if (tool === "npx" && !(first && existsSync(path.join(root, "node_modules", ".bin", first))))
      problems.push(`RUN ${command}: no such command in node_modules/.bin`);
  }

  // --- Each service's target.
  for (const service of services) {
    const target = stages.get(service.target);
    if (!target) {
      problems.push(`${service.target}: no such target`);
      continue;
    }
    const stagesOf = lineage(target);
    const last = <T>(pick: (each: Stage) => T | undefined) =>
      stagesOf.map(pick).findLast((v) => v !== undefined);
    const name = service.target;
    const { workdir } = target;
    const user = last((each) => each.user);
    if (!user || user === "root" || user === "0") problems.push(`${name}: runs as root`);

    // The start command, every module it imports, and every package they import at start.
    const seen = new Set<string>();
    const visit = (file: string, importer?: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const relative = path.posix.relative(workdir, file);
      if (!holds(target, file)) {
        const by = importer ? `${path.posix.relative(workdir, importer)} imports` : "CMD runs";
        problems.push(`${name}: ${by} ${relative}, which is not in the image`);
        return;
      }
      const local = path.join(root, relative);
      if (!/\.[cm]?[jt]s$/.test(local) || !existsSync(local)) return;
      const source = readFileSync(local, "utf8");
      const code = /\.[cm]?ts$/.test(local) ? stripTypeScriptTypes(source) : source;
      // A lexer, not a pattern, so code quoted in a string or template (the sandbox's sample files)
      // is not mistaken for an import.
      const imports = parseModule(code)[0]
        .filter((found) => found.n !== undefined && found.d !== -2)
        .map((found) => ({ specifier: found.n ?? "", dynamic: found.d > -1 }));
      for (const { specifier, dynamic } of imports) {
        if (specifier.startsWith(".")) {
          visit(path.posix.resolve(path.posix.dirname(file), specifier), file);
          continue;
        }
        // Dynamic package imports are development-only paths (Vite under --dev).
        if (dynamic || specifier.startsWith("node:") || builtinModules.includes(specifier)) continue;
        const parts = specifier.split("/");
        const pkg = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
        if (pkg && !dependencies[pkg])
          problems.push(`${name}: ${relative} imports ${pkg}, which is not a production dependency`);
      }
    };
    const cmd = last((each) => each.cmd) ?? [];
    if (cmd[0] === "node") {
      const entry = cmd.slice(1).find((arg) => !arg.startsWith("-"));
      if (entry) visit(path.posix.resolve(workdir, entry));
      else problems.push(`${name}: CMD names no script`);
      const flags = cmd.slice(1, entry ? cmd.indexOf(entry) : undefined).join(" ");
      if (flags !== service.runtime.v8Flags.join(" "))
        problems.push(
          `${name}: CMD passes node "${flags}", npm start "${service.runtime.v8Flags.join(" ")}"`,
        );
    } else if (cmd[0] === "npm" && cmd[1] === "run") {
      if (!scripts[cmd[2] ?? ""])
        problems.push(`${name}: CMD runs npm script ${cmd[2]}, which package.json lacks`);
    } else {
      problems.push(`${name}: CMD ${cmd.join(" ") || "missing"}: neither node nor npm run`);
    }

    // The configuration, given the image's environment.
    const env = Object.assign({}, ...stagesOf.map((each) => each.env)) as Record<string, string>;
    let facts: ServiceFacts;
    try {
      facts = service.facts(env);
    } catch (error) {
      problems.push(
        `${name}: the configuration refuses the image's environment: ${(error as Error).message}`,
      );
      continue;
    }
    if (env.NODE_ENV !== "production") problems.push(`${name}: NODE_ENV is ${env.NODE_ENV}, not production`);
    for (const [variable, value] of Object.entries(service.runtime.env))
      if (env[variable] !== value)
        problems.push(`${name}: ${variable} is ${env[variable]} in the image, ${value} under npm start`);
    if (!facts.refusesEmulator) problems.push(`${name}: accepts the Firebase emulator`);
    if (facts.host !== "0.0.0.0")
      problems.push(`${name}: listens on ${facts.host}, unreachable from outside`);
    const exposed = stagesOf.flatMap((each) => each.expose);
    if (exposed.length !== 1 || exposed[0] !== facts.port)
      problems.push(`${name}: EXPOSE ${exposed.join(" ")}, but the service listens on ${facts.port}`);
    const healthUrl = /https?:\/\/[^\s'"`)]+/.exec(last((each) => each.healthcheck) ?? "")?.[0];
    if (!healthUrl) {
      problems.push(`${name}: no HEALTHCHECK`);
    } else {
      const url = new URL(healthUrl);
      if (Number(url.port) !== facts.port)
        problems.push(`${name}: HEALTHCHECK asks port ${url.port}, but the service listens on ${facts.port}`);
      if (url.pathname !== service.healthPath)
        problems.push(`${name}: HEALTHCHECK asks ${url.pathname}, the service answers ${service.healthPath}`);
    }
    for (const read of facts.reads) {
      if (!holds(target, path.posix.resolve(workdir, read)))
        problems.push(`${name}: reads ${read}, which is not in the image`);
    }

    // Writable: exactly the folders the service writes to, none holding application files.
    const owned = stagesOf.flatMap((each) =>
      each.runs.flatMap((run) =>
        [...run.matchAll(/\bchown\s+(?:-\S+\s+)*(\S+)\s+([^&;|]+)/g)].flatMap(
          ([, owner = "", folders = ""]) => (owner.split(":")[0] === user ? folders.trim().split(/\s+/) : []),
        ),
      ),
    );
    for (const folder of owned) {
      if (stagesOf.some((each) => each.copies.some((copy) => within(copy.dest, folder))))
        problems.push(`${name}: ${folder} holds application files and is writable by ${user}`);
      else if (!facts.writes.some((write) => within(write, folder)))
        problems.push(`${name}: ${folder} is writable by ${user}, but the service does not write there`);
    }
    for (const write of facts.writes) {
      if (!owned.some((folder) => within(write, folder)))
        problems.push(`${name}: writes to ${write}, which ${user ?? "its user"} cannot write`);
    }
  }
  return problems;
}
