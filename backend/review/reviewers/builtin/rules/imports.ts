/**
 * What the rule engine knows about the functions a changed file calls from other modules of its own
 * repository (docs/decisions/066-imported-functions.md): one hop, through the imports a path can
 * resolve. The pipeline fetches, at head, the modules whose functions the added lines call
 * (`modulesToFetch`); a rule's `async` check then asks whether the function a call names is async
 * (`ImportedFunctions.isAsyncCallee`), in the file itself or in the module it was imported from.
 * Each language's imports are read by its dialect (imports-js.ts, imports-python.ts).
 */
import { parse, type SgNode } from "@ast-grep/napi";
import { addedLines, type DiffFile } from "../../../pipeline/diff.ts";
import { jsImports } from "./imports-js.ts";
import { pythonImports } from "./imports-python.ts";
import { fileLanguage, grammarOf, groupOf } from "./languages.ts";

/** Texts at head of the modules changed files import, by repository path. */
export type RelatedModules = ReadonlyMap<string, string>;

/** One name an import binds: `import { imported as local } from "specifier"`, or its `require` twin. */
export interface ImportBinding {
  local: string;
  /** The exported name; `default` for a default import, `*` for a whole module used as a namespace. */
  imported: string;
  specifier: string;
}

/** The names a file declares as async functions, and as async methods of its classes. */
export interface AsyncDeclarations {
  functions: Set<string>;
  methods: Set<string>;
}

/** What a call names: a function, a method of the object itself, or a member of an imported module. */
export interface CalleeName {
  name: string;
  method?: true;
  namespace?: string;
}

/** How one language imports and declares (imports-js.ts, imports-python.ts). */
export interface ImportDialect {
  bindings(root: SgNode): ImportBinding[];
  /** The repository paths the module may be at, most likely first; none when no path can name it. */
  candidates(fromPath: string, specifier: string): string[];
  /** Whether to ask the code host for the module at all (a package from a registry is never there). */
  fetchable(specifier: string, changedPaths: readonly string[]): boolean;
  asyncDeclarations(root: SgNode): AsyncDeclarations;
  /** Whether what the module offers as `name` (`default` included) is an async function. */
  exportsAsync(root: SgNode, name: string): boolean;
  /** What a rule's metavariable names, or null when it is not a call's function. */
  callee(node: SgNode): CalleeName | null;
}

function dialectOf(
  path: string,
): { dialect: ImportDialect; language: NonNullable<ReturnType<typeof fileLanguage>> } | null {
  const language = fileLanguage(path);
  if (!language) return null;
  const group = groupOf(language);
  if (group === "js") return { dialect: jsImports, language };
  return group === "python" ? { dialect: pythonImports, language } : null;
}

const escaped = (name: string) => name.replace(/\$/g, "\\$");

/**
 * The modules worth fetching for the changed files: those of their imports whose functions an added
 * line calls (`check(…)`, or `roles.check(…)` for a module imported whole). Each is the list of
 * paths it may be at, one list per module.
 */
export function modulesToFetch(files: readonly DiffFile[]): string[][] {
  const wanted = new Map<string, string[]>();
  const changedPaths = files.map((file) => file.path);
  for (const file of files) {
    const found = dialectOf(file.path);
    if (file.content === undefined || !found) continue;
    const added = addedLines(file)
      .map((line) => line.text)
      .join("\n");
    if (!added) continue;
    const root = parse(grammarOf(found.language), file.content).root();
    for (const binding of found.dialect.bindings(root)) {
      const call =
        binding.imported === "*"
          ? new RegExp(`(^|[^\\w$.])${escaped(binding.local)}\\.[\\w$]+\\s*\\(`)
          : new RegExp(`(^|[^\\w$.])${escaped(binding.local)}\\s*\\(`);
      if (!call.test(added) || !found.dialect.fetchable(binding.specifier, changedPaths)) continue;
      const candidates = found.dialect.candidates(file.path, binding.specifier);
      if (candidates[0]) wanted.set(candidates[0], candidates);
    }
  }
  return [...wanted.values()];
}

/** The related modules, each parsed once per run, and what each changed file says of itself. */
export class ImportedFunctions {
  readonly #modules: RelatedModules;
  readonly #roots = new Map<string, SgNode | null>();
  readonly #files = new Map<string, { bindings: ImportBinding[]; declared: AsyncDeclarations }>();

  constructor(modules: RelatedModules) {
    this.#modules = modules;
  }

  /** The module an import of `fromPath` names, parsed; null when it was not fetched. */
  #resolve(dialect: ImportDialect, fromPath: string, specifier: string): SgNode | null {
    const found = dialect.candidates(fromPath, specifier).find((candidate) => this.#modules.has(candidate));
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
   * Whether the function a call in `fromPath` names is async: declared async in the file (`check(…)`;
   * `this.check(…)` or `self.check(…)` for a method), or imported from a module that offers that
   * name as an async function (`import { check }`, `import check`, `const { check } = require(…)`,
   * `from .roles import check`, and `roles.check(…)` after `import * as roles`,
   * `const roles = require(…)` or `from . import roles`).
   */
  isAsyncCallee(node: SgNode, fromPath: string): boolean {
    const found = dialectOf(fromPath);
    const callee = found?.dialect.callee(node);
    if (!found || !callee) return false;
    const { dialect } = found;
    let file = this.#files.get(fromPath);
    if (!file) {
      const root = node.getRoot().root();
      file = { bindings: dialect.bindings(root), declared: dialect.asyncDeclarations(root) };
      this.#files.set(fromPath, file);
    }
    if (callee.method) return file.declared.methods.has(callee.name);
    const namespace = callee.namespace !== undefined;
    const binding = file.bindings.find(
      (candidate) =>
        candidate.local === (callee.namespace ?? callee.name) && (candidate.imported === "*") === namespace,
    );
    if (!binding) return !namespace && file.declared.functions.has(callee.name);
    const module = this.#resolve(dialect, fromPath, binding.specifier);
    return !!module && dialect.exportsAsync(module, namespace ? callee.name : binding.imported);
  }
}
