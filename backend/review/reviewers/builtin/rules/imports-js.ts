/**
 * Imports and async functions in JavaScript and TypeScript (imports.ts): ES module imports and
 * CommonJS requires with a relative path, resolved as TypeScript, bundlers and Node do, and what a
 * module exports either way.
 */
import path from "node:path";
import type { SgNode } from "@ast-grep/napi";
import { DIALECTS } from "./dialects.ts";
import type { AsyncDeclarations, CalleeName, ImportBinding, ImportDialect } from "./imports.ts";
import { isAsync, kindOf } from "./taint-value.ts";

const stringIn = (node: SgNode | null) => node?.find({ rule: { kind: "string_fragment" } })?.text();

/** Every value import of an `import` statement (`import type` binds no function). */
function esmBindings(statement: SgNode): ImportBinding[] {
  if (statement.children().some((child) => child.kind() === "type")) return [];
  const specifier = stringIn(statement.field("source"));
  const clause = statement.children().find((child) => child.kind() === "import_clause");
  if (!specifier || !clause) return [];
  const found: ImportBinding[] = [];
  for (const part of clause.children()) {
    if (part.kind() === "identifier") found.push({ local: part.text(), imported: "default", specifier });
    if (part.kind() === "namespace_import") {
      const local = part.find({ rule: { kind: "identifier" } })?.text();
      if (local) found.push({ local, imported: "*", specifier });
    }
    if (part.kind() !== "named_imports") continue;
    for (const named of part.findAll({ rule: { kind: "import_specifier" } })) {
      if (named.children().some((child) => child.kind() === "type")) continue;
      const imported = named.field("name")?.text();
      if (imported) found.push({ local: named.field("alias")?.text() ?? imported, imported, specifier });
    }
  }
  return found;
}

/** The specifier of `require("…")`, or undefined when `node` is not such a call. */
function requiredSpecifier(node: SgNode | null): string | undefined {
  if (node?.kind() !== "call_expression" || node.field("function")?.text() !== "require") return undefined;
  return stringIn(node.field("arguments"));
}

/**
 * The names a CommonJS `const … = require("…")` binds: the whole module, called as a function or
 * used as a namespace (`const roles = require("./roles")`), the properties it destructures
 * (`const { check: can } = require("./roles")`), or one property (`require("./roles").check`).
 */
function requireBindings(statement: SgNode): ImportBinding[] {
  if (statement.kind() !== "lexical_declaration" && statement.kind() !== "variable_declaration") return [];
  const found: ImportBinding[] = [];
  for (const declarator of statement.children().filter((child) => child.kind() === "variable_declarator")) {
    const name = declarator.field("name");
    const value = declarator.field("value");
    if (!name || !value) continue;
    const whole = requiredSpecifier(value);
    if (whole && name.kind() === "identifier") {
      found.push({ local: name.text(), imported: "*", specifier: whole });
      found.push({ local: name.text(), imported: "default", specifier: whole });
    } else if (whole && name.kind() === "object_pattern") {
      found.push(...destructured(name, whole));
    } else if (name.kind() === "identifier" && value.kind() === "member_expression") {
      const specifier = requiredSpecifier(value.field("object"));
      const imported = value.field("property")?.text();
      if (specifier && imported) found.push({ local: name.text(), imported, specifier });
    }
  }
  return found;
}

/** The names `{ check, audit: record }` binds, each a property of the required module. */
function destructured(pattern: SgNode, specifier: string): ImportBinding[] {
  const found: ImportBinding[] = [];
  for (const part of pattern.children()) {
    if (part.kind() === "shorthand_property_identifier_pattern")
      found.push({ local: part.text(), imported: part.text(), specifier });
    const key = part.kind() === "pair_pattern" ? part.field("key")?.text() : undefined;
    const local = part.field("value");
    if (key && local?.kind() === "identifier") found.push({ local: local.text(), imported: key, specifier });
  }
  return found;
}

