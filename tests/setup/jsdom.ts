import "@testing-library/jest-dom/vitest";
import { format } from "node:util";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => cleanup());

// React reports misuse (two siblings with one key, a component switching between controlled and
// uncontrolled) only on the console, and only in development, which the browser tests never run: a
// test fails on it instead. Two fields keyed alike once made the browser add a search box at each
// render. A test that expects a console message spies on the console itself.
const consoleMessages: string[] = [];
for (const level of ["error", "warn"] as const) {
  const write = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    consoleMessages.push(`console.${level}: ${format(...args)}`);
    write(...args);
  };
}
afterEach(() => {
  const messages = consoleMessages.splice(0);
  if (messages.length > 0) throw new Error(`The test wrote to the console:\n${messages.join("\n")}`);
});

// findBy and waitFor give up after 1 s by default; a page's first render in a test may load lazy
// modules (the Markdown renderer, a table), which on a busy CI machine took longer (one failure).
configure({ asyncUtilTimeout: 5_000 });

// What Radix's primitives use and jsdom lacks (layout and pointer capture); in a browser they exist.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
Element.prototype.setPointerCapture ??= () => {};
Element.prototype.scrollIntoView ??= () => {};
