/**
 * Runs ESLint with eslint-plugin-security and eslint-plugin-no-unsanitized (their recommended
 * rules, nothing else) over the files named on stdin (JSON: `{ root, files }`), and prints
 * ESLint's results as JSON, as `eslint -f json` does, plus how each file was parsed. Started by
 * eslint.ts in a process of its own.
 * - TypeScript: typescript-eslint does not install next to TypeScript 7, so types are stripped with
 *   Node's `module.stripTypeScriptTypes`, which blanks them out in place: lines and columns stay
 *   those of the file. Constructor parameter properties (`private readonly pool: Pool`) need
 *   transforming, so their modifiers are blanked first, with as many spaces; a file using other
 *   such syntax (enums, namespaces) is reported as not parsed.
 * - JavaScript is parsed as a module, then as CommonJS, then as a script: the first that parses.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire, stripTypeScriptTypes } from "node:module";
import path from "node:path";
import { ESLint, type Linter } from "eslint";

/** The two plugins ship no types: what is used of them. */
type RulePlugin = ESLint.Plugin & { configs: { recommended: { rules: Linter.RulesRecord } } };
const require = createRequire(import.meta.url);
const security = require("eslint-plugin-security") as RulePlugin;
const noUnsanitized = require("eslint-plugin-no-unsanitized") as RulePlugin;

/** Blanks the modifiers of constructor parameter properties, keeping every offset. */
function blankParameterProperties(code: string): string {
  return code.replace(/constructor\s*\(([^)]*)\)/g, (whole) =>
    whole.replace(/\b(private|public|protected|readonly|override)\s+/g, (modifier) =>
      " ".repeat(modifier.length),
    ),
  );
}

const SOURCE_TYPES = ["module", "commonjs", "script"] as const;

function linterFor(root: string, sourceType: (typeof SOURCE_TYPES)[number]): ESLint {
  const config: Linter.Config = {
    files: ["**/*.{js,mjs,cjs,jsx,ts,mts,cts}"],
    languageOptions: { ecmaVersion: "latest", sourceType, parserOptions: { ecmaFeatures: { jsx: true } } },
    plugins: { security, "no-unsanitized": noUnsanitized },
    rules: { ...security.configs.recommended.rules, ...noUnsanitized.configs.recommended.rules },
  };
  return new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: [config], ignore: false });
}

const input = JSON.parse(readFileSync(0, "utf8")) as { root: string; files: string[] };
const linters = SOURCE_TYPES.map((sourceType) => [sourceType, linterFor(input.root, sourceType)] as const);
const output = [];
for (const file of input.files) {
  const filePath = path.join(input.root, file);
  let code = await readFile(filePath, "utf8");
  if (/\.[mc]?ts$/.test(file)) {
    try {
      code = stripTypeScriptTypes(blankParameterProperties(code), { mode: "strip" });
    } catch (error) {
      output.push({ file, parsedAs: null, error: `types not strippable: ${(error as Error).message}` });
      continue;
    }
  }
  let last = "";
  let done = false;
  for (const [sourceType, linter] of linters) {
    const [result] = await linter.lintText(code, { filePath });
    if (!result) continue;
    const fatal = result.messages.find((message) => message.fatal);
    if (fatal) {
      last = `${fatal.line}:${fatal.column} ${fatal.message}`;
      continue;
    }
    output.push({ file, parsedAs: sourceType, messages: result.messages });
    done = true;
    break;
  }
  if (!done) output.push({ file, parsedAs: null, error: `does not parse: ${last}` });
}
process.stdout.write(JSON.stringify(output));
