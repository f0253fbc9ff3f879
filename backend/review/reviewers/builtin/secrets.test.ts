import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { addedFile, changedFile, hunk, runAnalyzer } from "../../../../tests/support/review-files.ts";
import { entropy, maskSecret, secretsAnalyzer } from "./secrets.ts";

// Assembled at run time so that no secret scanner mistakes this file for a leak.
const GITHUB_TOKEN = ["ghp", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("_");
const AWS_ACCESS_KEY_ID = ["AKIA", "Z7VRSQ5TJN2XMY6K"].join("");
const AWS_SECRET_KEY = ["Tg8a2kPq9", "sLwX3vZ0yB7nR4cD1eF6hJ5mKu/E+oQ"].join("");

const privateKeyLines = () =>
  generateKeyPairSync("rsa", { modulusLength: 1024 })
    .privateKey.export({ type: "pkcs1", format: "pem" })
    .toString()
    .trim()
    .split("\n");

describe("secretsAnalyzer", () => {
  it("finds a GitHub token, an AWS key pair and a private key on added lines", async () => {
    const { findings } = await runAnalyzer(secretsAnalyzer, [
      addedFile("src/config.ts", [
        "export const config = {",
        `  token: "${GITHUB_TOKEN}",`,
        `  awsKeyId: "${AWS_ACCESS_KEY_ID}",`,
        "};",
        `aws_secret_access_key = "${AWS_SECRET_KEY}"`,
      ]),
      addedFile("deploy/id_rsa", privateKeyLines()),
    ]);
    expect(findings.map((finding) => [finding.ruleId, finding.path, finding.line, finding.severity])).toEqual(
      [
        ["secrets/github", "src/config.ts", 2, "critical"],
        ["secrets/aws", "src/config.ts", 3, "critical"],
        ["secrets/aws", "src/config.ts", 5, "critical"],
        ["secrets/privatekey", "deploy/id_rsa", 1, "critical"],
      ],
    );
  });

  it("never repeats a secret in the message or the quote", async () => {
    const { findings } = await runAnalyzer(secretsAnalyzer, [
      addedFile("a.py", [`TOKEN = "${GITHUB_TOKEN}"`, `aws_secret_access_key = "${AWS_SECRET_KEY}"`]),
    ]);
    expect(findings).toHaveLength(2);
    for (const finding of findings) {
      for (const secret of [GITHUB_TOKEN, AWS_SECRET_KEY]) {
        expect(finding.message).not.toContain(secret);
        expect(finding.quote).not.toContain(secret);
      }
    }
    expect(findings[0]?.quote).toBe(`TOKEN = "${maskSecret(GITHUB_TOKEN)}"`);
    expect(findings[0]?.message).toContain("ghp_****");
  });

  it("ignores secrets on removed and context lines", async () => {
    const { findings } = await runAnalyzer(secretsAnalyzer, [
      changedFile(
        "src/a.ts",
        hunk([`-const t = "${GITHUB_TOKEN}";`, `+const t = process.env.TOKEN;`, ` // ${GITHUB_TOKEN}`]),
      ),
    ]);
    expect(findings).toEqual([]);
  });

  it("does not join added lines of separate hunks into one secret", async () => {
    const key = privateKeyLines();
    const head = key.slice(0, 3).map((line) => `+${line}`);
    const tail = key.slice(3).map((line) => `+${line}`);
    const patch = `${hunk(head, 1, 1)}\n${hunk(tail, 40, 37)}`;
    const { findings } = await runAnalyzer(secretsAnalyzer, [changedFile("k.pem", patch)]);
    expect(findings).toEqual([]);
  });
});

describe("secretsAnalyzer: what secretlint misses", () => {
  it("finds a private key written on one line with \\n escapes, cut short or whole, and never quotes its body", async () => {
    const lines = privateKeyLines();
    const body = lines[1] ?? "";
    const { findings } = await runAnalyzer(secretsAnalyzer, [
      addedFile("src/keys.ts", [
        "// keys",
        `const whole = "${lines.join("\\n")}";`,
        `const start = "${lines.slice(0, 4).join("\\n")}";`,
      ]),
    ]);
    expect(findings.map((finding) => [finding.ruleId, finding.line, finding.category, finding.cwe])).toEqual([
      ["secrets/privatekey", 2, "security", "CWE-798"],
      ["secrets/privatekey", 3, "security", "CWE-798"],
    ]);
    for (const finding of findings) {
      expect(finding.quote).toContain("-----BEGIN RSA PRIVATE KEY-----");
      expect(finding.quote).not.toContain(body.slice(0, 20));
      expect(finding.message).not.toContain(body.slice(0, 20));
    }
  });

  it("finds a random-looking literal given to a name that holds a secret, masked", async () => {
    // Assembled at run time, like the secrets above.
    const value = ["9fK2", "xQ7vLm4Rt8Zp", "1NwB6yHc3Ds"].join("");
    const { findings } = await runAnalyzer(secretsAnalyzer, [
      addedFile("app/settings.py", [`STRIPE_API_KEY = "${value}"`, `client_secret: "${value}"`]),
    ]);
    expect(findings.map((finding) => [finding.ruleId, finding.line])).toEqual([
      ["secrets/high-entropy-literal", 1],
      ["secrets/high-entropy-literal", 2],
    ]);
    for (const finding of findings) {
      expect(finding.quote).not.toContain(value);
      expect(finding.message).not.toContain(value);
      expect(finding.fix).toMatch(/revoke/i);
    }
  });

  it("leaves words, placeholders, references, low-entropy values and tests alone", async () => {
    const value = ["9fK2", "xQ7vLm4Rt8Zp", "1NwB6yHc3Ds"].join("");
    const { findings } = await runAnalyzer(secretsAnalyzer, [
      addedFile("src/config.ts", [
        'const TOKEN_HEADER = "X-Authorization-Token";',
        'const apiKey = "your-api-key-goes-here-1234";',
        "const password = process.env.DB_PASSWORD;",
        'const csrfToken = "{{ csrf_token_value_123 }}";',
        'const secret = "aaaaaaaaaaaaaaaa1111111111";',
        `const cacheKey = "${value}";`,
        'const authUrl = "https://example.com/oauth2/token123abc";',
      ]),
      addedFile("tests/auth.test.ts", [`const token = "${value}";`]),
    ]);
    expect(findings).toEqual([]);
  });
});

describe("entropy", () => {
  it("is higher for random text than for words", () => {
    expect(entropy("aaaaaaaa")).toBe(0);
    expect(entropy("9fK2xQ7vLm4Rt8Zp")).toBeGreaterThan(3.5);
    expect(entropy("passwordpassword")).toBeLessThan(3);
  });
});

describe("maskSecret", () => {
  it("keeps the kind prefix of a long secret and stars the rest, and stars a short one entirely", () => {
    expect(maskSecret(GITHUB_TOKEN)).toBe(`ghp_${"*".repeat(GITHUB_TOKEN.length - 4)}`);
    expect(maskSecret("hunter2pass")).toBe("*".repeat(11));
  });
});
