/**
 * Where an outbound URL leads, before anything is sent to it (docs/security.md, "Outbound
 * requests"): its host name is resolved and every address is classified, so a form that makes the
 * backend call a URL of the user's choosing cannot be pointed at the machine itself, its private
 * network or a cloud metadata service. A URL is refused when any address it resolves to is of a
 * class the deployment has not allowed; the metadata addresses are never allowed.
 *
 * The check happens before the call, and the call resolves the name again: a name that changes its
 * answer in between (DNS rebinding) is not caught here (docs/decisions/028-azure-devops-tenancy.md).
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** What an address is, as far as reaching it from the backend goes. */
export type AddressClass = "public" | "loopback" | "private" | "link-local" | "metadata" | "unspecified";

/** The classes a deployment may allow (configuration); `public` always is, `metadata` never. */
export const ALLOWABLE_ADDRESS_CLASSES = ["loopback", "private", "link-local"] as const;
export type AllowableAddressClass = (typeof ALLOWABLE_ADDRESS_CLASSES)[number];

function blockList(entries: Array<[string, number, "ipv4" | "ipv6"]>): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of entries) list.addSubnet(network, prefix, family);
  return list;
}

/** Cloud metadata services: AWS, GCP and Azure at 169.254.169.254, AWS's IPv6 one, Alibaba's. */
const METADATA = blockList([
  ["169.254.169.254", 32, "ipv4"],
  ["fd00:ec2::254", 128, "ipv6"],
  ["100.100.100.200", 32, "ipv4"],
]);
const LOOPBACK = blockList([
  ["127.0.0.0", 8, "ipv4"],
  ["::1", 128, "ipv6"],
]);
const UNSPECIFIED = blockList([
  ["0.0.0.0", 8, "ipv4"],
  ["::", 128, "ipv6"],
]);
const LINK_LOCAL = blockList([
  ["169.254.0.0", 16, "ipv4"],
  ["fe80::", 10, "ipv6"],
]);
/** RFC 1918, carrier-grade NAT (RFC 6598), and IPv6 unique local addresses. */
const PRIVATE = blockList([
  ["10.0.0.0", 8, "ipv4"],
  ["172.16.0.0", 12, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["100.64.0.0", 10, "ipv4"],
  ["fc00::", 7, "ipv6"],
]);

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is the IPv4 address. */
function unmapped(address: string): { address: string; family: "ipv4" | "ipv6" } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: "ipv4" };
  return { address, family: isIP(address) === 6 ? "ipv6" : "ipv4" };
}

/** The class of one IP address (v4 or v6). */
export function classifyAddress(ip: string): AddressClass {
  const { address, family } = unmapped(ip);
  if (METADATA.check(address, family)) return "metadata";
  if (UNSPECIFIED.check(address, family)) return "unspecified";
  if (LOOPBACK.check(address, family)) return "loopback";
  if (LINK_LOCAL.check(address, family)) return "link-local";
  if (PRIVATE.check(address, family)) return "private";
  return "public";
}

/** The addresses a URL's host stands for: itself when it is an address, else what DNS answers. */
export async function resolveUrlHost(url: URL): Promise<string[]> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return [host];
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

export type OutboundCheck =
  | { ok: true; addresses: string[] }
  | { ok: false; reason: "unresolvable" }
  | { ok: false; reason: "refused"; addressClass: AddressClass };

/**
 * Whether the backend may call `url`: every address its host resolves to is public or of a class in
 * `allowed`. `resolve` is for tests.
 */
export async function checkOutboundUrl(
  url: URL,
  allowed: ReadonlySet<AllowableAddressClass>,
  resolve: (url: URL) => Promise<string[]> = resolveUrlHost,
): Promise<OutboundCheck> {
  let addresses: string[];
  try {
    addresses = await resolve(url);
  } catch {
    return { ok: false, reason: "unresolvable" };
  }
  if (addresses.length === 0) return { ok: false, reason: "unresolvable" };
  for (const address of addresses) {
    const addressClass = classifyAddress(address);
    if (addressClass === "public") continue;
    if (!(allowed as ReadonlySet<AddressClass>).has(addressClass)) {
      return { ok: false, reason: "refused", addressClass };
    }
  }
  return { ok: true, addresses };
}