/** Every value import and every top-level require. */
function bindings(root: SgNode): ImportBinding[] {
  return root
    .children()
    .flatMap((statement) =>
      statement.kind() === "import_statement" ? esmBindings(statement) : requireBindings(statement),
    );
}

/** An import names a `.js` file that TypeScript compiles from one of these. */
const COMPILED_FROM: Readonly<Record<string, readonly string[]>> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};
const KNOWN_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]);
const EXTENSIONLESS = [".ts", ".tsx", ".js", ".jsx", "/index.ts", "/index.tsx", "/index.js"];
// A JavaScript file names JavaScript first (Node's order for `require("./x")`): each guess is a call
// to the code host.
const EXTENSIONLESS_FROM_JS = [".js", ".jsx", "/index.js", ".ts", ".tsx", "/index.ts"];
const JS_FILE = /\.(c|m)?jsx?$/;

/**
 * The repository paths a relative import may name, most likely first; none for a package, or for a
 * path that leaves the repository.
 */
function candidates(fromPath: string, specifier: string): string[] {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return [];
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(fromPath), specifier));
  if (joined === ".." || joined.startsWith("../")) return [];
  const extension = path.posix.extname(joined);
  // `./user.service` is a dotted name without an extension.
  if (!KNOWN_EXTENSIONS.has(extension))
    return (JS_FILE.test(fromPath) ? EXTENSIONLESS_FROM_JS : EXTENSIONLESS).map((suffix) => joined + suffix);
  const stem = joined.slice(0, -extension.length);
  return [joined, ...(COMPILED_FROM[extension] ?? []).map((other) => stem + other)];
}

const FUNCTIONS = DIALECTS.js.functions;

