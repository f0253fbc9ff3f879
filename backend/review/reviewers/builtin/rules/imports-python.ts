/**
 * Imports and coroutine functions in Python (imports.ts): `from … import …` with a relative module
 * (`.roles`, `..auth.check`), or an absolute one whose top package is a folder the pull request
 * touches (`app.roles` beside a changed `app/api.py`, also under `src/`); `import app.roles as r`.
 */
import path from "node:path";
import type { SgNode } from "@ast-grep/napi";
import type { AsyncDeclarations, CalleeName, ImportBinding, ImportDialect } from "./imports.ts";
import { isAsync } from "./taint-value.ts";

/** `from m import f as g` binds g to f of m; `from . import m` may also bind a submodule, used as `m.f`. */
function bindings(root: SgNode): ImportBinding[] {
  const found: ImportBinding[] = [];
  for (const statement of root.children()) {
    if (statement.kind() === "import_statement") {
      for (const aliased of statement.children().filter((child) => child.kind() === "aliased_import")) {
        const specifier = aliased.field("name")?.text();
        const local = aliased.field("alias")?.text();
        if (specifier && local) found.push({ local, imported: "*", specifier });
      }
      continue;
    }
    if (statement.kind() !== "import_from_statement") continue;
    const module = statement.field("module_name")?.text();
    if (!module) continue;
    let names = false;
    for (const child of statement.children()) {
      if (child.kind() === "import") names = true;
      if (!names) continue;
      const imported = child.kind() === "aliased_import" ? child.field("name")?.text() : child.text();
      const local = child.kind() === "aliased_import" ? child.field("alias")?.text() : child.text();
      if (!imported || !local || (child.kind() !== "dotted_name" && child.kind() !== "aliased_import"))
        continue;
      found.push({ local, imported, specifier: module });
      found.push({
        local,
        imported: "*",
        specifier: module.endsWith(".") ? module + imported : `${module}.${imported}`,
      });
    }
  }
  return found;
}

/** The files a module may be: `a/b.py` or the package `a/b/__init__.py`. */
const filesOf = (folder: string) => (folder ? [`${folder}.py`, `${folder}/__init__.py`] : []);

function candidates(fromPath: string, specifier: string): string[] {
  const dots = /^\.*/.exec(specifier)?.[0].length ?? 0;
  const rest = specifier.slice(dots).split(".").filter(Boolean).join("/");
  if (dots === 0) return [...filesOf(rest), ...filesOf(`src/${rest}`)];
  // `.` is the importing file's package; each further dot is one package up.
  let base = path.posix.dirname(fromPath);
  for (let level = 1; level < dots; level++) {
    if (base === ".") return [];
    base = path.posix.dirname(base);
  }
  const folder = [base === "." ? "" : base, rest].filter(Boolean).join("/");
  return rest ? filesOf(folder) : [folder ? `${folder}/__init__.py` : "__init__.py"];
}

/** A relative module, or an absolute one whose top package is where a changed file is. */
function fetchable(specifier: string, changedPaths: readonly string[]): boolean {
  if (specifier.startsWith(".")) return true;
  const top = specifier.split(".")[0];
  return changedPaths.some((changed) => {
    const parts = changed.split("/");
    return parts[0] === top || (parts[0] === "src" && parts[1] === top);
  });
}

/** The class a definition is a method of, through a decorator. */
function isMethod(definition: SgNode): boolean {
  let owner = definition.parent();
  if (owner?.kind() === "decorated_definition") owner = owner.parent();
  return owner?.kind() === "block" && owner.parent()?.kind() === "class_definition";
}

function asyncDeclarations(root: SgNode): AsyncDeclarations {
  const declared: AsyncDeclarations = { functions: new Set(), methods: new Set() };
  for (const definition of root.findAll({ rule: { kind: "function_definition" } })) {
    const name = definition.field("name")?.text();
    if (name && isAsync(definition)) (isMethod(definition) ? declared.methods : declared.functions).add(name);
  }
  return declared;
}

/** Whether the module defines `name` at its top level as a coroutine function. */
function exportsAsync(root: SgNode, name: string): boolean {
  for (const statement of root.children()) {
    const definition =
      statement.kind() === "decorated_definition" ? statement.field("definition") : statement;
    if (definition?.kind() === "function_definition" && definition.field("name")?.text() === name)
      return isAsync(definition);
  }
  return false;
}

/** A rule's `$FN` is the called name: alone (`check`), or the attribute of `self.check` or `roles.check`. */
function callee(node: SgNode): CalleeName | null {
  const attribute = node.kind() === "attribute" ? node : node.parent();
  if (attribute?.kind() === "attribute") {
    const object = attribute.field("object");
    const name = attribute.field("attribute")?.text();
    if (!object || !name) return null;
    return object.text() === "self" ? { name, method: true } : { name, namespace: object.text() };
  }
  return node.kind() === "identifier" ? { name: node.text() } : null;
}

export const pythonImports: ImportDialect = {
  bindings,
  candidates,
  asyncDeclarations,
  exportsAsync,
  callee,
  fetchable,
};
