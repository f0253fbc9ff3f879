/**
 * Guest pages rendered once. /login, /signup and the account e-mail pages look the same to every
 * visitor without a session, so each is rendered on its first request (through the app's own page
 * handler, with a request the gateway makes up) and then served from memory: the bytes, gzipped
 * and brotli-compressed once, with a CSP that names the hashes of their inline scripts instead of a
 * per-request nonce (docs/decisions/043-guest-pages-rendered-once.md).
 *
 * A visitor with a session cookie, valid or not, takes the normal path: a signed-in user is
 * redirected and a cookie that does not verify is cleared, by the session middleware and the
 * routes' guards as for every page.
 */
import { createHash, randomBytes } from "node:crypto";
import { ServerResponse } from "node:http";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import type { Request, RequestHandler, Response } from "express";
import { ACCOUNT_EMAIL_PAGES } from "../shared/constants.ts";
import type { GatewayConfig } from "./config.ts";
import { hashedScriptsPolicy } from "./security.ts";
import { sessionTokenOf } from "./session.ts";

/**
 * The pages, and whether a query string changes what they render. /login and /signup read
 * `redirectTo` only once the visitor has signed in; /reset-password checks the link's code in its
 * loader and /email-verified applies it, so those two come from memory only without a query.
 */
const GUEST_PAGES: ReadonlyMap<string, { queryChangesPage: boolean }> = new Map([
  ["/login", { queryChangesPage: false }],
  ["/signup", { queryChangesPage: false }],
  ["/forgot-password", { queryChangesPage: false }],
  [ACCOUNT_EMAIL_PAGES.resetPassword, { queryChangesPage: true }],
  [ACCOUNT_EMAIL_PAGES.verifyEmail, { queryChangesPage: true }],
]);

/**
 * The made-up request's user agent. The render waits for all its data, as for a crawler: nobody is
 * waiting on the stream, and the whole document needs fewer inline scripts than a streamed one.
 */
const RENDER_AGENT = "Argus guest-page prerender (bot)";

type Encoding = "br" | "gzip" | "identity";

interface Representation {
  body: Buffer;
  etag: string;
}

interface CachedPage {
  headers: Record<string, string>;
  representations: Record<Encoding, Representation>;
  /** Sets the page's CSP: its inline scripts' hashes, no nonce. */
  policy: RequestHandler;
}

interface Rendered {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A request for `page` as a visitor without a session would make it, and an Express response that
 * keeps what is written to it. Both are built on the visitor's request (its app, settings and
 * logger), as Express builds its own; only the method, the path and the headers are made up, so
 * nothing a visitor sends reaches the shared copy.
 */
function madeUpRequest(visitor: Request, page: string, host: string, nonce: string) {
  const req: Request = Object.create(visitor, {
    method: { value: "GET" },
    url: { value: page },
    originalUrl: { value: page },
    headers: { value: { host, accept: "text/html", "user-agent": RENDER_AGENT } },
  });
  const res = new ServerResponse(req) as unknown as Response;
  // What Express does to each response: its app's response methods on Node's ServerResponse.
  Object.setPrototypeOf(res, (visitor.app as unknown as { response: object }).response);
  Object.defineProperty(req, "res", { value: res });
  res.req = req;
  res.locals = { cspNonce: nonce, session: null };

  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === "string" || chunk instanceof Uint8Array)
      chunks.push(
        Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"),
      );
  };
  const rendered = new Promise<Rendered>((resolve) => {
    res.write = ((chunk: unknown, encoding?: unknown) => {
      keep(chunk, encoding);
      return true;
    }) as Response["write"];
    res.end = ((chunk?: unknown, encoding?: unknown) => {
      keep(chunk, encoding);
      res.finished = true;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.getHeaders())) headers[name] = [value].flat().join(", ");
      resolve({ status: res.statusCode, headers, body: Buffer.concat(chunks).toString("utf8") });
      res.emit("finish");
      res.emit("close");
      return res;
    }) as Response["end"];
  });
  return { req, res, rendered };
}

/** Inline scripts (those without src): what a hash in the CSP must match. */
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** The base64 SHA-256 of each inline script, as the browser computes it (newlines normalised). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = "", content = ""] of html.matchAll(INLINE_SCRIPT)) {
    if (/\ssrc=/i.test(attributes)) continue;
    const text = content.replace(/\r\n?/g, "\n");
    hashes.add(createHash("sha256").update(text, "utf8").digest("base64"));
  }
  return [...hashes];
}

