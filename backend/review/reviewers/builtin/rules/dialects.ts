/**
 * Taint-lite's knowledge of each language (docs/decisions/033): where functions, blocks and
 * bindings are in its syntax tree, which values are request data, and how each kind of expression
 * passes data on. The tracker (taint.ts) does the rest the same way for all three.
 */
import type { SgNode } from "@ast-grep/napi";
import type { LanguageGroup } from "./languages.ts";
import {
  CLEAN,
  contains,
  type Evaluator,
  kindOf,
  merge,
  nonConstant,
  passOn,
  SOURCE,
  type Taint,
} from "./taint-value.ts";

/** A parameter of a function: its type text (if any) and whether it is known to hold no text. */
export interface Parameter {
  name: SgNode;
  type: string;
  /** Declared or defaulted as a number, boolean or date: no injection through it. */
  scalar: boolean;
}

/** How a name gets a value at one place. */
export type Binding =
  | { kind: "parameter"; node: SgNode; parameter: Parameter; fn: SgNode }
  | { kind: "assign"; node: SgNode; value: SgNode | null; augment: boolean }
  /** `for x of/in/range v`, `with v as x`, a catch clause: opaque unless `value` is tainted. */
  | { kind: "derived"; node: SgNode; value: SgNode | null };

export interface Dialect {
  functions: ReadonlySet<string>;
  blocks: ReadonlySet<string>;
  /** Node kinds that may name a variable where it is bound. */
  names: readonly string[];
  parameters(fn: SgNode): Parameter[];
  binding(name: SgNode): Binding | null;
  /** The value of an expression, one node kind at a time (children through `tracker.of`). */
  evaluate(node: SgNode, tracker: Evaluator): Taint;
  /** Whether a function's parameters are request data (a route handler, by its decorator). */
  routeHandler?(fn: SgNode): boolean;
  /** Whether a parameter is a request object by its type or name. */
  requestParameter(parameter: Parameter): boolean;
  /** Whether a name that binds nowhere in the file is a request object (Flask's global `request`). */
  requestGlobal(name: string): boolean;
  /** Whether a name that binds nowhere is the function's own parameters (JavaScript's `arguments`). */
  parametersObject?(name: string): boolean;
}

const SCALAR_TS = /^(number|boolean|bigint|Date|true|false|\d[\d_]*|(number|boolean)\[\])$/;
const SCALAR_PY = /^(int|float|bool|complex|datetime(\.\w+)?|date|time|timedelta|UUID|uuid\.UUID|Decimal)$/;
const SCALAR_GO =
  /^(u?int(8|16|32|64)?|uintptr|float(32|64)|complex(64|128)|bool|byte|rune|time\.(Time|Duration)|uuid\.UUID|context\.Context|error)$/;

/** Express, Koa and browser request data, by the member read off a request object. */
const JS_REQUEST_MEMBERS = new Set([
  "body",
  "query",
  "params",
  "headers",
  "cookies",
  "signedCookies",
  "files",
  "file",
  "url",
  "originalUrl",
  "path",
  "hostname",
  "search",
  "hash",
  "href",
  "pathname",
  "searchParams",
]);
const JS_REQUEST_METHODS = new Set(["param", "get", "header", "json", "text", "formData"]);
const JS_REQUEST_NAMES = new Set(["req", "request"]);
const JS_REQUEST_TYPES = /^(express\.)?Request\b|^(Next|Fastify|Koa)Request\b|^IncomingMessage$|^Context$/;
/** Browser globals whose members are the page's URL, cookies or referrer. */
const JS_BROWSER_SOURCES =
  /^(window\.)?(location|document\.(location|URL|documentURI|referrer|cookie|baseURI)|window\.name)\b/;

