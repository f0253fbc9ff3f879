/**
 * Review settings in a real browser against the whole product (docs/product.md#settings): an
 * organisation setting and a repository setting kept across reloads, a repository setting returned
 * to inherited; and, on a stack of this file's own, a save while the backend is stopped rolled back
 * with its message, then every process restarted on the same data and the values still there.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { claimPort } from "../../scripts/lib/ports.ts";
import { type RunningStack, type StackOptions, startStack } from "../../scripts/lib/stack.ts";
import {
  connectSandbox,
  heightOf,
  launchBrowser,
  seriousViolations,
  signedInPage,
  waitForHydration,
} from "./browser.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

interface Stack {
  baseUrl: string;
  emulatorHost: string;
  projectId: string;
}

/** Connects the sandbox GitHub, and answers the first repository's settings URL. */
async function connectSandboxRepository(page: Page, baseUrl: string): Promise<string> {
  await page.goto(`${baseUrl}/integrations/github`);
  await connectSandbox(page);
  const link = page
    .getByRole("article")
    .first()
    .getByRole("link", { name: /^Settings for / });
  await link.waitFor();
  return new URL((await link.getAttribute("href")) ?? "", baseUrl).toString();
}

/** The settings screen's switch of `label`, once the screen has loaded. */
async function settingSwitch(page: Page, label: string): Promise<Locator> {
  const control = page.getByRole("switch", { name: label, exact: true });
  await control.waitFor();
  return control;
}

async function expectChecked(control: Locator, checked: boolean) {
  await expect.poll(() => control.getAttribute("aria-checked")).toBe(String(checked));
}

