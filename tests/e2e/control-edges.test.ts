/**
 * Controls that only their edge shows, an empty field or a switch that is off, stand out from what
 * they sit on at 3:1 or more (WCAG 1.4.11, non-text contrast), in the light and the dark scheme.
 * axe checks the contrast of text only.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connectSandbox, launchBrowser, signedInPage, waitForHydration } from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const stack = { baseUrl, emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
let browser: Browser;
let page: Page;

type Rgb = [number, number, number];
interface Edge {
  control: string;
  /** The colour that draws the control: a field's border, an off switch's track. */
  edge: Rgb;
  /** What surrounds it: the nearest ancestor's background that is not transparent. */
  around: Rgb;
  /** What it surrounds: the field's own background, the switch's thumb. */
  inside: Rgb;
}

/** Every field and off switch on the page, their colours in sRGB as the browser paints them. */
function edgesOf(page: Page): Promise<Edge[]> {
  return page.evaluate(() => {
    const canvas = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
    if (!canvas) throw new Error("no 2D canvas");
    // Computed colours come as oklch(); the canvas turns any of them into the sRGB painted.
    const srgb = (color: string): [number, number, number] => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = color;
      canvas.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0] = canvas.getImageData(0, 0, 1, 1).data;
      return [r, g, b];
    };
    const opaque = (color: string) => !/^rgba\(.*, 0\)$|^transparent$|\/ 0\)$/.test(color);
    const backgroundAround = (element: Element): string => {
      for (let node = element.parentElement; node; node = node.parentElement) {
        const color = getComputedStyle(node).backgroundColor;
        if (opaque(color)) return color;
      }
      return "white";
    };
    const visible = (element: Element) => (element as HTMLElement).offsetParent !== null;
    const name = (element: Element) => {
      const label =
        (element as HTMLInputElement).labels?.[0]?.textContent ?? element.getAttribute("aria-label");
      return `${element.tagName.toLowerCase()} "${label ?? element.id}"`;
    };
    const fields = [...document.querySelectorAll("input:not([type=hidden]), textarea, select")]
      .filter(visible)
      .map((field) => ({
        control: name(field),
        edge: srgb(getComputedStyle(field).borderTopColor),
        around: srgb(backgroundAround(field)),
        inside: srgb(getComputedStyle(field).backgroundColor),
      }));
    const switches = [...document.querySelectorAll('[role="switch"][aria-checked="false"]')]
      .filter(visible)
      .map((control) => ({
        control: name(control),
        edge: srgb(getComputedStyle(control).backgroundColor),
        around: srgb(backgroundAround(control)),
        inside: srgb(getComputedStyle(control.firstElementChild ?? control).backgroundColor),
      }));
    return [...fields, ...switches];
  });
}

/** WCAG's contrast ratio of two sRGB colours. */
function contrast(a: Rgb, b: Rgb): number {
  const luminance = (rgb: Rgb) => {
    const [r, g, b] = rgb.map((channel) => {
      const c = channel / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as Rgb;
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

beforeAll(async () => {
  browser = await launchBrowser();
  page = await signedInPage(browser, stack, "Evelyn Boyd Granville", "/integrations/github");
  // Repositories and contributors, so /home has its search and /subscriptions its seat switches.
  await connectSandbox(page);
});
afterAll(() => browser?.close());

describe("control edges", () => {
  it.each(["light", "dark"] as const)("stand out at 3:1 or more in the %s scheme", async (scheme) => {
    await page.emulateMedia({ colorScheme: scheme });
    const faint: string[] = [];
    let seen = 0;
    for (const path of ["/home", "/subscriptions", "/settings", "/settings/ai-model", "/reviews"]) {
      await page.goto(`${baseUrl}${path}`, { waitUntil: "networkidle" });
      await waitForHydration(page);
      for (const { control, edge, around, inside } of await edgesOf(page)) {
        seen += 1;
        const ratio = Math.min(contrast(edge, around), contrast(edge, inside));
        if (ratio < 3) faint.push(`${path} ${control}: ${ratio.toFixed(2)}`);
      }
    }
    // The pages do have fields and off switches to measure.
    expect(seen).toBeGreaterThan(10);
    expect(faint).toEqual([]);
  });
});
