import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import {
  type AddressClass,
  classifyAddress,
  type HostLookup,
  isAllowed,
  OutboundAddressError,
  pinnedLookup,
  resolveOutbound,
} from "./outbound-address.ts";

const CASES: [string, AddressClass][] = [
  // Cloud metadata services, and their spellings through IPv6.
  ["169.254.169.254", "metadata"],
  ["169.254.170.2", "metadata"],
  ["100.100.100.200", "metadata"],
  ["192.0.0.192", "metadata"],
  ["fd00:ec2::254", "metadata"],
  ["::ffff:169.254.169.254", "metadata"],
  ["::ffff:a9fe:a9fe", "metadata"],
  ["[::ffff:169.254.169.254]", "metadata"],
  ["64:ff9b::a9fe:a9fe", "metadata"],
  ["2002:a9fe:a9fe::1", "metadata"],
  // Link-local.
  ["169.254.0.1", "link-local"],
  ["169.254.255.255", "link-local"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["febf::1", "link-local"],
  // Loopback, and "this host", which reaches the machine too.
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["0.0.0.0", "loopback"],
  ["::1", "loopback"],
  ["::", "loopback"],
  ["::ffff:127.0.0.1", "loopback"],
  // Private networks.
  ["10.0.0.1", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.10", "private"],
  ["100.64.0.1", "private"],
  ["198.18.0.1", "private"],
  ["fd12:3456::1", "private"],
  ["fc00::1", "private"],
  ["::ffff:10.1.2.3", "private"],
  // Not unicast, or for documentation only.
  ["224.0.0.1", "reserved"],
  ["255.255.255.255", "reserved"],
  ["192.0.2.1", "reserved"],
  ["ff02::1", "reserved"],
  ["2001:db8::1", "reserved"],
  ["::7f00:1", "reserved"],
  ["not-an-address", "reserved"],
  // The public internet, including the neighbours of every range above.
  ["8.8.8.8", "public"],
  ["172.15.255.255", "public"],
  ["172.32.0.0", "public"],
  ["169.253.255.255", "public"],
  ["100.63.255.255", "public"],
  ["100.128.0.0", "public"],
  ["11.0.0.0", "public"],
  ["2606:4700:4700::1111", "public"],
  ["2a00:1450:4001:80b::200e", "public"],
  ["::ffff:8.8.8.8", "public"],
  ["fec0::1", "private"],
  ["fe7f::1", "public"],
];

const lookupOf =
  (table: Record<string, string[]>): HostLookup =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OutboundAddressError) return error.addressClass;
    throw error;
  }
  throw new Error("expected a refusal");
};

describe("classifyAddress", () => {
  it.each(CASES)("%s is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe("isAllowed", () => {
  it("allows public addresses always, loopback and private only when the policy does, the rest never", () => {
    const classes: AddressClass[] = ["public", "loopback", "private", "link-local", "metadata", "reserved"];
    expect(classes.filter((c) => isAllowed(c, { allowPrivate: false }))).toEqual(["public"]);
    expect(classes.filter((c) => isAllowed(c, { allowPrivate: true }))).toEqual([
      "public",
      "loopback",
      "private",
    ]);
  });
});

describe("resolveOutbound", () => {
  const lookup = lookupOf({
    "models.example.com": ["203.0.114.7", "2606:4700::6810:1"],
    "ollama.lan": ["192.168.1.20"],
    "metadata.example.com": ["169.254.169.254"],
    "mixed.example.com": ["203.0.114.7", "169.254.169.254"],
    "rebound.example.com": ["10.0.0.5", "fe80::1"],
  });

  it("answers every address of a name that resolves to allowed ones", async () => {
    expect(await resolveOutbound("models.example.com", { allowPrivate: false }, lookup)).toEqual([
      { address: "203.0.114.7", family: 4 },
      { address: "2606:4700::6810:1", family: 6 },
    ]);
    expect(await resolveOutbound("ollama.lan", { allowPrivate: true }, lookup)).toEqual([
      { address: "192.168.1.20", family: 4 },
    ]);
  });

  it("refuses a name when any of its addresses is refused, naming the worst", async () => {
    expect(await refusal(resolveOutbound("metadata.example.com", { allowPrivate: true }, lookup))).toBe(
      "metadata",
    );
    expect(await refusal(resolveOutbound("mixed.example.com", { allowPrivate: true }, lookup))).toBe(
      "metadata",
    );
    expect(await refusal(resolveOutbound("rebound.example.com", { allowPrivate: true }, lookup))).toBe(
      "link-local",
    );
    expect(await refusal(resolveOutbound("ollama.lan", { allowPrivate: false }, lookup))).toBe("private");
  });

  it("checks IP literals without a lookup, bracketed IPv6 too", async () => {
    const noLookup: HostLookup = () => Promise.reject(new Error("an IP literal is not looked up"));
    expect(await refusal(resolveOutbound("169.254.169.254", { allowPrivate: true }, noLookup))).toBe(
      "metadata",
    );
    expect(await refusal(resolveOutbound("[::ffff:127.0.0.1]", { allowPrivate: false }, noLookup))).toBe(
      "loopback",
    );
    expect(await resolveOutbound("[::1]", { allowPrivate: true }, noLookup)).toEqual([
      { address: "::1", family: 6 },
    ]);
  });

  it("passes on the lookup's own error for a name that does not resolve", async () => {
    await expect(
      resolveOutbound("nowhere.example.com", { allowPrivate: true }, lookup),
    ).rejects.toMatchObject({
      code: "ENOTFOUND",
    });
  });

  it("resolves real names with the system resolver by default", async () => {
    expect(await refusal(resolveOutbound("localhost", { allowPrivate: false }))).toBe("loopback");
  });
});

describe("pinnedLookup", () => {
  const checked = [
    { address: "192.168.1.20", family: 4 as const },
    { address: "fd12::20", family: 6 as const },
  ];
  const ask = (options: { family?: number; all?: boolean }) =>
    new Promise<unknown>((resolve, reject) => {
      pinnedLookup(checked)("any.name.at.all", options, (error, address, family) => {
        if (error) reject(error);
        else resolve(options.all ? address : { address, family });
      });
    });

  it("answers only the checked addresses, whatever name the socket asks for", async () => {
    expect(await ask({})).toEqual({ address: "192.168.1.20", family: 4 });
    expect(await ask({ family: 6 })).toEqual({ address: "fd12::20", family: 6 });
    expect((await ask({ all: true })) as LookupAddress[]).toEqual(checked);
  });

  it("fails when no checked address is of the family asked for", async () => {
    const onlyV4 = pinnedLookup([{ address: "10.0.0.1", family: 4 }]);
    const error = await new Promise((resolve) => onlyV4("x", { family: 6 }, (e) => resolve(e)));
    expect(error).toMatchObject({ code: "ENOTFOUND" });
  });
});
