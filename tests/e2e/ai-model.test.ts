/**
 * The AI model screen in a real browser against the whole product (docs/product.md#ai-model): from
 * the organisation's settings to the AI model form, an OpenAI-compatible server (a fake one on
 * loopback) tested and saved, after a reload the key shown as set, never in the page; then removed.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AI_MODEL } from "../../shared/ai-model-messages.ts";
import { type FakeModelServer, startFakeOpenAiServer } from "../support/fake-model-servers.ts";
import { launchBrowser, seriousViolations, signedInPage } from "./browser.ts";

const API_KEY = "sk-e2e-9b1d7c3a5f";

let browser: Browser;
let server: FakeModelServer;
beforeAll(async () => {
  browser = await launchBrowser();
  server = await startFakeOpenAiServer({ requireKey: API_KEY });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the AI model screen", () => {
  const stack = {
    baseUrl: inject("gatewayUrl"),
    emulatorHost: inject("emulatorHost"),
    projectId: inject("projectId"),
  };

  it("tests and saves an OpenAI-compatible server, shows its key as set without ever showing it, and removes it", async () => {
    const page = await signedInPage(browser, stack, "Ada Lovelace", "/settings");
    await page.getByRole("link", { name: /^AI model/ }).click();
    await page.waitForURL(`${stack.baseUrl}/settings/ai-model`);
    await page.getByText(AI_MODEL.empty).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: AI_MODEL.add }).click();
    await page.getByLabel("Kind", { exact: true }).selectOption("openai-compatible");
    await page.getByLabel("Base URL", { exact: true }).fill(server.baseUrl);
    await page.getByLabel("Model", { exact: true }).fill("qwen2.5-coder:14b");
    await page.getByLabel("API key", { exact: true }).fill(API_KEY);
    server.script({ text: "OK" });
    await page.getByRole("button", { name: "Test connection" }).click();
    await page
      .getByRole("status")
      .getByText(/^Connected in \d+ ms\. The model replied: OK$/)
      .waitFor();
    expect(server.requests.at(-1)?.carriesKey(API_KEY)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText(AI_MODEL.saved).first().waitFor();

    await page.reload({ waitUntil: "networkidle" });
    // The badge beside the field's label, read as "API key: Set".
    await page.getByText(`API key: ${AI_MODEL.keySet}`, { exact: true }).waitFor();
    expect(await page.getByLabel("Base URL", { exact: true }).inputValue()).toBe(server.baseUrl);
    expect(await page.getByLabel("API key", { exact: true }).inputValue()).toBe("");
    expect(await page.content()).not.toContain(API_KEY);

    // With the stored key: the form's key field is empty, the test still passes.
    server.script({ text: "OK" });
    await page.getByRole("button", { name: "Test connection" }).click();
    await page
      .getByRole("status")
      .getByText(/The model replied: OK$/)
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Remove AI model" }).click();
    await page.getByText(AI_MODEL.empty).waitFor();
    await page.reload({ waitUntil: "networkidle" });
    await page.getByText(AI_MODEL.empty).waitFor();
  });
});
