import { parse } from "@ast-grep/napi";
import { describe, expect, it } from "vitest";
import { grammarOf, groupOf, type RuleLanguage } from "./languages.ts";
import { SOURCE, TaintTracker } from "./taint.ts";

/** The taint of the argument of the (last) `sink(…)` call in `source`. */
function sinkTaint(language: RuleLanguage, source: string, sanitizers: string[] = []) {
  const root = parse(grammarOf(language), source).root();
  const pattern =
    language === "go" ? { context: "func t() { sink($X) }", selector: "call_expression" } : "sink($X)";
  const sink = root.findAll({ rule: { pattern } }).at(-1);
  const argument = sink?.getMatch("X");
  if (!argument) throw new Error("no sink(…) in the source");
  const tracker = new TaintTracker(root, groupOf(language), { sanitizers });
  const taint = tracker.of(argument);
  return {
    request: (taint.mask & SOURCE.request) !== 0,
    parameter: (taint.mask & SOURCE.parameter) !== 0,
    constant: (taint.mask & SOURCE.nonconstant) === 0,
    built: taint.built,
    text: taint.text.join(" "),
    lines: [...taint.lines].sort((a, b) => a - b),
    literal: tracker.literal(argument),
  };
}

describe("taint-lite in TypeScript and JavaScript", () => {
  it("treats a request's data as request data, through members, methods and destructuring", () => {
    expect(sinkTaint("typescript", "app.get('/', (req, res) => sink(req.query.name));")).toMatchObject({
      request: true,
    });
    expect(
      sinkTaint("javascript", "function h(req, res) { const { url } = req.body; sink(url.trim()); }"),
    ).toMatchObject({ request: true, lines: [1] });
    expect(
      sinkTaint("typescript", "function h(request: Request) { sink(request.headers.get('x')); }"),
    ).toMatchObject({ request: true });
    // Members of a request that are not its data (set by the server) are not request data.
    expect(sinkTaint("typescript", "function h(req) { sink(req.app.locals.name); }")).toMatchObject({
      request: false,
      parameter: true,
    });
    expect(
      sinkTaint("typescript", "const q = new URLSearchParams(location.search).get('q'); sink(q);"),
    ).toMatchObject({ request: true });
  });

  it("treats a parameter as outside data unless it is a number, a boolean or a date", () => {
    expect(sinkTaint("typescript", `function f(name: string) { sink(\`a \${name}\`); }`)).toMatchObject({
      parameter: true,
      built: true,
      text: "a ",
    });
    expect(sinkTaint("typescript", `function f(limit: number) { sink(\`LIMIT \${limit}\`); }`)).toMatchObject(
      {
        parameter: false,
      },
    );
    expect(sinkTaint("javascript", "function f(limit = 20) { sink('LIMIT ' + limit); }")).toMatchObject({
      parameter: false,
    });
    // Passed straight on, a parameter is not built into anything.
    expect(sinkTaint("typescript", "function f(sql: string) { sink(sql); }")).toMatchObject({
      parameter: true,
      built: false,
    });
  });

  it("follows local variables, with the constant text they were built with", () => {
    const taint = sinkTaint(
      "typescript",
      [
        "function f(status: string) {",
        '  const where = "WHERE status = \'" + status + "\'";',
        `  const sql = \`SELECT * FROM t \${where}\`;`,
        "  sink(sql);",
        "}",
      ].join("\n"),
    );
    expect(taint).toMatchObject({ parameter: true, built: true, lines: [1, 2, 3] });
    expect(taint.text).toContain("SELECT * FROM t");
    expect(taint.text).toContain("WHERE status = '");
  });

  it("takes the last assignment before the use, and later ones in branches too", () => {
    expect(
      sinkTaint("typescript", "function f(id: string) { id = String(parseInt(id)); sink('x' + id); }"),
    ).toMatchObject({ parameter: false });
    expect(
      sinkTaint("typescript", "function f(id: string) { let v = 'a'; if (id) { v = id; } sink('x' + v); }"),
    ).toMatchObject({ parameter: true });
    expect(
      sinkTaint("typescript", "function f(id: string) { let v = id; v = 'a'; sink('x' + v); }"),
    ).toMatchObject({
      parameter: false,
    });
  });

  it("looks a variable up in the enclosing function when a closure does not bind it, then at module level", () => {
    expect(
      sinkTaint("typescript", "function f(name: string) { return [1].map(() => sink('a' + name)); }"),
    ).toMatchObject({ parameter: true });
    expect(sinkTaint("typescript", "const BASE = 'x'; function f() { sink(BASE + '/y'); }")).toMatchObject({
      constant: true,
      literal: null,
    });
  });

  it("sees calls as clean unless they pass data through; a sanitizer cleans; a tagged template is the library's", () => {
    expect(
      sinkTaint("typescript", "function f(p: string) { sink('/x/' + path.join('a', p)); }"),
    ).toMatchObject({
      parameter: true,
    });
    expect(sinkTaint("typescript", "function f(p: string) { sink('/x/' + lookup(p)); }")).toMatchObject({
      parameter: false,
      constant: false,
    });
    expect(
      sinkTaint("typescript", "function f(p: string) { sink('<b>' + escapeHtml(p)); }", ["escapeHtml"]),
    ).toMatchObject({ parameter: false });
    expect(sinkTaint("typescript", `function f(p: string) { sink(sql\`SELECT \${p}\`); }`)).toMatchObject({
      parameter: false,
    });
  });

  it("treats `arguments` as the function's parameters", () => {
    expect(
      sinkTaint("javascript", "function f() { var options = arguments[0]; sink('a' + options.x); }"),
    ).toMatchObject({
      parameter: true,
    });
  });

  it("reads literals, constants bound to them and literal fallbacks", () => {
    expect(sinkTaint("typescript", "const KEY = 'abc'; sink(KEY);").literal).toBe("abc");
    expect(sinkTaint("typescript", "const KEY = process.env.KEY || 'dev'; sink(KEY);").literal).toBe("dev");
    expect(sinkTaint("typescript", "const KEY = process.env.KEY; sink(KEY);").literal).toBeNull();
    expect(sinkTaint("typescript", `sink(\`a\${b}\`);`).literal).toBeNull();
  });
});

