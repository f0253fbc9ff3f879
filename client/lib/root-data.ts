import { useRouteLoaderData } from "react-router";
import { DEFAULT_PRODUCT_NAME } from "../../shared/constants.ts";
import type { loader } from "../root";

export type RootData = Awaited<ReturnType<typeof loader>>;

/** The root loader's data; undefined only while an error boundary renders without it. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}

export function useProductName(): string {
  return useRootData()?.productName || DEFAULT_PRODUCT_NAME;
}
