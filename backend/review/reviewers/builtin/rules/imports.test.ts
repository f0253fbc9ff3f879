import { describe, expect, it } from "vitest";
import { addedFile, changedFile, hunk } from "../../../../../tests/support/review-files.ts";
import { runRules } from "./engine.ts";
import { builtInRules } from "./families.ts";
import { modulesToFetch } from "./imports.ts";
import { jsImports } from "./imports-js.ts";
import { pythonImports } from "./imports-python.ts";

describe("jsImports.candidates", () => {
  it("resolves a relative import as TypeScript and bundlers do, most likely first", () => {
    expect(jsImports.candidates("src/projects/delete.ts", "./roles.ts")).toEqual(["src/projects/roles.ts"]);
    expect(jsImports.candidates("src/projects/delete.ts", "../auth/roles.js")).toEqual([
      "src/auth/roles.js",
      "src/auth/roles.ts",
      "src/auth/roles.tsx",
    ]);
    expect(jsImports.candidates("src/a.ts", "./lib/db")).toEqual([
      "src/lib/db.ts",
      "src/lib/db.tsx",
      "src/lib/db.js",
      "src/lib/db.jsx",
      "src/lib/db/index.ts",
      "src/lib/db/index.tsx",
      "src/lib/db/index.js",
    ]);
    // A dotted name is not an extension.
    expect(jsImports.candidates("src/a.ts", "./user.service")[0]).toBe("src/user.service.ts");
  });

  it("names nothing for a package or for a path that leaves the repository", () => {
    expect(jsImports.candidates("src/a.ts", "express")).toEqual([]);
    expect(jsImports.candidates("src/a.ts", "@scope/pkg/roles")).toEqual([]);
    expect(jsImports.candidates("src/a.ts", "../../outside")).toEqual([]);
  });
});

describe("modulesToFetch", () => {
  const file = (lines: string[], addedFrom: number) =>
    changedFile(
      "src/route.ts",
      hunk(
        lines.map((line, index) => (index + 1 >= addedFrom ? `+${line}` : ` ${line}`)),
        1,
        1,
      ),
      { content: `${lines.join("\n")}\n` },
    );

  it("asks for the modules whose functions an added line calls, not for every import", () => {
    const lines = [
      'import { audit } from "./audit";',
      'import { hasRole as can } from "./roles.ts";',
      'import * as store from "../store/index.js";',
      'import type { Role } from "./types";',
      'import express from "express";',
      "export async function route(user: string) {",
      "  if (!can(user, 'owner')) return;",
      "  await store.remove(user);",
      "}",
    ];
    expect(modulesToFetch([file(lines, 6)])).toEqual([
      ["src/roles.ts"],
      ["store/index.js", "store/index.ts", "store/index.tsx"],
    ]);
  });

  it("asks for nothing when the calls are on lines the pull request did not add", () => {
    const lines = ['import { hasRole } from "./roles";', "if (hasRole(user)) run();", "const added = 1;"];
    expect(modulesToFetch([file(lines, 3)])).toEqual([]);
  });
});