const PY_REQUEST_MEMBERS = new Set([
  "args",
  "form",
  "values",
  "json",
  "data",
  "files",
  "cookies",
  "headers",
  "GET",
  "POST",
  "body",
  "query_params",
  "path_params",
  "url",
  "path",
  "full_path",
  "get_json",
  "get_data",
  "environ",
  "META",
  "stream",
  "query_string",
  "get_argument",
  "get_query_argument",
  "get_body_argument",
  "match_info",
]);
const PY_REQUEST_NAMES = new Set(["request", "req"]);
const PY_ROUTE_DECORATOR = /\.(route|get|post|put|patch|delete|api_route|websocket)\s*\(|^(api_view|route)\b/;

const GO_REQUEST_MEMBERS = new Set([
  "URL",
  "Form",
  "PostForm",
  "MultipartForm",
  "Header",
  "Body",
  "Host",
  "RequestURI",
  "FormValue",
  "PostFormValue",
  "FormFile",
  "Cookie",
  "Cookies",
  "PathValue",
  "Referer",
  "UserAgent",
  // gin, echo, fiber
  "Param",
  "Params",
  "Query",
  "DefaultQuery",
  "GetQuery",
  "QueryArray",
  "QueryParam",
  "QueryParams",
  "PostFormArray",
  "DefaultPostForm",
  "GetHeader",
  "FormParams",
  "ByName",
  "Request",
  "BodyParser",
  "ShouldBindJSON",
]);
const GO_REQUEST_TYPES = /^\*?(http\.Request|gin\.Context|fiber\.Ctx|echo\.Context|httprouter\.Params)$/;
/** Router helpers that read the request's path: `mux.Vars(r)`, `chi.URLParam(r, "id")`. */
const GO_REQUEST_FUNCTIONS = new Set(["mux.Vars", "chi.URLParam", "chi.URLParamFromCtx"]);

/** Calls whose result carries their arguments' data (a path joined, a string built or decoded). */
export const PASS_THROUGH: Readonly<Record<LanguageGroup, ReadonlySet<string>>> = {
  js: new Set([
    "String",
    "decodeURIComponent",
    "decodeURI",
    "unescape",
    "path.join",
    "path.resolve",
    "path.normalize",
    "path.posix.join",
    "path.posix.resolve",
    "path.win32.join",
    "url.resolve",
    "Buffer.from",
    "Array.from",
    "Object.keys",
    "Object.values",
    "Object.entries",
    "util.format",
    "format",
    "JSON.parse",
    "URL",
    "URLSearchParams",
  ]),
  python: new Set([
    "str",
    "bytes",
    "format",
    "os.path.join",
    "os.path.abspath",
    "os.path.normpath",
    "os.path.realpath",
    "os.path.expanduser",
    "posixpath.join",
    "Path",
    "pathlib.Path",
    "PurePath",
    "urljoin",
    "urllib.parse.urljoin",
    "parse.urljoin",
    "unquote",
    "unquote_plus",
    "urllib.parse.unquote",
    "urllib.parse.unquote_plus",
    "json.loads",
    "base64.b64decode",
    "list",
    "tuple",
    "dict",
    "sorted",
  ]),
  go: new Set([
    "fmt.Sprintf",
    "fmt.Sprint",
    "fmt.Sprintln",
    "strings.Join",
    "strings.Replace",
    "strings.ReplaceAll",
    "strings.TrimSpace",
    "strings.Trim",
    "strings.TrimLeft",
    "strings.TrimRight",
    "strings.TrimPrefix",
    "strings.TrimSuffix",
    "strings.ToLower",
    "strings.ToUpper",
    "strings.Split",
    "strings.Fields",
    "filepath.Join",
    "filepath.Clean",
    "filepath.Abs",
    "filepath.FromSlash",
    "filepath.ToSlash",
    "path.Join",
    "path.Clean",
    "url.PathUnescape",
    "url.QueryUnescape",
    "url.Parse",
    "io.ReadAll",
    "ioutil.ReadAll",
    "string",
    "append",
  ]),
};

/** Functions that format text out of their arguments: what they return is built text. */
export const FORMATTERS: ReadonlySet<string> = new Set([
  "util.format",
  "format",
  "fmt.Sprintf",
  "fmt.Sprint",
  "fmt.Sprintln",
  "fmt.Fprintf",
  "fmt.Fprint",
  "fmt.Fprintln",
  "strings.Join",
  "strings.Replace",
  "strings.ReplaceAll",
]);

/** Methods whose result is a yes/no or a position, whatever the receiver holds. */
export const CLEAN_METHODS = new Set([
  "includes",
  "startsWith",
  "endsWith",
  "indexOf",
  "lastIndexOf",
  "test",
  "has",
  "localeCompare",
  "search",
  "some",
  "every",
  "findIndex",
  "startswith",
  "endswith",
  "isdigit",
  "isalpha",
  "isalnum",
  "isnumeric",
  "isdecimal",
  "count",
  "index",
  "find",
  "rfind",
  "__len__",
]);

/** Methods that build a string out of their arguments, whatever the receiver. */
export const BUILDER_METHODS = new Set([
  "format",
  "format_map",
  "join",
  "joinpath",
  "concat",
  "replace",
  "replaceAll",
]);

/** The text of a callee as a dotted name (`os.path.join`), or null for anything more complex. */
export function calleeName(node: SgNode | null): string | null {
  if (!node) return null;
  const text = node.text();
  return /^[\w$]+(\.[\w$]+)*$/.test(text) ? text : null;
}
export const lastSegment = (name: string) => name.slice(name.lastIndexOf(".") + 1);

// ---------------------------------------------------------------------------------------------
// JavaScript and TypeScript

const JS_PATTERN_PARENTS = new Set([
  "object_pattern",
  "array_pattern",
  "pair_pattern",
  "rest_pattern",
  "assignment_pattern",
  "object_assignment_pattern",
  "shorthand_property_identifier_pattern",
]);

function jsParameter(declaration: SgNode, name: SgNode): Parameter {
  const typeNode = declaration.field("type");
  const type = typeNode ? typeNode.text().replace(/^:\s*/, "") : "";
  const defaultValue = declaration.field("value") ?? declaration.field("right");
  const scalar =
    SCALAR_TS.test(type) ||
    (!type && defaultValue !== null && ["number", "true", "false"].includes(kindOf(defaultValue)));
  return { name, type, scalar };
}

const jsDialect: Dialect = {
  functions: new Set([
    "function_declaration",
    "function_expression",
    "function",
    "arrow_function",
    "method_definition",
    "generator_function_declaration",
    "generator_function",
  ]),
  blocks: new Set(["statement_block", "program", "switch_body"]),
  names: ["identifier", "shorthand_property_identifier_pattern"],
  parameters(fn) {
    const single = fn.field("parameter");
    if (single) return [{ name: single, type: "", scalar: false }];
    const list = fn.field("parameters");
    if (!list) return [];
    return list.namedChildren().flatMap((declaration) => {
      const target = declaration.field("pattern") ?? declaration.field("left") ?? declaration;
      const names =
        kindOf(target) === "identifier" || kindOf(target) === "shorthand_property_identifier_pattern"
          ? [target]
          : target.findAll({
              rule: { any: [{ kind: "identifier" }, { kind: "shorthand_property_identifier_pattern" }] },
            });
      return names.map((name) => jsParameter(declaration, name));
    });
  },
  binding(name) {
    let child = name;
    let parent = name.parent();
    while (parent && JS_PATTERN_PARENTS.has(kindOf(parent))) {
      // The default of `{ a = b }` or `[a = b]` is a use of b, not a binding of it.
      if (kindOf(parent).endsWith("assignment_pattern") && parent.field("right")?.id() === child.id())
        return null;
      if (kindOf(parent) === "pair_pattern" && parent.field("key")?.id() === child.id()) return null;
      child = parent;
      parent = parent.parent();
    }
    if (!parent) return null;
    const kind = kindOf(parent);
    const is = (field: string) => parent.field(field)?.id() === child.id();
    if (kind === "variable_declarator" && is("name")) {
      return { kind: "assign", node: parent, value: parent.field("value"), augment: false };
    }
    if (kind === "assignment_expression" && is("left")) {
      return { kind: "assign", node: parent, value: parent.field("right"), augment: false };
    }
    if (kind === "augmented_assignment_expression" && is("left")) {
      return { kind: "assign", node: parent, value: parent.field("right"), augment: true };
    }
    if (kind === "for_in_statement" && is("left")) {
      return { kind: "derived", node: parent, value: parent.field("right") };
    }
    if (kind === "catch_clause") return { kind: "derived", node: parent, value: null };
    const parameter = (fn: SgNode | null | undefined, declaration: SgNode): Binding | null =>
      fn && jsDialect.functions.has(kindOf(fn))
        ? { kind: "parameter", node: name, parameter: jsParameter(declaration, name), fn }
        : null;
    if (kind === "arrow_function" && is("parameter")) return parameter(parent, child);
    if ((kind === "required_parameter" || kind === "optional_parameter") && is("pattern")) {
      return parameter(parent.parent()?.parent(), parent);
    }
    if (kind === "formal_parameters") return parameter(parent.parent(), child);
    return null;
  },
  requestParameter: (parameter) =>
    JS_REQUEST_NAMES.has(parameter.name.text()) || JS_REQUEST_TYPES.test(parameter.type),
  requestGlobal: () => false,
  parametersObject: (name) => name === "arguments",
  evaluate(node, tracker) {
    const kind = kindOf(node);
    switch (kind) {
      case "string":
      case "number":
      case "true":
      case "false":
      case "null":
      case "undefined":
      case "regex":
      case "this":
      case "super":
        return CLEAN;
      case "template_string": {
        const parts = node.namedChildren().filter((child) => kindOf(child) === "template_substitution");
        const text = node
          .namedChildren()
          .filter((child) => kindOf(child) === "string_fragment")
          .map((child) => child.text());
        return parts.length ? tracker.build(parts, text) : CLEAN;
      }
      case "array":
      case "arguments":
      case "parenthesized_expression":
      case "await_expression":
      case "as_expression":
      case "satisfies_expression":
      case "non_null_expression":
      case "type_assertion":
      case "spread_element":
      case "template_substitution":
        return tracker.children(node);
      case "sequence_expression":
        return tracker.of(node.namedChildren().at(-1) ?? null);
      case "ternary_expression":
        return merge(tracker.of(node.field("consequence")), tracker.of(node.field("alternative")));
      case "binary_expression": {
        const operator = node.field("operator")?.text() ?? "";
        const sides = [node.field("left"), node.field("right")].filter((side) => side !== null);
        if (operator === "+") return tracker.build(sides);
        if (["||", "??", "&&"].includes(operator)) return merge(...sides.map((side) => tracker.of(side)));
        return CLEAN;
      }
      case "identifier":
      case "shorthand_property_identifier":
        return tracker.variable(node);
      case "member_expression":
      case "subscript_expression": {
        if (JS_BROWSER_SOURCES.test(node.text())) return passOn(nonConstant(), SOURCE.request);
        const object = tracker.of(node.field("object"));
        const member = node.field("property")?.text() ?? "";
        const fromRequest = object.request && JS_REQUEST_MEMBERS.has(member);
        return passOn(
          object,
          (fromRequest ? SOURCE.request : 0) | (tracker.memberSource(member) ? SOURCE.member : 0),
        );
      }
      case "call_expression":
      case "new_expression": {
        const callee = node.field("function") ?? node.field("constructor");
        const args = node.field("arguments");
        // A tagged template (sql`…${x}`) is the library's own parameterisation.
        if (args?.kind() === "template_string") return nonConstant();
        return tracker.call(callee, args ? args.namedChildren() : [], (receiver) =>
          receiver.request && JS_REQUEST_METHODS.has(lastSegment(calleeName(callee) ?? ""))
            ? SOURCE.request
            : 0,
        );
      }
      default:
        return nonConstant();
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Python

function pyParameter(declaration: SgNode, name: SgNode): Parameter {
  const typeNode = declaration.field("type");
  const type = typeNode?.text() ?? "";
  const defaultValue = declaration.field("value");
  const scalar =
    SCALAR_PY.test(type) ||
    (!type && defaultValue !== null && ["integer", "float", "true", "false"].includes(kindOf(defaultValue)));
  return { name, type, scalar };
}

const PY_PATTERN_PARENTS = new Set(["pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern"]);

const pythonDialect: Dialect = {
  functions: new Set(["function_definition", "lambda"]),
  blocks: new Set(["block", "module"]),
  names: ["identifier"],
  parameters(fn) {
    const list = fn.field("parameters");
    if (!list) return [];
    return list.namedChildren().flatMap((declaration) => {
      const name =
        kindOf(declaration) === "identifier"
          ? declaration
          : (declaration.field("name") ??
            declaration.namedChildren().find((child) => kindOf(child) === "identifier"));
      if (!name || name.text() === "self" || name.text() === "cls") return [];
      return [pyParameter(declaration, name)];
    });
  },
  binding(name) {
    let child = name;
    let parent = name.parent();
    while (parent && PY_PATTERN_PARENTS.has(kindOf(parent))) {
      child = parent;
      parent = parent.parent();
    }
    if (!parent) return null;
    const kind = kindOf(parent);
    const is = (field: string) => parent.field(field)?.id() === child.id();
    if (kind === "assignment" && is("left")) {
      return {
        kind: "assign",
        node: parent,
        value: positional(parent.field("right"), child, name),
        augment: false,
      };
    }
    if (kind === "augmented_assignment" && is("left")) {
      return { kind: "assign", node: parent, value: parent.field("right"), augment: true };
    }
    if (kind === "named_expression" && is("name")) {
      return { kind: "assign", node: parent, value: parent.field("value"), augment: false };
    }
    if ((kind === "for_statement" || kind === "for_in_clause") && is("left")) {
      return { kind: "derived", node: parent, value: parent.field("right") };
    }
    if (kind === "as_pattern_target") return { kind: "derived", node: parent, value: null };
    const declaration =
      kind === "parameters" || kind === "lambda_parameters"
        ? child
        : ["typed_parameter", "default_parameter", "typed_default_parameter"].includes(kind)
          ? parent
          : null;
    const list = declaration?.parent();
    const fn = list?.parent();
    if (declaration && fn && pythonDialect.functions.has(kindOf(fn))) {
      if (name.text() === "self" || name.text() === "cls") return null;
      // The name of a default parameter is a binding; its default value is a use.
      if (declaration !== child && declaration.field("value")?.id() === child.id()) return null;
      return { kind: "parameter", node: name, parameter: pyParameter(declaration, name), fn };
    }
    return null;
  },
  routeHandler(fn) {
    const decorated = fn.parent();
    if (decorated?.kind() !== "decorated_definition") return false;
    return decorated
      .namedChildren()
      .some(
        (child) => kindOf(child) === "decorator" && PY_ROUTE_DECORATOR.test(child.text().replace(/^@/, "")),
      );
  },
  requestParameter: (parameter) =>
    PY_REQUEST_NAMES.has(parameter.name.text()) || /\b(Request|HttpRequest)$/.test(parameter.type),
  requestGlobal: (name) => PY_REQUEST_NAMES.has(name),
  evaluate(node, tracker) {
    const kind = kindOf(node);
    switch (kind) {
      case "string": {
        const parts = node.namedChildren().filter((child) => kindOf(child) === "interpolation");
        const text = node
          .namedChildren()
          .filter((child) => kindOf(child) === "string_content")
          .map((child) => child.text());
        return parts.length ? tracker.build(parts, text) : CLEAN;
      }
      case "interpolation":
        return tracker.of(node.namedChildren()[0] ?? null);
      case "keyword_argument":
        return tracker.of(node.field("value"));
      case "concatenated_string":
      case "argument_list":
      case "list":
      case "tuple":
      case "set":
      case "parenthesized_expression":
      case "await":
      case "list_splat":
      case "expression_list":
        return tracker.children(node);
      case "integer":
      case "float":
      case "true":
      case "false":
      case "none":
        return CLEAN;
      case "conditional_expression": {
        const [consequence, , alternative] = node.namedChildren();
        return merge(tracker.of(consequence ?? null), tracker.of(alternative ?? null));
      }
      case "boolean_operator":
        return merge(tracker.of(node.field("left")), tracker.of(node.field("right")));
      case "binary_operator": {
        const operator = node.field("operator")?.text() ?? "";
        const sides = [node.field("left"), node.field("right")].filter((side) => side !== null);
        if (operator === "+" || operator === "%") return tracker.build(sides);
        // `Path(base) / name`
        if (operator === "/") return merge(...sides.map((side) => tracker.of(side)));
        return CLEAN;
      }
      case "identifier":
        return tracker.variable(node);
      case "attribute":
      case "subscript": {
        const object = tracker.of(node.field("object") ?? node.field("value"));
        const member = node.field("attribute")?.text() ?? "";
        const selfRequest = node.field("object")?.text() === "self.request";
        const fromRequest = (object.request || selfRequest) && PY_REQUEST_MEMBERS.has(member);
        return passOn(
          object,
          (fromRequest ? SOURCE.request : 0) | (tracker.memberSource(member) ? SOURCE.member : 0),
        );
      }
      case "call": {
        const callee = node.field("function");
        const args = node.field("arguments");
        const name = calleeName(callee);
        if (name && /^self\.get_(query_|body_)?argument$/.test(name))
          return passOn(nonConstant(), SOURCE.request);
        return tracker.call(callee, args ? args.namedChildren() : [], (receiver) =>
          receiver.request && PY_REQUEST_MEMBERS.has(lastSegment(name ?? "")) ? SOURCE.request : 0,
        );
      }
      default:
        return nonConstant();
    }
  },
};

/** In `a, b = x, y`, the part of the right side that goes to `name`. */
function positional(right: SgNode | null, left: SgNode, name: SgNode): SgNode | null {
  if (!right) return null;
  const targets = left.namedChildren();
  const values = right.namedChildren();
  const listKinds = ["expression_list", "pattern_list", "tuple_pattern", "tuple"];
  if (
    !listKinds.includes(kindOf(left)) ||
    !listKinds.includes(kindOf(right)) ||
    targets.length !== values.length
  ) {
    return right;
  }
  const index = targets.findIndex((target) => contains(target, name));
  return values[index] ?? right;
}

// ---------------------------------------------------------------------------------------------
// Go

const goDialect: Dialect = {
  functions: new Set(["function_declaration", "method_declaration", "func_literal"]),
  blocks: new Set(["block", "source_file"]),
  names: ["identifier"],
  parameters(fn) {
    const list = fn.field("parameters");
    if (!list) return [];
    return list.namedChildren().flatMap((declaration) => {
      const type = declaration.field("type")?.text() ?? "";
      return declaration
        .namedChildren()
        .filter((child) => kindOf(child) === "identifier")
        .map((name) => ({ name, type, scalar: SCALAR_GO.test(type) }));
    });
  },
  binding(name) {
    const parent = name.parent();
    if (!parent) return null;
    const holder = kindOf(parent) === "expression_list" ? parent.parent() : parent;
    if (!holder) return null;
    const kind = kindOf(holder);
    const onLeft = () => {
      const left = holder.field("left");
      return (
        left !== null &&
        contains(left, name) &&
        (kindOf(parent) === "expression_list" || left.id() === name.id())
      );
    };
    if ((kind === "short_var_declaration" || kind === "assignment_statement") && onLeft()) {
      const operator = holder.field("operator")?.text() ?? (kind === "short_var_declaration" ? ":=" : "=");
      const augment = operator !== "=" && operator !== ":=";
      return {
        kind: "assign",
        node: holder,
        value: positional(holder.field("right"), parent, name),
        augment,
      };
    }
    if ((kind === "var_spec" || kind === "const_spec") && kindOf(parent) !== "expression_list") {
      const value = holder.field("value");
      return {
        kind: "assign",
        node: holder,
        value: value ? positional(value, holder, name) : null,
        augment: false,
      };
    }
    if (kind === "range_clause" && onLeft())
      return { kind: "derived", node: holder, value: holder.field("right") };
    // `json.Unmarshal(data, &v)`, `dec.Decode(&v)`: v is filled from the data (or the decoder's input).
    if (kindOf(parent) === "unary_expression" && parent.text().startsWith("&")) {
      const call = parent.parent()?.parent();
      const callee = call && kindOf(call) === "call_expression" ? call.field("function") : null;
      const fills = calleeName(callee);
      if (call && fills && /(^|\.)(Unmarshal|Decode|Scan)$/.test(fills)) {
        const from = /Unmarshal$/.test(fills)
          ? (call.field("arguments")?.namedChildren()[0] ?? null)
          : (callee?.field("operand") ?? null);
        return { kind: "derived", node: call, value: from };
      }
    }
    if (kindOf(parent) === "parameter_declaration" || kindOf(parent) === "variadic_parameter_declaration") {
      const list = parent.parent();
      const fn = list?.parent();
      // A method's receiver is the object itself, not data passed in.
      if (!fn || !goDialect.functions.has(kindOf(fn)) || fn.field("receiver")?.id() === list?.id())
        return null;
      const type = parent.field("type")?.text() ?? "";
      return { kind: "parameter", node: name, parameter: { name, type, scalar: SCALAR_GO.test(type) }, fn };
    }
    return null;
  },
  requestParameter: (parameter) => GO_REQUEST_TYPES.test(parameter.type),
  requestGlobal: () => false,
  evaluate(node, tracker) {
    const kind = kindOf(node);
    switch (kind) {
      case "interpreted_string_literal":
      case "raw_string_literal":
      case "int_literal":
      case "float_literal":
      case "rune_literal":
      case "imaginary_literal":
      case "true":
      case "false":
      case "nil":
      case "iota":
        return CLEAN;
      case "parenthesized_expression":
      case "unary_expression":
      case "expression_list":
      case "argument_list":
        return tracker.children(node);
      case "type_conversion_expression":
        return tracker.of(node.field("operand"));
      case "binary_expression":
        return node.field("operator")?.text() === "+"
          ? tracker.build([node.field("left"), node.field("right")].filter((side) => side !== null))
          : CLEAN;
      case "identifier":
        return tracker.variable(node);
      case "selector_expression":
      case "index_expression":
      case "slice_expression":
      case "type_assertion_expression": {
        const object = tracker.of(node.field("operand"));
        const member = node.field("field")?.text() ?? "";
        const fromRequest = object.request && GO_REQUEST_MEMBERS.has(member);
        return passOn(
          object,
          (fromRequest ? SOURCE.request : 0) | (tracker.memberSource(member) ? SOURCE.member : 0),
        );
      }
      case "call_expression": {
        const callee = node.field("function");
        const args = node.field("arguments")?.namedChildren() ?? [];
        const name = calleeName(callee);
        if (name && GO_REQUEST_FUNCTIONS.has(name) && args.some((arg) => tracker.of(arg).request)) {
          return passOn(nonConstant(), SOURCE.request);
        }
        if (callee?.kind() === "selector_expression") {
          const receiver = tracker.of(callee.field("operand"));
          if (receiver.request && GO_REQUEST_MEMBERS.has(callee.field("field")?.text() ?? "")) {
            return passOn(receiver, SOURCE.request | SOURCE.nonconstant);
          }
        }
        return tracker.call(callee, args, () => 0);
      }
      default:
        return nonConstant();
    }
  },
};

export const DIALECTS: Readonly<Record<LanguageGroup, Dialect>> = {
  js: jsDialect,
  python: pythonDialect,
  go: goDialect,
};

// ---------------------------------------------------------------------------------------------
