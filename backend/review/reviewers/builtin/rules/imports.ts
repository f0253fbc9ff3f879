/**
 * What the rule engine knows about the functions a changed file calls from other modules of its own
 * repository (docs/decisions/066-imported-functions.md): one hop, relative imports only. The
 * pipeline fetches, at head, the modules whose functions the added lines call (`modulesToFetch`);
 * a rule's `async` check then asks whether the function a call names is async
 * (`ImportedFunctions.isAsyncCallee`), in the file itself or in the module it was imported from.
 */
import path from "node:path";
import { parse, type SgNode } from "@ast-grep/napi";
import { addedLines, type DiffFile } from "../../../pipeline/diff.ts";
import { fileLanguage, grammarOf, groupOf } from "./languages.ts";
import { kindOf } from "./taint-value.ts";

/** Texts at head of the modules changed files import, by repository path. */
export type RelatedModules = ReadonlyMap<string, string>;

/** One name an import statement binds: `import { imported as local } from "specifier"`. */
export interface ImportBinding {
  local: string;
  /** The exported name; `default` for a default import, `*` for a namespace import. */
  imported: string;
  specifier: string;
}

const isAsync = (node: SgNode) => node.children().some((child) => child.kind() === "async");
const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function"]);

/** Every value import of a JavaScript or TypeScript file (`import type` binds no function). */
export function importBindings(root: SgNode): ImportBinding[] {
  const bindings: ImportBinding[] = [];
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
      if (part.kind() === "identifier") bindings.push({ local: part.text(), imported: "default", specifier });
      if (part.kind() === "namespace_import") {
        const local = part.find({ rule: { kind: "identifier" } })?.text();
        if (local) bindings.push({ local, imported: "*", specifier });
      }
      if (part.kind() !== "named_imports") continue;
      for (const named of part.findAll({ rule: { kind: "import_specifier" } })) {
        if (named.children().some((child) => child.kind() === "type")) continue;
        const imported = named.field("name")?.text();
        if (imported) bindings.push({ local: named.field("alias")?.text() ?? imported, imported, specifier });
      }
    }
  }
  return bindings;
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
 * The repository paths a relative import may name, most likely first, as a bundler or TypeScript
 * resolves them; none for a package, or for a path that leaves the repository.
 */
export function moduleCandidates(fromPath: string, specifier: string): string[] {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return [];
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(fromPath), specifier));
  if (joined === ".." || joined.startsWith("../")) return [];
  const extension = path.posix.extname(joined);
  // `./user.service` is a dotted name without an extension.
  if (!KNOWN_EXTENSIONS.has(extension)) return EXTENSIONLESS.map((suffix) => joined + suffix);
  const stem = joined.slice(0, -extension.length);
  return [joined, ...(COMPILED_FROM[extension] ?? []).map((other) => stem + other)];
}

const escaped = (name: string) => name.replace(/\$/g, "\\$");

/**
 * The modules worth fetching for the changed files: those of their relative imports whose functions
 * an added line calls (`check(…)`, or `roles.check(…)` for a namespace). Each is the list of paths
 * it may be at (moduleCandidates), one list per module.
 */
export function modulesToFetch(files: readonly DiffFile[]): string[][] {
  const wanted = new Map<string, string[]>();
  for (const file of files) {
    const language = fileLanguage(file.path);
    if (file.content === undefined || !language || groupOf(language) !== "js") continue;
    const added = addedLines(file)
      .map((line) => line.text)
      .join("\n");
    if (!added) continue;
    const root = parse(grammarOf(language), file.content).root();
    for (const binding of importBindings(root)) {
      const call =
        binding.imported === "*"
          ? new RegExp(`(^|[^\\w$.])${escaped(binding.local)}\\.[\\w$]+\\s*\\(`)
          : new RegExp(`(^|[^\\w$.])${escaped(binding.local)}\\s*\\(`);
      if (!call.test(added)) continue;
      const candidates = moduleCandidates(file.path, binding.specifier);
      if (candidates[0]) wanted.set(candidates[0], candidates);
    }
  }
  return [...wanted.values()];
}

/** Whether `declaration` (a function, a method or a variable holding one) is async. */
function declaresAsync(declaration: SgNode): boolean {
  if (declaration.kind() !== "variable_declarator") return isAsync(declaration);
  const value = declaration.field("value");
  return !!value && FUNCTION_VALUES.has(kindOf(value)) && isAsync(value);
}

/** What a file says about its own functions and imports, worked out once per file and run. */
interface FileFacts {
  bindings: ImportBinding[];
  /** Functions, and variables holding a function, declared async anywhere in the file. */
  asyncFunctions: Set<string>;
  asyncMethods: Set<string>;
}

function factsOf(root: SgNode): FileFacts {
  const facts: FileFacts = {
    bindings: importBindings(root),
    asyncFunctions: new Set(),
    asyncMethods: new Set(),
  };
  const declarations = root.findAll({
    rule: {
      any: [{ kind: "function_declaration" }, { kind: "method_definition" }, { kind: "variable_declarator" }],
    },
  });
  for (const declaration of declarations) {
    const name = declaration.field("name")?.text();
    if (!name || !declaresAsync(declaration)) continue;
    (declaration.kind() === "method_definition" ? facts.asyncMethods : facts.asyncFunctions).add(name);
  }
  return facts;
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

/** The related modules, each parsed once per run, and what each changed file says of itself. */
export class ImportedFunctions {
  readonly #modules: RelatedModules;
  readonly #roots = new Map<string, SgNode | null>();
  readonly #facts = new Map<string, FileFacts>();

  constructor(modules: RelatedModules) {
    this.#modules = modules;
  }

  /** The module an import of `fromPath` names, parsed; null when it was not fetched. */
  #resolve(fromPath: string, specifier: string): SgNode | null {
    const found = moduleCandidates(fromPath, specifier).find((candidate) => this.#modules.has(candidate));
    if (!found) return null;
    let root = this.#roots.get(found);
    if (root === undefined) {
      const language = fileLanguage(found);
      root = language ? parse(grammarOf(language), this.#modules.get(found) ?? "").root() : null;
      this.#roots.set(found, root);
    }
    return root;
  }

  /**
   * Whether the function a call in `fromPath` names is async: declared async in the file
   * (`check(…)`; `this.check(…)` for a method), or imported from a module whose export of that
   * name is an async function (`import { check }`, `import check`, and `roles.check(…)` after
   * `import * as roles`).
   */
  isAsyncCallee(callee: SgNode, fromPath: string): boolean {
    let facts = this.#facts.get(fromPath);
    if (!facts) {
      facts = factsOf(callee.getRoot().root());
      this.#facts.set(fromPath, facts);
    }
    const { bindings, asyncFunctions, asyncMethods } = facts;
    const imported = (local: string, namespace: boolean) =>
      bindings.find((binding) => binding.local === local && (binding.imported === "*") === namespace);
    if (callee.kind() === "identifier") {
      const binding = imported(callee.text(), false);
      if (!binding) return asyncFunctions.has(callee.text());
      const module = this.#resolve(fromPath, binding.specifier);
      return !!module && exportsAsync(module, binding.imported);
    }
    if (callee.kind() !== "member_expression") return false;
    const object = callee.field("object");
    const property = callee.field("property")?.text();
    if (!object || !property) return false;
    if (object.kind() === "this") return asyncMethods.has(property);
    const binding = imported(object.text(), true);
    const module = binding ? this.#resolve(fromPath, binding.specifier) : null;
    return !!module && exportsAsync(module, property);
  }
}