describe("taint-lite in Python", () => {
  it("treats Flask's and Django's request data, and a route's parameters, as request data", () => {
    expect(
      sinkTaint("python", "from flask import request\ndef v():\n    sink(request.args.get('q'))"),
    ).toMatchObject({
      request: true,
    });
    expect(sinkTaint("python", "def v(request):\n    sink(request.GET['q'])")).toMatchObject({
      request: true,
    });
    expect(sinkTaint("python", "@app.route('/f/<name>')\ndef v(name):\n    sink(name)")).toMatchObject({
      request: true,
    });
    expect(sinkTaint("python", "def v(name):\n    sink(name)")).toMatchObject({
      request: false,
      parameter: true,
    });
    expect(
      sinkTaint("python", "from flask import request\ndef v():\n    sink(request.get_json())"),
    ).toMatchObject({
      request: true,
    });
  });

  it("builds text with %, .format, f-strings and +, but not from an int, self or a sanitiser", () => {
    for (const expression of ["'a %s' % x", "'a {}'.format(x)", "f'a {x}'", "'a ' + x", "q.format(x)"]) {
      expect(sinkTaint("python", `def f(x, q):\n    sink(${expression})`)).toMatchObject({
        parameter: true,
        built: true,
      });
    }
    expect(sinkTaint("python", "def f(x: int):\n    sink('a %d' % x)")).toMatchObject({ parameter: false });
    expect(sinkTaint("python", "def f(self):\n    sink('a ' + self.table)")).toMatchObject({
      parameter: false,
    });
    expect(sinkTaint("python", "def f(x):\n    sink('a ' + quote(x))", ["quote"])).toMatchObject({
      parameter: false,
    });
  });

  it("follows tuple assignments by position and for loops over tainted values", () => {
    expect(sinkTaint("python", "def f(x):\n    a, b = 'k', x\n    sink('q' + a)")).toMatchObject({
      parameter: false,
    });
    expect(sinkTaint("python", "def f(x):\n    a, b = 'k', x\n    sink('q' + b)")).toMatchObject({
      parameter: true,
    });
    expect(
      sinkTaint("python", "def f(items):\n    for item in items:\n        sink('q' + item)"),
    ).toMatchObject({
      parameter: true,
    });
  });
});

describe("taint-lite in Go", () => {
  it("treats a *http.Request's data and router variables as request data, whatever its name", () => {
    expect(
      sinkTaint(
        "go",
        'package m\nfunc h(w http.ResponseWriter, req *http.Request) { sink(req.URL.Query().Get("q")) }',
      ),
    ).toMatchObject({ request: true });
    expect(
      sinkTaint(
        "go",
        'package m\nfunc h(w http.ResponseWriter, r *http.Request) { id := mux.Vars(r)["id"]; sink(id) }',
      ),
    ).toMatchObject({ request: true });
    expect(sinkTaint("go", 'package m\nfunc h(c *gin.Context) { sink(c.Query("q")) }')).toMatchObject({
      request: true,
    });
  });

  it("builds text with fmt.Sprintf and +; an int parameter and the receiver are not outside data", () => {
    expect(
      sinkTaint("go", 'package m\nfunc f(s string) { q := fmt.Sprintf("a %s", s); sink(q) }'),
    ).toMatchObject({
      parameter: true,
      built: true,
      text: expect.stringContaining("a %s"),
    });
    expect(sinkTaint("go", 'package m\nfunc f(n int) { sink(fmt.Sprintf("LIMIT %d", n)) }')).toMatchObject({
      parameter: false,
    });
    expect(sinkTaint("go", 'package m\nfunc (s *S) f() { sink("a" + s.table) }')).toMatchObject({
      parameter: false,
    });
  });

  it("reads a package-level constant byte slice as a literal", () => {
    expect(sinkTaint("go", 'package m\nvar key = []byte("k3y")\nfunc f() { sink(key) }').literal).toBe("k3y");
  });
});
