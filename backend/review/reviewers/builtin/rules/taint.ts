/**
 * Taint-lite (docs/decisions/033): does an expression carry data from outside, within the function
 * it is in? A sink rule fires only when its argument does.
 *
 * - Sources: a request's data (`req.body/query/params/headers/cookies…`, Flask and Django
 *   `request.*`, the parameters of a route-decorated Python function, Go's `*http.Request` (`r.URL`,
 *   `r.FormValue`, `r.Header`…), `mux.Vars`, gin/echo/fiber contexts, the browser's `location.*`);
 *   a parameter of the enclosing function (numbers, booleans and dates excepted, by their type or
 *   default); and, for rules that ask, anything that is not a constant.
 * - Propagation: string concatenation, template literals, `%`, `.format`, f-strings, `fmt.Sprintf`,
 *   `path.join` and its kin, member access and method calls on tainted values, destructuring,
 *   `for … of/in/range` over tainted values, and assignments to local variables before the sink.
 * - Calls to anything else are clean (`parseInt`, `escape`, an ORM's builder): a taint-lite misses
 *   what flows through helper functions rather than guess about them.
 * - A local variable's value is its last assignment before the use in the same or an enclosing
 *   block, plus any later one inside a branch; a variable a closure does not assign is looked up in
 *   the enclosing function, then at module level.
 */
import type { SgNode } from "@ast-grep/napi";
import {
  type Binding,
  BUILDER_METHODS,
  CLEAN_METHODS,
  calleeName,
  DIALECTS,
  type Dialect,
  FORMATTERS,
  lastSegment,
  PASS_THROUGH,
} from "./dialects.ts";
import type { LanguageGroup } from "./languages.ts";
import {
  CLEAN,
  contains,
  type Evaluator,
  kindOf,
  lineOf,
  merge,
  nonConstant,
  passOn,
  SOURCE,
  startOf,
  type Taint,
} from "./taint-value.ts";

export { SOURCE, type Taint } from "./taint-value.ts";

export interface TaintOptions {
  /** Calls whose result is clean whatever goes in (their last name segment or their whole name). */
  sanitizers?: readonly string[];
  /** Members whose value is untrusted data, by name (an archive entry's `entryName`). */
  members?: readonly string[];
}

const MAX_DEPTH = 40;

/** Taint-lite over one parsed file. One tracker per file and rule (its sanitizers). */
export class TaintTracker implements Evaluator {
  readonly #group: LanguageGroup;
  readonly #dialect: Dialect;
  readonly #root: SgNode;
  readonly #sanitizers: ReadonlySet<string>;
  readonly #members: ReadonlySet<string>;
  readonly #values = new Map<number, Taint>();
  readonly #visiting = new Set<number>();
  /** Every binding of a name in a scope (its function, or the module: key -1), in source order. */
  readonly #scopeBindings = new Map<string, Binding[]>();
  #depth = 0;

  constructor(root: SgNode, group: LanguageGroup, options: TaintOptions = {}) {
    this.#root = root;
    this.#group = group;
    this.#dialect = DIALECTS[group];
    this.#sanitizers = new Set(options.sanitizers ?? []);
    this.#members = new Set(options.members ?? []);
  }