describe("settings", () => {
  const stack: Stack = {
    baseUrl: inject("gatewayUrl"),
    emulatorHost: inject("emulatorHost"),
    projectId: inject("projectId"),
  };

  it("keeps an organisation setting and a repository setting across reloads, and returns one to inherited", async () => {
    const page = await signedInPage(browser, stack, "Grace Hopper", "/settings");
    // No code host yet: the organisation view offers to connect GitHub.
    await page.getByRole("heading", { name: "Connect to GitHub" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const repositorySettings = await connectSandboxRepository(page, stack.baseUrl);

    await page.goto(`${stack.baseUrl}/settings`);
    await page.getByRole("heading", { name: "Organization Settings" }).waitFor();
    // Before hydration the tabs are markup only, and an arrow key moves nothing.
    await waitForHydration(page);
    // The arrow keys move between tabs; the focused tab's ring is drawn inside it, since the tab
    // list scrolls sideways and would clip a ring drawn outside.
    await page.getByRole("tab", { name: "Account Preferences" }).focus();
    await page.keyboard.press("ArrowRight");
    const focusedTab = page.getByRole("tab", { name: "Review Scope" });
    expect(await focusedTab.evaluate((tab) => tab.matches(":focus-visible"))).toBe(true);
    const ringOutside = await focusedTab.evaluate((tab) => {
      const style = getComputedStyle(tab);
      return Number.parseFloat(style.outlineOffset) + Number.parseFloat(style.outlineWidth);
    });
    expect(ringOutside).toBeLessThanOrEqual(0);
    await page.getByRole("tab", { name: "Account Preferences" }).click();
    const auto = await settingSwitch(page, "Review draft pull requests");
    await expectChecked(auto, false);
    // Checked before any toast: one still fading in is, for that moment, low in contrast.
    expect(await seriousViolations(page)).toEqual([]);
    await auto.click();
    await page.getByText("Organization setting updated successfully").waitFor();

    await page.goto(repositorySettings);
    await page.getByRole("heading", { name: "Repository Settings" }).waitFor();
    const inheritedAuto = await settingSwitch(page, "Review draft pull requests");
    await expectChecked(inheritedAuto, true);
    expect(await inheritedAuto.getAttribute("aria-describedby")).toBeTruthy();
    await page.getByRole("tab", { name: "Comment Style" }).click();
    // A number setting: a short field, and its Save button as tall as the field.
    const most = page.getByRole("spinbutton", { name: "Most findings per review" });
    expect((await most.boundingBox())?.width).toBeLessThan(150);
    expect(await heightOf(page.getByRole("button", { name: "Save Most findings per review" }))).toBe(
      await heightOf(most),
    );
    const summary = await settingSwitch(page, "Summary comment");
    await expectChecked(summary, true);
    await summary.click();
    await page.getByText("Repository setting updated successfully").waitFor();
    await page.getByText("Set on this repository").waitFor();

    // Both are kept.
    await page.reload();
    await expectChecked(await settingSwitch(page, "Review draft pull requests"), true);
    await page.getByText("Inherited from organization").first().waitFor();
    await page.getByRole("tab", { name: "Comment Style" }).click();
    await expectChecked(await settingSwitch(page, "Summary comment"), false);
    await page.getByRole("button", { name: "Use organization value (On) for Summary comment" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // A client navigation: the values load from the browser, the templates come from its cache.
    const templateCalls: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/settings/templates")) templateCalls.push(request.url());
    });
    await page.getByRole("link", { name: "Organization settings" }).click();
    await page.waitForURL(`${stack.baseUrl}/settings?integrationName=github`);
    await page.getByRole("heading", { name: "Organization Settings" }).waitFor();
    await expectChecked(await settingSwitch(page, "Review draft pull requests"), true);
    expect(templateCalls).toEqual([]);
    await page.getByRole("tab", { name: "Comment Style" }).click();
    // The repository's own value stays its own.
    await expectChecked(await settingSwitch(page, "Summary comment"), true);

    // Back to inherited, from the keyboard.
    await page.goto(repositorySettings);
    await page.getByRole("tab", { name: "Comment Style" }).click();
    const back = page.getByRole("button", { name: "Use organization value (On) for Summary comment" });
    await back.focus();
    await page.keyboard.press("Enter");
    await page.getByText("Repository setting updated successfully").waitFor();
    await page.reload();
    await page.getByRole("tab", { name: "Comment Style" }).click();
    await expectChecked(await settingSwitch(page, "Summary comment"), true);
    expect(await page.getByText("Set on this repository").count()).toBe(0);
    await page.context().close();
  });

  it("keeps a severity threshold, most findings, review instructions and shadow mode across a reload", async () => {
    const page = await signedInPage(browser, stack, "Katherine Johnson", "/settings");
    await page.getByRole("heading", { name: "Connect to GitHub" }).waitFor();
    await connectSandboxRepository(page, stack.baseUrl);
    await page.goto(`${stack.baseUrl}/settings`);
    await page.getByRole("heading", { name: "Organization Settings" }).waitFor();
    /** Does `action` and waits for the save of `category` it makes. */
    const saving = async (category: string, action: () => Promise<void>) => {
      const saved = page.waitForResponse(
        (response) =>
          response.request().method() === "PUT" && response.url().includes(`/api/settings/${category}`),
      );
      await action();
      expect((await saved).status()).toBe(200);
    };

    await page.getByRole("tab", { name: "Comment Style" }).click();
    const threshold = page.getByRole("combobox", { name: "Lowest severity reported" });
    const most = page.getByRole("spinbutton", { name: "Most findings per review" });
    await expect.poll(() => threshold.inputValue()).toBe("major");
    expect(await seriousViolations(page)).toEqual([]);
    await saving("comment_style", () => threshold.selectOption("minor").then(() => undefined));
    await most.fill("25");
    await saving("comment_style", () => most.press("Enter"));
    await saving("comment_style", () =>
      page.getByRole("switch", { name: "Shadow mode", exact: true }).click(),
    );

    await page.getByRole("tab", { name: "Review Scope" }).click();
    const instructions = page.getByRole("textbox", { name: "Review instructions" });
    await instructions.fill("Prefer early returns.");
    await page.getByText("21 of 4000 characters").waitFor();
    await saving("review_scope", () =>
      page.getByRole("button", { name: "Save Review instructions" }).click(),
    );

    await page.reload();
    await page.getByRole("tab", { name: "Comment Style" }).click();
    await expect.poll(() => threshold.inputValue()).toBe("minor");
    expect(await most.inputValue()).toBe("25");
    await expectChecked(await settingSwitch(page, "Shadow mode"), true);
    await page.getByRole("tab", { name: "Review Scope" }).click();
    expect(await instructions.inputValue()).toBe("Prefer early returns.");
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});

describe("settings on a stack of their own", () => {
  const workDir = mkdtempSync(path.join(tmpdir(), "argus-e2e-settings-"));
  const logFile = path.join(workDir, "services.log");
  let options: StackOptions;
  let running: RunningStack | undefined;

  async function start(): Promise<RunningStack> {
    try {
      running = await startStack(options);
      return running;
    } catch (error) {
      console.error(readFileSync(logFile, "utf8").slice(-5000));
      throw error;
    }
  }

  beforeAll(async () => {
    options = {
      gatewayPort: await claimPort(),
      backendPort: await claimPort(),
      emulatorPort: await claimPort(),
      dataDir: path.join(workDir, "data"),
      logFile,
      env: { LOG_LEVEL: "info" },
    };
    await start();
  });
  afterAll(() => running?.stop());

  it("rolls a switch back when the backend is stopped, and keeps saved values through a restart of every process", async () => {
    const current = () => {
      if (!running) throw new Error("the stack is not running");
      return running;
    };
    const stack: Stack = {
      baseUrl: current().gatewayUrl,
      emulatorHost: current().emulatorHost,
      projectId: current().projectId,
    };
    const page = await signedInPage(browser, stack, "Annie Easley", "/home");
    const repositorySettings = await connectSandboxRepository(page, stack.baseUrl);

    await page.goto(`${stack.baseUrl}/settings`);
    const auto = await settingSwitch(page, "Review draft pull requests");
    await auto.click();
    await page.getByText("Organization setting updated successfully").waitFor();
    await page.goto(repositorySettings);
    await page.getByRole("tab", { name: "Review Scope" }).click();
    const bots = await settingSwitch(page, "Skip pull requests from bots");
    await bots.click();
    await page.getByText("Repository setting updated successfully").waitFor();

    // The backend stops: the switch moves, the save fails, the switch goes back and says so.
    await current().stopBackend();
    const tests = await settingSwitch(page, "Review test files");
    await expectChecked(tests, true);
    await tests.click();
    await page.getByText("Failed to update Review test files. Please try again.").waitFor();
    await expectChecked(tests, true);

    // Every process stops and starts again on the same data and ports.
    await current().stop();
    running = undefined;
    await start();
    await page.reload();
    await page.getByRole("heading", { name: "Repository Settings" }).waitFor();
    await expectChecked(await settingSwitch(page, "Review draft pull requests"), true);
    await page.getByRole("tab", { name: "Review Scope" }).click();
    await expectChecked(await settingSwitch(page, "Skip pull requests from bots"), false);
    await expectChecked(await settingSwitch(page, "Review test files"), true);
    await page.goto(`${stack.baseUrl}/settings`);
    await expectChecked(await settingSwitch(page, "Review draft pull requests"), true);
    await page.context().close();
  }, 240_000);
});