/** A promise made where it is returned: `new Promise(…)`, or `Promise.all(…)` and its siblings. */
const PROMISE_MADE = /^(new\s+Promise\s*\(|Promise\.(all|allSettled|any|race|resolve|reject|try)\s*\()/;

/**
 * Whether a function not declared `async` still always returns a promise, as code written before
 * `async` does: the arrow's body, or every `return` of its own (none bare), makes one.
 */
function returnsPromise(fn: SgNode): boolean {
  const body = fn.field("body");
  // A generator returns an iterator whatever its `return` says.
  if (!body || kindOf(fn).includes("generator") || fn.children().some((child) => child.kind() === "*"))
    return false;
  if (body.kind() !== "statement_block") return PROMISE_MADE.test(body.text());
  const returns = body.findAll({ rule: { kind: "return_statement" } }).filter(
    (statement) =>
      statement
        .ancestors()
        .find((node) => FUNCTIONS.has(kindOf(node)))
        ?.id() === fn.id(),
  );
  return (
    returns.length > 0 && returns.every((statement) => PROMISE_MADE.test(statement.child(1)?.text() ?? ""))
  );
}

/**
 * Whether `declaration` (a function, a method or a variable holding one) is async: declared so, or
 * always returning a promise.
 */
function declaresAsync(declaration: SgNode): boolean {
  const fn = declaration.kind() === "variable_declarator" ? declaration.field("value") : declaration;
  return !!fn && FUNCTIONS.has(kindOf(fn)) && (isAsync(fn) || returnsPromise(fn));
}

function asyncDeclarations(root: SgNode): AsyncDeclarations {
  const declared: AsyncDeclarations = { functions: new Set(), methods: new Set() };
  const declarations = root.findAll({
    rule: {
      any: [{ kind: "function_declaration" }, { kind: "method_definition" }, { kind: "variable_declarator" }],
    },
  });
  for (const declaration of declarations) {
    const name = declaration.field("name")?.text();
    if (!name || !declaresAsync(declaration)) continue;
    (declaration.kind() === "method_definition" ? declared.methods : declared.functions).add(name);
  }
  return declared;
}

/** The declarations a top-level statement makes: a function or class, or each variable of a declaration. */
function declarationsOf(statement: SgNode): SgNode[] {
  const inner = statement.kind() === "export_statement" ? statement.field("declaration") : statement;
  if (!inner) return [];
  return inner.kind() === "lexical_declaration" || inner.kind() === "variable_declaration"
    ? inner.children().filter((child) => child.kind() === "variable_declarator")
    : [inner];
}

/**
 * What an ES module exports as `exported` (`default` included): a declaration exported where it is
 * made, the name in `export { local as exported }`, or what follows `export default`.
 */
function esmExport(root: SgNode, exported: string): SgNode | null {
  let named: SgNode | null = null;
  for (const statement of root.children()) {
    if (statement.kind() !== "export_statement") continue;
    if (exported === "default" && statement.children().some((child) => child.kind() === "default"))
      return statement.field("value") ?? statement.field("declaration");
    const declared = declarationsOf(statement).find((node) => node.field("name")?.text() === exported);
    if (declared) return declared;
    for (const specifier of statement.findAll({ rule: { kind: "export_specifier" } })) {
      if ((specifier.field("alias") ?? specifier.field("name"))?.text() === exported)
        named = specifier.field("name");
    }
  }
  return named;
}

/** `exports.name` or `module.exports.name`: the name a CommonJS assignment exports, if it is one. */
function commonJsExportName(target: SgNode): string | undefined {
  if (target.kind() !== "member_expression") return undefined;
  const object = target.field("object")?.text();
  return object === "exports" || object === "module.exports" ? target.field("property")?.text() : undefined;
}

/** The property `name` of an object literal: its value, the shorthand name or the method. */
function propertyOf(object: SgNode, name: string): SgNode | null {
  if (object.kind() !== "object") return null;
  for (const property of object.children()) {
    const kind = property.kind();
    if (kind === "shorthand_property_identifier" && property.text() === name) return property;
    if (kind === "method_definition" && property.field("name")?.text() === name) return property;
    if (kind === "pair" && property.field("key")?.text() === name) return property.field("value");
  }
  return null;
}

/**
 * What a CommonJS module exports as `exported`, the last assignment winning: `module.exports = …`
 * for `default`, `exports.name = …` or `module.exports.name = …`, or a property (`name: value`,
 * `name`, `async name() {}`) of the object `module.exports = { … }`, which replaces all before it.
 */
function commonJsExport(root: SgNode, exported: string): SgNode | null {
  let value: SgNode | null = null;
  for (const statement of root.children()) {
    const assignment = statement.kind() === "expression_statement" ? statement.child(0) : null;
    const target = assignment?.kind() === "assignment_expression" ? assignment.field("left") : null;
    const assigned = assignment?.field("right");
    if (!target || !assigned) continue;
    if (commonJsExportName(target) === exported) value = assigned;
    else if (target.text() === "module.exports")
      value = exported === "default" ? assigned : propertyOf(assigned, exported);
  }
  return value;
}

/**
 * Whether what a module exports as `exported` (`default` included) is an async function, whether
 * the module is an ES module or CommonJS. A name the module does not export is not its export.
 */
function exportsAsync(root: SgNode, exported: string): boolean {
  const value = esmExport(root, exported) ?? commonJsExport(root, exported);
  const named = value?.kind() === "identifier" || value?.kind() === "shorthand_property_identifier";
  const declared = named
    ? root
        .children()
        .flatMap(declarationsOf)
        .find((node) => node.field("name")?.text() === value?.text())
    : value;
  return !!declared && declaresAsync(declared);
}

/** A rule's `$FN` of `$FN(…)` is the whole callee: `check`, `this.check` or `roles.check`. */
function callee(node: SgNode): CalleeName | null {
  if (node.kind() === "identifier") return { name: node.text() };
  if (node.kind() !== "member_expression") return null;
  const object = node.field("object");
  const name = node.field("property")?.text();
  if (!object || !name) return null;
  return object.kind() === "this" ? { name, method: true } : { name, namespace: object.text() };
}

export const jsImports: ImportDialect = {
  bindings,
  candidates,
  asyncDeclarations,
  exportsAsync,
  callee,
  fetchable: (specifier) => specifier.startsWith("./") || specifier.startsWith("../"),
};