describe("the async check across modules", () => {
  const ROUTE = [
    'import { hasRole } from "./roles.ts";',
    "export async function remove(userId: string) {",
    '  if (!hasRole(userId, "owner")) throw new Error("not allowed");',
    "}",
  ];
  const findingsWith = (route: readonly string[], related: Record<string, string>) =>
    runRules(
      [addedFile("src/projects/delete.ts", [...route])],
      builtInRules(),
      new Map(Object.entries(related)),
    )
      .findings.filter((finding) => finding.ruleId === "logic/js-unawaited-async-condition")
      .map((finding) => finding.line);

  it("finds a promise tested in a condition when the imported function is async in its module", () => {
    const roles = "export async function hasRole(userId: string, role: string) { return true; }\n";
    expect(findingsWith(ROUTE, { "src/projects/roles.ts": roles })).toEqual([3]);
  });

  it("stays silent when the imported function is not async, or its module was not fetched", () => {
    const roles = "export function hasRole(userId: string, role: string) { return true; }\n";
    expect(findingsWith(ROUTE, { "src/projects/roles.ts": roles })).toEqual([]);
    expect(findingsWith(ROUTE, {})).toEqual([]);
  });

  it("follows an alias, a default export, a namespace import and an export list", () => {
    const aliased = ['import { hasRole as can } from "./roles";', '  if (can("u")) run();'];
    expect(
      findingsWith(aliased, {
        "src/projects/roles.ts": "export const hasRole = async (u: string) => true;\n",
      }),
    ).toEqual([2]);
    const byDefault = ['import check from "../auth/check.js";', '  if (check("u") && ready) run();'];
    expect(
      findingsWith(byDefault, {
        "src/auth/check.ts": "export default async function (u: string) { return true; }\n",
      }),
    ).toEqual([2]);
    const namespace = ['import * as roles from "./roles";', '  if (!roles.hasRole("u")) stop();'];
    expect(
      findingsWith(namespace, {
        "src/projects/roles/index.ts":
          "async function check(u: string) { return true; }\nexport { check as hasRole };\n",
      }),
    ).toEqual([2]);
    // The same module, asked for a name it exports sync.
    const other = ['import * as roles from "./roles";', '  if (!roles.check("u")) stop();'];
    expect(
      findingsWith(other, {
        "src/projects/roles/index.ts":
          "async function check(u: string) { return true; }\nexport { check as hasRole };\nexport function check2() {}\n",
      }),
    ).toEqual([]);
  });

  it("still finds a function declared async in the file itself, and a method through `this`", () => {
    const local = [
      "async function allowed(u: string) { return true; }",
      "class Guard {",
      "  private async owns(u: string) { return true; }",
      "  run(u: string) {",
      "    if (this.owns(u)) return 1;",
      "    if (allowed(u)) return 2;",
      "  }",
      "}",
    ];
    expect(findingsWith(local, {})).toEqual([5, 6]);
  });
});

describe("functions that return a promise without `async`", () => {
  const findingsIn = (lines: string[]) =>
    runRules([addedFile("src/jobs.js", lines)], builtInRules(), new Map())
      .findings.filter((finding) => finding.ruleId.startsWith("logic/js-"))
      .map((finding) => `${finding.line} ${finding.ruleId.slice("logic/".length)}`)
      .sort();

  it("counts a function whose every return makes a promise, and an arrow whose body does", () => {
    const lines = [
      "function delay(ms) {",
      "  if (ms <= 0) return Promise.resolve();",
      "  return new Promise((resolve) => setTimeout(resolve, ms));",
      "}",
      "const exists = (path) => new Promise((resolve) => fs.access(path, (error) => resolve(!error)));",
      "async function run(path) {",
      "  delay(10);",
      "  if (exists(path)) return;",
      "}",
    ];
    expect(findingsIn(lines)).toEqual(["7 js-floating-promise", "8 js-unawaited-async-condition"]);
  });

  it("leaves alone a function that may return something else, returns bare, or is a generator", () => {
    const lines = [
      "function cached(key) {",
      "  if (cache.has(key)) return cache.get(key);",
      "  return new Promise((resolve) => load(key, resolve));",
      "}",
      "function stop() {",
      "  if (done) return;",
      "  return Promise.resolve();",
      "}",
      "function* pages() {",
      "  return new Promise(() => {});",
      "}",
      "function wrap() {",
      "  const inner = () => { return new Promise(() => {}); };",
      "  inner();",
      "}",
      "async function run(key) {",
      "  cached(key);",
      "  stop();",
      "  if (pages()) return;",
      "  if (wrap()) return;",
      "}",
    ];
    expect(findingsIn(lines)).toEqual([]);
  });
});

