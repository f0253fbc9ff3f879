/**
 * Streams the React render. Browsers get the shell as soon as it is ready and the rest through
 * Suspense; bots wait for everything. Every inline script carries the gateway's CSP nonce.
 */
import { Transform, type TransformCallback } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { type EntryContext, type RouterContextProvider, ServerRouter } from "react-router";
import { gatewayContext } from "./lib/gateway-context";
import { NonceProvider } from "./lib/nonce.tsx";
import { STREAM_TIMEOUT_MS } from "./lib/stream-timeout";

/** React Router reads this export: how long pending Suspense data may stream before it is cut off. */
export const streamTimeout = STREAM_TIMEOUT_MS;

/**
 * Passes React's output on as one chunk per React flush instead of one per 2 kB write: React calls
 * `flush()` on its destination after each batch of finished HTML (the shell, then each boundary),
 * and every chunk downstream costs a compression flush and a socket write. Profiles of /home showed
 * those per-write flushes as the largest self time of a render.
 */
class RenderBatches extends Transform {
  #pending: Buffer[] = [];
  readonly #onEnd: () => void;

  constructor(onEnd: () => void) {
    super();
    this.#onEnd = onEnd;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.#pending.push(chunk);
    callback();
  }

  /** Called by React at the end of each batch of writes. */
  flush() {
    if (this.#pending.length === 0) return;
    this.push(this.#pending.length === 1 ? this.#pending[0] : Buffer.concat(this.#pending));
    this.#pending = [];
  }

  override _flush(callback: TransformCallback) {
    this.flush();
    this.#onEnd();
    callback();
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce, log } = loadContext.get(gatewayContext);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    // Abort a little after streamTimeout so rejected boundaries still get flushed; the timer is
    // cleared when the stream ends so a finished render holds no closure.
    let abortTimer: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new RenderBatches(() => {
            clearTimeout(abortTimer);
            abortTimer = undefined;
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          // A browser that leaves mid-stream closes the destination: routine, and frequent under load.
          if (request.signal.aborted) {
            log.debug({ reason: String(error) }, "client left during a streamed render");
            return;
          }
          responseStatusCode = 500;
          // Errors before the shell are logged by React Router; later ones only reach us here.
          if (shellRendered) log.error({ err: error }, "streamed render failed");
        },
      },
    );
  });
}
