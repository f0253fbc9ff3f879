/**
 * Review runs as they change: a `run` event on API_PATHS.reviewEvents (REVIEW_EVENTS_PATH) (Server-Sent Events) for
 * each change of one of the organisation's runs. When the stream fails or the browser has no
 * EventSource, the page falls back to reloading its data every few seconds.
 */
import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import type { ReviewRunSummary } from "../../../shared/contract/reviews.ts";
import { REVIEW_EVENTS_PATH } from "../../../shared/contract/reviews.ts";

export const RELOAD_EVERY_MS = 5000;

/** Enough of a run to merge it into a list; the stream is our own backend's, so no schema is loaded. */
function runOf(data: string): ReviewRunSummary | null {
  try {
    const run: unknown = JSON.parse(data);
    return typeof run === "object" && run !== null && "id" in run && "status" in run
      ? (run as ReviewRunSummary)
      : null;
  } catch {
    return null;
  }
}

/** Calls `onRun` for each changed run; answers whether the page is live or reloading. */
export function useRunEvents(onRun: (run: ReviewRunSummary) => void, enabled = true): "live" | "reloading" {
  const [mode, setMode] = useState<"live" | "reloading">("live");
  const latest = useRef(onRun);
  latest.current = onRun;
  const { revalidate } = useRevalidator();

  useEffect(() => {
    if (!enabled) return;
    if (mode === "reloading") {
      const timer = setInterval(() => void revalidate(), RELOAD_EVERY_MS);
      return () => clearInterval(timer);
    }
    if (typeof EventSource === "undefined") {
      setMode("reloading");
      return;
    }
    const source = new EventSource(REVIEW_EVENTS_PATH);
    source.addEventListener("run", (event) => {
      const run = runOf((event as MessageEvent<string>).data);
      if (run) latest.current(run);
    });
    source.onerror = () => {
      source.close();
      setMode("reloading");
    };
    return () => source.close();
  }, [enabled, mode, revalidate]);

  return mode;
}
