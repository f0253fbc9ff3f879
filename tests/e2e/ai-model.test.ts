/**
 * The AI model screen in a real browser against the whole product (docs/product.md#settingsai-model): from
 * the organisation's settings to the AI model form, an OpenAI-compatible server (a fake one on
 * loopback) tested and saved, after a reload the key shown as set, never in the page; then removed.
 * And what the settings cannot be made to do through the gateway (docs/decisions/030): send the
 * saved key to another address, call a metadata address, echo a server's error.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AI_MODEL, MODEL_FAILURE_LABELS } from "../../shared/contract/ai-model.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { type FakeModelServer, startFakeOpenAiServer } from "../support/fake-model-servers.ts";
import { launchBrowser, seriousViolations, signedInPage } from "./browser.ts";

const API_KEY = "sk-e2e-9b1d7c3a5f";

let browser: Browser;
let server: FakeModelServer;
/** A server a member would like the saved key sent to. */
let attacker: FakeModelServer;
beforeAll(async () => {
  browser = await launchBrowser();
  server = await startFakeOpenAiServer({ requireKey: API_KEY });
  attacker = await startFakeOpenAiServer();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await attacker?.close();
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
    // The form fills its fields as it hydrates, which a loaded machine may finish after network idle.
    await expect.poll(() => page.getByLabel("Base URL", { exact: true }).inputValue()).toBe(server.baseUrl);
    expect(await page.getByLabel("API key", { exact: true }).inputValue()).toBe("");
    expect(await page.content()).not.toContain(API_KEY);
    // Saved, the month's use shows above it: a connection test is not a review.
    expect(await page.getByRole("region", { name: AI_MODEL.usageTitle }).textContent()).toContain(
      `${AI_MODEL.usageReviews}0`,
    );

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

  it("keeps the saved key to its address, refuses a metadata address and never shows a server's error text", async () => {
    const page = await signedInPage(browser, stack, "Grace Hopper", "/settings/ai-model");
    await page.getByRole("button", { name: AI_MODEL.add }).click();
    await page.getByLabel("Kind", { exact: true }).selectOption("openai-compatible");
    await page.getByLabel("Base URL", { exact: true }).fill(server.baseUrl);
    await page.getByLabel("Model", { exact: true }).fill("qwen2.5-coder:14b");
    await page.getByLabel("API key", { exact: true }).fill(API_KEY);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText(`API key: ${AI_MODEL.keySet}`, { exact: true }).waitFor();
    attacker.reset();

    // A request naming another base URL without a key, made from the signed-in page past the
    // form, is refused through the gateway: the saved key never reaches that server...
    const direct = await page.evaluate(
      async ({ path, body }) => {
        const response = await fetch(path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: await response.json() };
      },
      {
        path: API_PATHS.aiModelTest,
        body: {
          kind: "openai-compatible",
          baseUrl: attacker.baseUrl,
          model: "qwen2.5-coder:14b",
          inputTokenLimit: 32_000,
          monthlyBudgetCents: null,
        },
      },
    );
    expect(attacker.requests.some((request) => request.carriesKey(API_KEY))).toBe(false);
    expect(direct).toMatchObject({ status: 400, body: { message: `apiKey: ${AI_MODEL.apiKeyRequired}` } });
    // ...and the form asks for the key before sending anything.
    const baseUrl = page.getByLabel("Base URL", { exact: true });
    await baseUrl.fill(attacker.baseUrl);
    await page.getByRole("button", { name: "Test connection" }).click();
    await page.getByText(AI_MODEL.apiKeyRequired).waitFor();
    expect(attacker.requests).toEqual([]);

    // A query in the base URL is refused in the form.
    await baseUrl.fill(`${attacker.url}/admin/x?y=`);
    await baseUrl.blur();
    await page.getByText(AI_MODEL.baseUrlQuery).waitFor();

    // The cloud's metadata service is never called, even with a key typed in and local mode on.
    await baseUrl.fill("http://169.254.169.254/latest");
    await page.getByLabel("API key", { exact: true }).fill("sk-typed-for-metadata");
    await page.getByRole("button", { name: "Test connection" }).click();
    await page
      .getByRole("status")
      .getByText(
        `${MODEL_FAILURE_LABELS.address_refused}: The model server's address is a cloud metadata address, which is never called`,
      )
      .waitFor();

    // A server's error body is not repeated: the status, in our words.
    attacker.defaultAnswer = { status: 400, message: "db_password=hunter2" };
    await baseUrl.fill(attacker.baseUrl);
    await page.getByRole("button", { name: "Test connection" }).click();
    await page
      .getByRole("status")
      .getByText(`${MODEL_FAILURE_LABELS.bad_request}: The model server answered 400 Bad Request`)
      .waitFor();
    expect(attacker.requests.at(-1)?.carriesKey("sk-typed-for-metadata")).toBe(true);
    expect(await page.content()).not.toContain("hunter2");
    expect(await seriousViolations(page)).toEqual([]);
  });
});
