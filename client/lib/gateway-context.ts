/** The React Router context key under which loaders find the gateway's per-request facts. */
import { createContext } from "react-router";
import type { GatewayContext } from "../../shared/gateway-context.ts";

export type { GatewayContext, PublicFirebaseConfig } from "../../shared/gateway-context.ts";

export const gatewayContext = createContext<GatewayContext>();
