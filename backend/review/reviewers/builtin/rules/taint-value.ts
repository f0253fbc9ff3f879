/**
 * What taint-lite (taint.ts) knows about a value: where its data may come from, and how it got
 * there. Shared by the tracker and the per-language dialects (dialects.ts).
 */
import type { SgNode } from "@ast-grep/napi";

/** Where a value's data may come from: bits of `Taint.mask`. */
export const SOURCE = { request: 1, parameter: 2, nonconstant: 4, member: 8 } as const;

export interface Taint {
  mask: number;
  /** The value is a request object itself (`req`, `r *http.Request`): its data members are request data. */
  request: boolean;
  /** Text was built around outside data (concatenation, a template, `%`, `.format`, `Sprintf`). */
  built: boolean;
  /** The constant text it was built with (`SELECT … WHERE id = `), for rules that look for words in it. */
  text: string[];
  /** 1-based lines of the assignments and parameters the data came through. */
  lines: Set<number>;
  /** The variables it came through, for guard checks. */
  names: Set<string>;
}

export const CLEAN: Taint = Object.freeze({
  mask: 0,
  request: false,
  built: false,
  text: [],
  lines: new Set<number>(),
  names: new Set<string>(),
});
export const nonConstant = (): Taint => ({
  mask: SOURCE.nonconstant,
  request: false,
  built: false,
  text: [],
  lines: new Set(),
  names: new Set(),
});
/** Constant fragments kept per value, at most. */
const TEXT_MAX = 20;

export function merge(...taints: Taint[]): Taint {
  const result: Taint = { ...nonConstant(), mask: 0 };
  for (const taint of taints) {
    result.mask |= taint.mask;
    result.request ||= taint.request;
    result.built ||= taint.built;
    if (result.text.length < TEXT_MAX)
      result.text.push(...taint.text.slice(0, TEXT_MAX - result.text.length));
    for (const line of taint.lines) result.lines.add(line);
    for (const name of taint.names) result.names.add(name);
  }
  return result;
}

/** The data of `taint` passed on (a member, a method's result): no longer a request object itself. */
export const passOn = (taint: Taint, extra = 0): Taint => ({
  ...taint,
  mask: taint.mask | extra,
  request: false,
});

/** A node's kind as a string (ast-grep's types allow a kind number too). */
export const kindOf = (node: SgNode): string => String(node.kind());
export const lineOf = (node: SgNode) => node.range().start.line + 1;
/** Whether a function, method or arrow is declared `async` (the keyword is a child token in every grammar). */
export const isAsync = (node: SgNode) => node.children().some((child) => child.kind() === "async");
export const startOf = (node: SgNode) => node.range().start.index;
export const contains = (outer: SgNode, inner: SgNode) =>
  startOf(outer) <= startOf(inner) && inner.range().end.index <= outer.range().end.index;

/** What a dialect asks of the tracker while it evaluates an expression. */
export interface Evaluator {
  /** The taint of an expression. */
  of(node: SgNode | null): Taint;
  /** The taint of every named child together. */
  children(node: SgNode): Taint;
  /** Text built from `parts` (and constant `text`): a concatenation, a template, a format. */
  build(parts: readonly SgNode[], text?: readonly string[]): Taint;
  /** A variable, through its bindings in scope. */
  variable(use: SgNode): Taint;
  /** Whether the rule names this member as untrusted data (an archive entry's `entryName`). */
  memberSource(name: string): boolean;
  /** A call; `requestMethod` adds the request bit for a request object's own data methods. */
  call(callee: SgNode | null, args: readonly SgNode[], requestMethod: (receiver: Taint) => number): Taint;
}
