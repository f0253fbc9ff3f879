/**
 * Where to go after sign-in. Only a same-origin path is allowed: one leading "/", not "//", "/\"
 * or "/http" (docs/product.md#sign-in-redirect), and no control characters that a browser would drop to turn the
 * path into a protocol-relative URL. Anything else goes to "/".
 */
export function safeRedirectPath(target: unknown, fallback = "/"): string {
  if (typeof target !== "string" || target.length === 0) return fallback;
  // Browsers strip tabs and newlines from URLs, so "/\t/evil.com" would become "//evil.com".
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(target)) return fallback;
  if (!target.startsWith("/")) return fallback;
  if (target.startsWith("//") || target.startsWith("/\\")) return fallback;
  if (/^\/http/i.test(target)) return fallback;
  // Whatever the string looks like, it must resolve to this origin.
  try {
    const base = "http://gateway.invalid";
    if (new URL(target, base).origin !== base) return fallback;
  } catch {
    return fallback;
  }
  return target;
}