  /** The taint of an expression. */
  of(node: SgNode | null): Taint {
    if (!node) return CLEAN;
    const key = node.id();
    const known = this.#values.get(key);
    if (known) return known;
    if (this.#visiting.has(key) || this.#depth > MAX_DEPTH) return nonConstant();
    this.#visiting.add(key);
    this.#depth += 1;
    try {
      const value = this.#dialect.evaluate(node, this);
      this.#values.set(key, value);
      return value;
    } finally {
      this.#depth -= 1;
      this.#visiting.delete(key);
    }
  }

  build(parts: readonly SgNode[], text: readonly string[] = []): Taint {
    const value = merge(...parts.map((part) => this.of(part)));
    const constants = parts.flatMap((part) => {
      const literal = this.literal(part);
      return literal === null ? [] : [literal];
    });
    value.text = [...text, ...constants, ...value.text].slice(0, 20);
    value.built ||= (value.mask & (SOURCE.request | SOURCE.parameter)) !== 0;
    return value;
  }

  memberSource(name: string): boolean {
    return this.#members.has(name);
  }

  /** The taint of every named child together. */
  children(node: SgNode): Taint {
    const children = node.namedChildren();
    return children.length === 0 ? CLEAN : merge(...children.map((child) => this.of(child)));
  }

  /**
   * A call: a sanitizer's result is clean; a pass-through function's or a constructor's carries
   * its arguments; a method carries its receiver (a string method on a literal, its arguments);
   * anything else is clean of sources, though not constant.
   */
  call(callee: SgNode | null, args: readonly SgNode[], requestMethod: (receiver: Taint) => number): Taint {
    const name = calleeName(callee);
    if (name && (this.#sanitizers.has(name) || this.#sanitizers.has(lastSegment(name)))) return nonConstant();
    if (name && FORMATTERS.has(name)) return this.build(args);
    if (name && PASS_THROUGH[this.#group].has(name))
      return passOn(merge(nonConstant(), ...args.map((arg) => this.of(arg))));
    const object =
      callee && ["member_expression", "attribute", "selector_expression"].includes(kindOf(callee))
        ? (callee.field("object") ?? callee.field("operand"))
        : null;
    if (!object) return nonConstant();
    const method = lastSegment(name ?? callee?.text() ?? "");
    if (CLEAN_METHODS.has(method)) return nonConstant();
    const receiver = this.of(object);
    // `"… {}".format(x)`, `" ".join(parts)`, `query.replace("?", id)`: text built out of the arguments.
    if (BUILDER_METHODS.has(method) || ["string", "template_string"].includes(kindOf(object))) {
      return passOn(this.build([object, ...args]), requestMethod(receiver));
    }
    const fromArray = ["array", "list", "tuple"].includes(kindOf(object))
      ? args.map((arg) => this.of(arg))
      : [];
    return passOn(merge(nonConstant(), receiver, ...fromArray), requestMethod(receiver));
  }

  /** A variable: what reaches it at this use, through its bindings in scope. */
  variable(use: SgNode): Taint {
    const name = use.text();
    const reaching = this.#reaching(use);
    if (!reaching) {
      if (this.#dialect.parametersObject?.(name))
        return { ...nonConstant(), mask: SOURCE.nonconstant | SOURCE.parameter };
      return this.#dialect.requestGlobal(name) ? { ...nonConstant(), request: true } : nonConstant();
    }
    const value = merge(...reaching.map((binding) => this.#valueOf(binding)));
    value.names.add(name);
    return value;
  }

  /**
   * The bindings whose value may reach `use`: the last one whose block holds the use (where the
   * value certainly comes from) and later ones (in branches, which may replace it). Null when the
   * name is bound nowhere in reach.
   */
  #reaching(use: SgNode): Binding[] | null {
    const bindings = this.#bindingsFor(use, use.text());
    if (!bindings) return null;
    let from = 0;
    for (let index = bindings.length - 1; index >= 0; index--) {
      if (this.#dominates(bindings[index] as Binding, use)) {
        from = index;
        break;
      }
    }
    return bindings.slice(from);
  }

  /**
   * The line where the value a variable holds at `use` was made (its latest assignment in reach,
   * when that built text or joined a path), or null: where a finding about the data passed on at
   * `use` belongs.
   */
  origin(use: SgNode): number | null {
    if (!this.#dialect.names.includes(kindOf(use))) return null;
    const last = this.#reaching(use)?.at(-1);
    if (last?.kind !== "assign" || !last.value) return null;
    // Made there: text built around the data, or a path or URL joined; a plain read of request
    // data is better reported where it is used.
    const callee = ["call_expression", "call", "new_expression"].includes(kindOf(last.value))
      ? calleeName(last.value.field("function") ?? last.value.field("constructor"))
      : null;
    const joined =
      callee !== null && (PASS_THROUGH[this.#group].has(callee) || BUILDER_METHODS.has(lastSegment(callee)));
    return joined || this.of(last.value).built ? lineOf(last.node) : null;
  }

  #valueOf(binding: Binding): Taint {
    switch (binding.kind) {
      case "parameter": {
        const { parameter, fn } = binding;
        const request = this.#dialect.requestParameter(parameter);
        const route = this.#dialect.routeHandler?.(fn) ?? false;
        let mask = SOURCE.nonconstant;
        if (!parameter.scalar) mask |= SOURCE.parameter | (route ? SOURCE.request : 0);
        return { ...nonConstant(), mask, request, lines: new Set([lineOf(binding.node)]) };
      }
      case "assign":
      case "derived": {
        if (!binding.value) return nonConstant();
        const value = this.of(binding.value);
        if (value.mask & (SOURCE.request | SOURCE.parameter)) {
          return { ...value, lines: new Set([...value.lines, lineOf(binding.node)]) };
        }
        return binding.kind === "derived" ? merge(value, nonConstant()) : value;
      }
    }
  }

  #dominates(binding: Binding, use: SgNode): boolean {
    if (binding.kind === "parameter") return true;
    if (binding.kind === "assign" && binding.augment) return false;
    let block = binding.node.parent();
    while (block && !this.#dialect.blocks.has(kindOf(block))) {
      if (this.#dialect.functions.has(kindOf(block))) return false;
      block = block.parent();
    }
    return block !== null && contains(block, use);
  }

  /** The enclosing function of a node (null at module level). */
  enclosingFunction(node: SgNode): SgNode | null {
    let current = node.parent();
    while (current) {
      if (this.#dialect.functions.has(kindOf(current))) return current;
      current = current.parent();
    }
    return null;
  }

  /** The bindings of `name` that reach `use`: in its function before it, else in enclosing ones, else at module level. */
  #bindingsFor(use: SgNode, name: string): Binding[] | null {
    let scope = this.enclosingFunction(use);
    for (;;) {
      const bindings = this.#bindingsIn(scope, name).filter(
        (binding) =>
          // At module level all of them count (functions run later); in a function, those before the use,
          // and a loop's own variable inside its body.
          !scope ||
          binding.kind === "parameter" ||
          startOf(binding.node) < startOf(use) ||
          (binding.kind === "derived" && contains(binding.node, use)),
      );
      if (bindings.length > 0) return bindings;
      if (!scope) return null;
      scope = this.enclosingFunction(scope);
    }
  }

  #bindingsIn(scope: SgNode | null, name: string): Binding[] {
    const key = `${scope?.id() ?? -1}:${name}`;
    const known = this.#scopeBindings.get(key);
    if (known) return known;
    const rule = {
      rule: {
        any: this.#dialect.names.map((kind) => ({ kind })),
        regex: `^${name.replace(/[$.]/g, "\\$&")}$`,
      },
    };
    const bindings = (scope ?? this.#root)
      .findAll(rule)
      .flatMap((occurrence) => {
        const binding = this.#dialect.binding(occurrence);
        if (!binding) return [];
        // A parameter belongs to its function; any other binding to the function it is written in.
        const owner = binding.kind === "parameter" ? binding.fn : this.enclosingFunction(occurrence);
        return (owner?.id() ?? null) === (scope?.id() ?? null) ? [binding] : [];
      })
      .sort((a, b) => startOf(a.node) - startOf(b.node));
    this.#scopeBindings.set(key, bindings);
    return bindings;
  }

  /**
   * The string a key or secret argument holds when it is written in the code: a literal, a
   * constant bound to one, a literal fallback (`process.env.KEY || "dev"`, `os.getenv("KEY",
   * "dev")`), `[]byte("…")`, `b"…"`, `"…".encode()`. Null when it comes from anywhere else.
   */
  literal(node: SgNode | null, depth = 0): string | null {
    if (!node || depth > 8) return null;
    const kind = kindOf(node);
    const text = node.text();
    if (["string", "interpreted_string_literal", "raw_string_literal"].includes(kind)) {
      const interpolated = node
        .namedChildren()
        .some((child) => ["template_substitution", "interpolation"].includes(kindOf(child)));
      if (interpolated) return null;
      return text.replace(/^[rbuRBU]*("""|'''|["'`])/, "").replace(/("""|'''|["'`])$/, "");
    }
    if (kind === "template_string") {
      return node.namedChildren().some((child) => kindOf(child) === "template_substitution")
        ? null
        : text.slice(1, -1);
    }
    if (
      [
        "parenthesized_expression",
        "as_expression",
        "non_null_expression",
        "type_conversion_expression",
        "expression_list",
      ].includes(kind)
    ) {
      return this.literal(node.field("operand") ?? node.namedChildren()[0] ?? null, depth + 1);
    }
    if (kind === "binary_expression" || kind === "boolean_operator") {
      const operator = node.field("operator")?.text() ?? "";
      if (["||", "??", "or"].includes(operator)) return this.literal(node.field("right"), depth + 1);
      return null;
    }
    if (kind === "call" || kind === "call_expression") {
      const callee = node.field("function");
      const name = calleeName(callee) ?? "";
      const args = (node.field("arguments")?.namedChildren() ?? []).filter(
        (arg) => kindOf(arg) !== "comment",
      );
      if (/^(os\.getenv|os\.environ\.get|getenv)$/.test(name) && args.length >= 2)
        return this.literal(args[1] ?? null, depth + 1);
      if (name === "string" || name === "bytes") return this.literal(args[0] ?? null, depth + 1);
      if (
        /\.(encode|getBytes)$/.test(name) ||
        (callee?.kind() === "attribute" && callee.field("attribute")?.text() === "encode")
      ) {
        return this.literal(callee?.field("object") ?? null, depth + 1);
      }
      if (/^Buffer\.from$/.test(name)) return this.literal(args[0] ?? null, depth + 1);
      return null;
    }
    if (kind === "identifier") {
      const bindings = this.#bindingsFor(node, text) ?? [];
      const binding = bindings[0];
      if (bindings.length !== 1 || binding?.kind !== "assign") return null;
      return this.literal(binding.value, depth + 1);
    }
    return null;
  }
}