describe("CommonJS requires", () => {
  const ROUTE = [
    'const express = require("express");',
    'const { hasRole: can, audit } = require("./roles");',
    'const roles = require("./roles");',
    'const check = require("../auth/check.js");',
    'const purge = require("./store").purge;',
    "async function remove(user) {",
    '  if (!can(user, "owner")) throw new Error("not allowed");',
    '  if (!roles.hasRole(user, "admin")) throw new Error("not allowed");',
    "  if (check(user)) return;",
    "  purge(user);",
    "  audit(user);",
    "}",
  ];
  const findingsWith = (related: Record<string, string>) =>
    runRules([addedFile("src/projects/delete.js", ROUTE)], builtInRules(), new Map(Object.entries(related)))
      .findings.filter((finding) => finding.ruleId.startsWith("logic/js-"))
      .map((finding) => `${finding.line} ${finding.ruleId.slice("logic/".length)}`)
      .sort();

  it("binds a whole module, the properties it destructures and one property, never a package", () => {
    const file = addedFile("src/projects/delete.js", ROUTE);
    file.content = `${ROUTE.join("\n")}\n`;
    // From a JavaScript file, JavaScript is the first guess.
    expect(modulesToFetch([file]).map((candidates) => candidates[0])).toEqual([
      "src/projects/roles.js",
      "src/auth/check.js",
      "src/projects/store.js",
    ]);
  });

  it("reads what `module.exports` and `exports.name` make async, the last assignment winning", () => {
    const roles = [
      "async function hasRole(user, role) { return true; }",
      "module.exports = { hasRole, async audit(user) {} };",
    ].join("\n");
    const related = {
      "src/projects/roles.js": roles,
      "src/auth/check.js": "module.exports = async function check(user) { return true; };\n",
      "src/projects/store.js": "exports.purge = () => 1;\nmodule.exports.purge = async (user) => {};\n",
    };
    expect(findingsWith(related)).toEqual([
      "10 js-floating-promise",
      "11 js-floating-promise",
      "7 js-unawaited-async-condition",
      "8 js-unawaited-async-condition",
      "9 js-unawaited-async-condition",
    ]);
  });

  it("stays silent for what the module exports sync, or replaced, or does not export", () => {
    const related = {
      "src/projects/roles.js": [
        "exports.hasRole = async (user, role) => true;",
        "module.exports = { hasRole: (user, role) => true, audit(user) {} };",
      ].join("\n"),
      "src/auth/check.js": "async function check(user) { return true; }\nmodule.exports = { check };\n",
      "src/projects/store.js": "async function purge(user) {}\n",
    };
    expect(findingsWith(related)).toEqual([]);
  });
});

describe("Python imports", () => {
  it("resolves relative modules by package, and absolute ones at the root or under src/", () => {
    expect(pythonImports.candidates("app/api/users.py", ".roles")).toEqual([
      "app/api/roles.py",
      "app/api/roles/__init__.py",
    ]);
    expect(pythonImports.candidates("app/api/users.py", "..auth.check")).toEqual([
      "app/auth/check.py",
      "app/auth/check/__init__.py",
    ]);
    expect(pythonImports.candidates("app/api/users.py", ".")).toEqual(["app/api/__init__.py"]);
    expect(pythonImports.candidates("app/api/users.py", "app.roles")).toEqual([
      "app/roles.py",
      "app/roles/__init__.py",
      "src/app/roles.py",
      "src/app/roles/__init__.py",
    ]);
    expect(pythonImports.candidates("app/users.py", "...outside")).toEqual([]);
  });

  it("asks the code host only for relative modules and packages where the pull request changed files", () => {
    expect(pythonImports.fetchable(".roles", ["app/api.py"])).toBe(true);
    expect(pythonImports.fetchable("app.roles", ["app/api.py"])).toBe(true);
    expect(pythonImports.fetchable("app.roles", ["src/app/api.py"])).toBe(true);
    expect(pythonImports.fetchable("fastapi", ["app/api.py"])).toBe(false);
  });

  const USERS = [
    "from fastapi import Depends",
    "from .roles import has_role as can",
    "from . import mail",
    "import app.audit as audit",
    "async def remove(user, db=Depends(session)):",
    "    if not can(user, 'owner'):",
    "        raise PermissionError(user)",
    "    mail.send(user)",
    "    audit.record(user)",
  ];
  const related = {
    "app/api/roles.py": "async def has_role(user, role):\n    return True\n",
    "app/api/mail.py": "import smtplib\n\nasync def send(user):\n    pass\n",
    "app/audit.py": "def record(user):\n    pass\n",
  };

  it("fetches the modules whose functions the added lines call, never a package from the index", () => {
    const file = addedFile("app/api/users.py", USERS);
    file.content = `${USERS.join("\n")}\n`;
    expect(modulesToFetch([file])).toEqual([
      ["app/api/roles.py", "app/api/roles/__init__.py"],
      ["app/api/mail.py", "app/api/mail/__init__.py"],
      ["app/audit.py", "app/audit/__init__.py", "src/app/audit.py", "src/app/audit/__init__.py"],
    ]);
  });

  it("finds a coroutine tested in a condition and one never awaited, both imported; a plain function stays silent", () => {
    const run = runRules(
      [addedFile("app/api/users.py", USERS)],
      builtInRules(),
      new Map(Object.entries(related)),
    );
    expect(
      run.findings
        .filter((finding) => finding.ruleId.startsWith("logic/py-"))
        .map((finding) => `${finding.line} ${finding.ruleId}`)
        .sort(),
    ).toEqual(["6 logic/py-coroutine-in-condition", "8 logic/py-unawaited-coroutine"]);
  });
});
