/**
 * Which addresses the backend may call on a user's behalf (docs/security.md, "Calling user-supplied
 * addresses"; docs/decisions/030-model-outbound-calls.md). A URL's host is resolved, every address
 * it resolves to is classified, and the connection is then made to those checked addresses only
 * (`pinnedLookup`), so a name that resolves differently a moment later (DNS rebinding) cannot swap
 * in another. Link-local and cloud metadata addresses are never called; loopback and private ones
 * only when the caller's policy allows them (a model server on the same machine or network).
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";

export type AddressClass = "loopback" | "private" | "link-local" | "metadata" | "reserved" | "public";

export interface OutboundPolicy {
  /** Loopback and private ranges may be called. Link-local, metadata and reserved never are. */
  allowPrivate: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; `dns.lookup` (the system resolver) by default. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemHostLookup: HostLookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/** A host that resolves to an address the policy refuses; says which kind, never the address. */
export class OutboundAddressError extends Error {
  override name = "OutboundAddressError";
  readonly addressClass: Exclude<AddressClass, "public">;
  constructor(addressClass: Exclude<AddressClass, "public">) {
    super(`The address is ${addressClass}, which is not called`);
    this.addressClass = addressClass;
  }
}

type Range = [first: bigint, bits: number, width: 32 | 128];

const IPV4_MAPPED = 0xffffn << 32n;
const NAT64 = 0x0064ff9bn << 96n;

function ipv4Value(address: string): bigint {
  return address.split(".").reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

/** The 128-bit value of an IPv6 address (a valid one: `isIP` said 6), an embedded IPv4 tail included. */
function ipv6Value(address: string): bigint {
  const groupsOf = (part: string): bigint[] =>
    part === ""
      ? []
      : part.split(":").flatMap((group) => {
          if (!group.includes(".")) return [BigInt(`0x${group}`)];
          const v4 = ipv4Value(group);
          return [v4 >> 16n, v4 & 0xffffn];
        });
  const [head = "", tail] = address.split("::");
  const headGroups = groupsOf(head);
  const tailGroups = tail === undefined ? [] : groupsOf(tail);
  const zeros = Array<bigint>(8 - headGroups.length - tailGroups.length).fill(0n);
  return [...headGroups, ...zeros, ...tailGroups].reduce((value, group) => (value << 16n) | group, 0n);
}

const v4 = (address: string, bits: number): Range => [ipv4Value(address), bits, 32];
const v6 = (address: string, bits: number): Range => [ipv6Value(address), bits, 128];

const inRange = (value: bigint, width: 32 | 128, [first, bits, rangeWidth]: Range) =>
  width === rangeWidth && value >> BigInt(width - bits) === first >> BigInt(width - bits);

/** Checked in this order: the first list that holds an address names its class. */
const CLASSES: [AddressClass, Range[]][] = [
  [
    // AWS, GCP, Azure, OpenStack and Oracle (169.254.169.254), ECS task and EKS pod credentials,
    // Alibaba Cloud, Oracle's legacy address, AWS's IPv6 instance metadata and pod credentials.
    "metadata",
    [
      v4("169.254.169.254", 32),
      v4("169.254.170.2", 32),
      v4("169.254.170.23", 32),
      v4("100.100.100.200", 32),
      v4("192.0.0.192", 32),
      v6("fd00:ec2::254", 128),
      v6("fd00:ec2::23", 128),
    ],
  ],
  ["link-local", [v4("169.254.0.0", 16), v6("fe80::", 10)]],
  // "This host" (0.0.0.0, ::) reaches the machine itself, as loopback does.
  ["loopback", [v4("127.0.0.0", 8), v4("0.0.0.0", 8), v6("::1", 128), v6("::", 128)]],
  [
    "private",
    [
      v4("10.0.0.0", 8),
      v4("172.16.0.0", 12),
      v4("192.168.0.0", 16),
      v4("100.64.0.0", 10),
      v4("198.18.0.0", 15),
      v4("192.0.0.0", 24),
      v6("fc00::", 7),
      v6("fec0::", 10),
      v6("64:ff9b:1::", 48),
    ],
  ],
  [
    // Multicast, broadcast and the future-use block, documentation ranges, IPv4-compatible IPv6
    // and the discard prefix: nothing a model server answers on.
    "reserved",
    [
      v4("224.0.0.0", 4),
      v4("240.0.0.0", 4),
      v4("192.0.2.0", 24),
      v4("198.51.100.0", 24),
      v4("203.0.113.0", 24),
      v6("ff00::", 8),
      v6("2001:db8::", 32),
      v6("100::", 64),
      v6("::", 96),
    ],
  ],
];

function classify(value: bigint, width: 32 | 128): AddressClass {
  if (width === 128) {
    // IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::) addresses
    // reach the IPv4 address they carry: judge that one.
    const top96 = value >> 32n;
    if (top96 === IPV4_MAPPED >> 32n || top96 === NAT64 >> 32n) return classify(value & 0xffffffffn, 32);
    if (value >> 112n === 0x2002n) {
      const carried = classify((value >> 80n) & 0xffffffffn, 32);
      if (carried !== "public") return carried;
    }
  }
  for (const [addressClass, ranges] of CLASSES) {
    if (ranges.some((range) => inRange(value, width, range))) return addressClass;
  }
  return "public";
}

/** The class of an IP address (IPv6 in brackets or with a zone too); anything else is reserved. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 4) return classify(ipv4Value(bare), 32);
  if (family === 6) return classify(ipv6Value(bare.toLowerCase()), 128);
  return "reserved";
}

export const isAllowed = (addressClass: AddressClass, policy: OutboundPolicy): boolean =>
  addressClass === "public" ||
  (policy.allowPrivate && (addressClass === "loopback" || addressClass === "private"));

/** Never-called classes first, so a refusal names the worst address a host has. */
const REFUSAL_ORDER: AddressClass[] = ["metadata", "link-local", "reserved", "loopback", "private"];

/**
 * Every address `hostname` (a name, or an IP literal, bracketed or not) stands for, checked: throws
 * OutboundAddressError when any of them is refused (a name with one good and one bad address could
 * otherwise be connected to the bad one), and the lookup's own error when it does not resolve.
 */
export async function resolveOutbound(
  hostname: string,
  policy: OutboundPolicy,
  lookupHost: HostLookup = systemHostLookup,
): Promise<ResolvedAddress[]> {
  const bare = hostname.replace(/^\[(.*)\]$/, "$1");
  const family = isIP(bare);
  const addresses: ResolvedAddress[] =
    family === 0 ? await lookupHost(bare) : [{ address: bare, family: family === 6 ? 6 : 4 }];
  const refused = addresses
    .map(({ address }) => classifyAddress(address))
    .filter((addressClass) => !isAllowed(addressClass, policy))
    .sort((a, b) => REFUSAL_ORDER.indexOf(a) - REFUSAL_ORDER.indexOf(b));
  const [worst] = refused;
  if (worst !== undefined && worst !== "public") throw new OutboundAddressError(worst);
  if (!addresses.length) throw new OutboundAddressError("reserved");
  return addresses;
}

/**
 * A `lookup` for `net.connect` / `http.request` that answers only these (checked) addresses: the
 * socket connects to what was checked, whatever the name resolves to by then.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = addresses.filter((address) => wanted === undefined || address.family === wanted);
    const [first] = usable;
    if (!first) {
      const error: NodeJS.ErrnoException = new Error("No checked address of the family asked for");
      error.code = "ENOTFOUND";
      callback(error, "", 0);
      return;
    }
    if (options.all) {
      (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, usable);
      return;
    }
    callback(null, first.address, first.family);
  };
}
