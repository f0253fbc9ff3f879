/** The performance mark set when hydration starts; browser tests compare it with the first paint. */
export const HYDRATION_MARK = "argus:hydration";

/**
 * Runs `hydrate` once the browser has painted the server's HTML (in a task after the next frame), or
 * after a short wait where frames are not drawn (a tab in the background). Started at once, the
 * hydration's main-thread work came before the first paint, which waited for it
 * (docs/decisions/046-first-load-and-first-paint.md).
 */
export function afterFirstPaint(hydrate: () => void): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    performance.mark(HYDRATION_MARK);
    hydrate();
  };
  requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, 100);
}
