import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => cleanup());

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
