/**
 * The client's address and protocol of a request on the plain node:http path, as Express reads them
 * with `trust proxy` set to a hop count (req.ip, req.protocol): X-Forwarded-For and
 * X-Forwarded-Proto count only as far as TRUST_PROXY proxies in front of us may have set them.
 */
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";

/** The address `hops` proxies back: the socket's peer, then X-Forwarded-For from its right end. */
export function clientAddress(req: IncomingMessage, hops: number): string {
  const peer = req.socket.remoteAddress ?? "";
  const header = hops > 0 ? req.headers["x-forwarded-for"] : undefined;
  const forwarded = Array.isArray(header) ? header.join(",") : header;
  if (!forwarded) return peer;
  const chain = [
    peer,
    ...forwarded
      .split(",")
      .map((address) => address.trim())
      .reverse(),
  ];
  return chain[Math.min(hops, chain.length - 1)] ?? peer;
}

/** "https" or "http": the socket's, or the first X-Forwarded-Proto behind a trusted proxy. */
export function requestProtocol(req: IncomingMessage, hops: number): string {
  const own = (req.socket as TLSSocket).encrypted ? "https" : "http";
  if (hops === 0) return own;
  const header = req.headers["x-forwarded-proto"];
  const value = (Array.isArray(header) ? header[0] : header) || own;
  const comma = value.indexOf(",");
  return (comma === -1 ? value : value.slice(0, comma)).trim();
}
