import { describe, expect, it } from "vitest";
import { accountMail } from "./account-mail.ts";

const LINK = "https://argus.example.test/reset-password?mode=resetPassword&oobCode=abc";

describe("the account e-mails", () => {
  it("say the same in their text and HTML parts, with the link in both", () => {
    const mail = accountMail("resetPassword", "ada@example.test", LINK, "Argus");
    expect(mail.subject).toBe("Reset your Argus password");
    expect(mail.text).toContain(
      `Follow this link to choose a new password for your Argus account:\n\n${LINK}\n`,
    );
    expect(mail.links).toEqual([LINK]);
    const html = mail.html ?? "";
    expect(html).toContain("Follow this link to choose a new password for your Argus account:");
    // The button and the written-out link, with the query's `&` escaped as HTML needs.
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map(([, href]) => href);
    expect(hrefs).toEqual([LINK.replace("&", "&amp;"), LINK.replace("&", "&amp;")]);
    expect(html).toContain(">Choose a new password</a>");
  });

  it("escape what they are given, so a product name cannot add markup", () => {
    const html = accountMail(
      "verifyEmail",
      "ada@example.test",
      LINK,
      'Acme <img src=x onerror="alert(1)">',
    ).html;
    expect(html).not.toContain("<img");
    expect(html).toContain("Acme &lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });
});