function representation(body: Buffer, suffix: string): Representation {
  const digest = createHash("sha256").update(body).digest("base64url").slice(0, 27);
  return { body, etag: `"${digest}${suffix}"` };
}

/** The encoding to send: brotli or gzip when accepted (brotli first, as compression does), else none. */
function encodingFor(req: Request): Encoding {
  if (req.acceptsEncodings("br")) return "br";
  if (req.acceptsEncodings("gzip")) return "gzip";
  return "identity";
}

/** Response headers of the render that the cached copy repeats; the rest is per response. */
const PER_RESPONSE_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding", "etag"]);

export function guestPageCache(config: GatewayConfig) {
  const origin = new URL(config.publicOrigin);
  /** Per page: the render under way or done; null once a render turned out not to be cacheable. */
  const pages = new Map<string, Promise<CachedPage | null>>();

  /** Renders `page` through the page handler as for a visitor without a session. */
  async function render(handler: RequestHandler, visitor: Request, page: string): Promise<CachedPage | null> {
    // The nonce the render writes into every script tag; removed, so no nonce is ever sent twice.
    const marker = randomBytes(16).toString("hex");
    const made = madeUpRequest(visitor, page, origin.host, marker);
    const {
      status,
      headers: renderedHeaders,
      body,
    } = await new Promise<Rendered>((resolve, reject) => {
      made.rendered.then(resolve);
      Promise.resolve(
        handler(made.req, made.res, (error?: unknown) =>
          reject(error ?? new Error(`no page answered ${page}`)),
        ),
      ).catch(reject);
    });

    const html = body.replaceAll(` nonce="${marker}"`, "");
    const contentType = renderedHeaders["content-type"] ?? "";
    const problem =
      status !== 200
        ? `status ${status}`
        : "set-cookie" in renderedHeaders
          ? "it sets a cookie"
          : !contentType.startsWith("text/html")
            ? `content type ${contentType}`
            : html.includes(marker)
              ? "the nonce appears outside script tags"
              : undefined;
    if (problem) {
      visitor.log.warn({ page, problem }, "guest page not cacheable; rendered per request");
      return null;
    }

    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(renderedHeaders)) {
      if (!PER_RESPONSE_HEADERS.has(name)) headers[name] = value;
    }
    const identity = Buffer.from(html, "utf8");
    return {
      headers,
      representations: {
        identity: representation(identity, ""),
        gzip: representation(gzipSync(identity, { level: zlib.Z_BEST_COMPRESSION }), "-gz"),
        br: representation(
          brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } }),
          "-br",
        ),
      },
      policy: hashedScriptsPolicy(config, inlineScriptHashes(html)),
    };
  }

  /** The cached page for this request, rendering it first if need be; undefined when it has none. */
  async function cachedPageFor(req: Request, handler: RequestHandler): Promise<CachedPage | undefined> {
    if (req.method !== "GET" && req.method !== "HEAD") return undefined;
    const page = GUEST_PAGES.get(req.path);
    if (!page) return undefined;
    if (page.queryChangesPage && req.url !== req.path) return undefined;
    if (sessionTokenOf(req) !== undefined) return undefined;

    let cached = pages.get(req.path);
    if (!cached) {
      cached = render(handler, req, req.path);
      pages.set(req.path, cached);
    }
    try {
      return (await cached) ?? undefined;
    } catch (error) {
      // A render that failed outright is tried again by the next visitor; this one is rendered
      // the normal way, which reports what goes wrong as for any page.
      if (pages.get(req.path) === cached) pages.delete(req.path);
      req.log.warn(
        { page: req.path, err: { message: (error as Error).message } },
        "guest page render failed",
      );
      return undefined;
    }
  }

  return {
    /**
     * Answers from memory when the request is for a guest page without a session cookie; false
     * when the normal page handler must answer.
     */
    async serve(req: Request, res: Response, handler: RequestHandler): Promise<boolean> {
      const page = await cachedPageFor(req, handler);
      if (!page) return false;
      const encoding = encodingFor(req);
      const { body, etag } = page.representations[encoding];
      page.policy(req, res, () => {});
      res.set(page.headers);
      res.vary("Accept-Encoding");
      res.set("ETag", etag);
      if (encoding !== "identity") res.set("Content-Encoding", encoding);
      if (req.fresh) {
        res.status(304).end();
        return true;
      }
      res.set("Content-Length", String(body.length));
      res.end(body);
      return true;
    },
  };
}
