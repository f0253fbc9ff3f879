/**
 * Review Markdown in the browser (docs/decisions/036): a model's finding whose message carries an
 * image with an event handler is shown on the sandbox pull request and on the run page with its
 * code spans and bold rendered, the HTML as inert text: no element with a handler, no image, no
 * script run. The model is a fake OpenAI-compatible server on loopback. Both pages pass axe. Then
 * the pull request page takes a comment with the bot command it names, which runs a review.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TEMPLATES } from "../../backend/code-hosts/sandbox/samples.ts";
import { API_PATHS } from "../../shared/contract/common.ts";
import { type FakeModelServer, startFakeOpenAiServer } from "../support/fake-model-servers.ts";
import {
  connectSandbox,
  launchBrowser,
  openSandboxPulls,
  seriousViolations,
  signedInPage,
  waitForHydration,
} from "./browser.ts";

const baseUrl = inject("gatewayUrl");
const stack = { baseUrl, emulatorHost: inject("emulatorHost"), projectId: inject("projectId") };
const API_KEY = "sk-e2e-markdown-5c1e";
const HOSTILE = '<img src=x onerror="window.__argusPwned=1">';

let browser: Browser;
let model: FakeModelServer;
beforeAll(async () => {
  browser = await launchBrowser();
  model = await startFakeOpenAiServer({ requireKey: API_KEY });
});
afterAll(async () => {
  await browser?.close();
  await model?.close();
});

/** The leaked-key template's line the model comments on. */
function tokenLine(): { line: number; quote: string } {
  const lines = TEMPLATES.find((template) => template.id === "leaked-key")?.content.split("\n") ?? [];
  const index = lines.findIndex((text) => text.includes("githubToken: string;"));
  return { line: index + 1, quote: lines[index] ?? "" };
}

/** In `region`: the code spans and bold rendered, the HTML shown as text, nothing live on the page. */
async function expectRenderedInert(page: Page, region: Locator) {
  expect(await region.locator("code", { hasText: /^execFile$/ }).count()).toBeGreaterThan(0);
  expect(await region.locator("strong", { hasText: /^never$/ }).count()).toBeGreaterThan(0);
  expect(await region.textContent()).toContain(HOSTILE);
  expect(await region.textContent()).not.toContain("**never**");
  expect(await page.locator("[onerror]").count()).toBe(0);
  expect(await region.locator("img").count()).toBe(0);
  expect(await page.evaluate(() => (window as { __argusPwned?: number }).__argusPwned)).toBeUndefined();
}

describe("review Markdown", () => {
  it("renders a finding's code and bold, and its HTML inert, on the pull request and the run page", async () => {
    const page = await signedInPage(browser, stack, "Grace Hopper", "/integrations/github");
    const saved = await page.request.put(`${baseUrl}${API_PATHS.aiModel}`, {
      data: {
        kind: "openai-compatible",
        baseUrl: model.baseUrl,
        model: "qwen-review",
        apiKey: API_KEY,
        inputTokenLimit: 32_000,
        monthlyBudgetCents: null,
      },
    });
    expect(saved.status()).toBe(200);
    const { line, quote } = tokenLine();
    model.script({
      json: {
        findings: [
          {
            path: "src/config.ts",
            line,
            quote,
            severity: "critical",
            title: "Token in the config type",
            message: `Read it with \`execFile\`, **never** from the source. ${HOSTILE}`,
          },
        ],
      },
    });

    await connectSandbox(page);
    await openSandboxPulls(page);
    await page
      .getByRole("button", { name: "Open pull request: Add the GitHub client token to the config" })
      .click();
    await page.waitForURL(/\/sandbox\/pulls\/[^/]+$/);
    const modelComment = page.getByRole("article", { name: `Review comment on src/config.ts line ${line}` });
    await modelComment.waitFor({ timeout: 30_000 });
    await expectRenderedInert(page, modelComment);
    // The engine's own Markdown: the severity as a badge, the rule id as code, no asterisks.
    expect(await modelComment.locator("code", { hasText: /^ai\/review$/ }).count()).toBe(1);
    expect(await modelComment.textContent()).not.toContain("**");
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "See its decision log" }).click();
    await page.waitForURL(/\/reviews\/[^/]+$/);
    const findings = page.getByRole("region", { name: "Findings" });
    await findings.getByText("ai/review").waitFor();
    await expectRenderedInert(page, findings);
    expect(await seriousViolations(page)).toEqual([]);

    // Back on the pull request, a newcomer asks for a review with the command the page names.
    await page.goBack();
    await waitForHydration(page);
    const form = page.getByRole("region", { name: "Add a comment" });
    await form.getByRole("button", { name: "Write @argus review" }).click();
    await form.getByRole("button", { name: "Comment", exact: true }).click();
    await page.getByText("Review requested").first().waitFor();
    await page.getByRole("article", { name: "Comment by Grace Hopper" }).waitFor();
    // The command's run, as a GitHub comment's would be: its log says so.
    await page.getByRole("link", { name: "See its decision log" }).click();
    await page.waitForURL(/\/reviews\/[^/]+$/);
    await page.getByText("Command: review").waitFor();
    await page.context().close();
  });
});
