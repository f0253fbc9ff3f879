/**
 * Imports and async functions in JavaScript and TypeScript (imports.ts): ES module imports with a
 * relative path, resolved as TypeScript and bundlers do, and what a module exports.
 */
import path from "node:path";
import type { SgNode } from "@ast-grep/napi";
import type { AsyncDeclarations, CalleeName, ImportBinding, ImportDialect } from "./imports.ts";
import { isAsync, kindOf } from "./taint-value.ts";

const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function"]);

/** Every value import (`import type` binds no function). */
function bindings(root: SgNode): ImportBinding[] {
  const found: ImportBinding[] = [];
  for (const statement of root.children()) {
    if (statement.kind() !== "import_statement") continue;
    if (statement.children().some((child) => child.kind() === "type")) continue;
    const specifier = statement
      .field("source")
      ?.find({ rule: { kind: "string_fragment" } })
      ?.text();
    const clause = statement.children().find((child) => child.kind() === "import_clause");
    if (!specifier || !clause) continue;
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
  }
  return found;
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
  if (!KNOWN_EXTENSIONS.has(extension)) return EXTENSIONLESS.map((suffix) => joined + suffix);
  const stem = joined.slice(0, -extension.length);
  return [joined, ...(COMPILED_FROM[extension] ?? []).map((other) => stem + other)];
}

/** Whether `declaration` (a function, a method or a variable holding one) is async. */
function declaresAsync(declaration: SgNode): boolean {
  if (declaration.kind() !== "variable_declarator") return isAsync(declaration);
  const value = declaration.field("value");
  return !!value && FUNCTION_VALUES.has(kindOf(value)) && isAsync(value);
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
 * Whether what a module exports as `exported` (`default` included) is an async function: a
 * declaration exported where it is made, one named in `export { local as exported }`, or what
 * follows `export default`. A name the module does not export is not its export.
 */
function exportsAsync(root: SgNode, exported: string): boolean {
  let local: string | null = null;
  for (const statement of root.children()) {
    if (statement.kind() !== "export_statement") continue;
    if (exported === "default" && statement.children().some((child) => child.kind() === "default")) {
      const value = statement.field("value") ?? statement.field("declaration");
      if (value?.kind() !== "identifier")
        return !!value && kindOf(value).includes("function") && isAsync(value);
      local = value.text();
    }
    const declared = declarationsOf(statement).find((node) => node.field("name")?.text() === exported);
    if (declared) return declaresAsync(declared);
    for (const specifier of statement.findAll({ rule: { kind: "export_specifier" } })) {
      if ((specifier.field("alias") ?? specifier.field("name"))?.text() === exported)
        local = specifier.field("name")?.text() ?? null;
    }
  }
  if (local === null) return false;
  const declared = root
    .children()
    .flatMap(declarationsOf)
    .find((node) => node.field("name")?.text() === local);
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
