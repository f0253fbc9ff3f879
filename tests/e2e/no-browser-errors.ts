/**
 * After every browser test: no page threw or logged an error (a failed hydration, a script the CSP
 * refused, a rejected promise nobody handled), which no assertion of the test itself would notice.
 */
import { afterEach, expect } from "vitest";
import { takeBrowserErrors } from "./browser.ts";

afterEach(() => {
  expect(takeBrowserErrors(), "errors in the browser during this test").toEqual([]);
});
