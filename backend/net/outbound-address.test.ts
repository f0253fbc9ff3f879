import { describe, expect, it } from "vitest";
import { checkOutboundUrl, classifyAddress } from "./outbound-address.ts";

describe("outbound addresses", () => {
  it("classifies loopback, private, link-local, metadata, unspecified and public addresses, v4 and v6", () => {
    const cases: Array<[string, ReturnType<typeof classifyAddress>]> = [
      ["127.0.0.1", "loopback"],
      ["127.255.0.9", "loopback"],
      ["::1", "loopback"],
      ["::ffff:127.0.0.1", "loopback"],
      ["10.0.0.1", "private"],
      ["172.16.5.4", "private"],
      ["172.31.255.255", "private"],
      ["192.168.1.1", "private"],
      ["100.64.0.1", "private"],
      ["fd12:3456::1", "private"],
      ["::ffff:10.1.2.3", "private"],
      ["169.254.1.1", "link-local"],
      ["fe80::1", "link-local"],
      ["169.254.169.254", "metadata"],
      ["fd00:ec2::254", "metadata"],
      ["0.0.0.0", "unspecified"],
      ["::", "unspecified"],
      ["172.32.0.1", "public"],
      ["8.8.8.8", "public"],
      ["13.107.42.20", "public"],
      ["2620:1ec:4::1", "public"],
    ];
    for (const [address, expected] of cases) expect(classifyAddress(address), address).toBe(expected);
  });

  it("refuses a URL when any address its host resolves to is not allowed; metadata never is", async () => {
    const resolvingTo = (addresses: string[]) => async () => addresses;
    const url = new URL("https://dev.example.com/fabrikam");
    expect(await checkOutboundUrl(url, new Set(), resolvingTo(["13.107.42.20"]))).toEqual({
      ok: true,
      addresses: ["13.107.42.20"],
    });
    // One private answer among public ones is enough (a name with both must not slip through).
    expect(await checkOutboundUrl(url, new Set(), resolvingTo(["13.107.42.20", "10.0.0.5"]))).toEqual({
      ok: false,
      reason: "refused",
      addressClass: "private",
    });
    expect((await checkOutboundUrl(url, new Set(["private"]), resolvingTo(["10.0.0.5"]))).ok).toBe(true);
    expect(
      await checkOutboundUrl(
        url,
        new Set(["loopback", "private", "link-local"]),
        resolvingTo(["169.254.169.254"]),
      ),
    ).toEqual({ ok: false, reason: "refused", addressClass: "metadata" });
    const failing = async () => {
      throw new Error("ENOTFOUND");
    };
    expect(await checkOutboundUrl(url, new Set(), failing)).toEqual({ ok: false, reason: "unresolvable" });
  });

  it("resolves a literal address without DNS, and a host name with it", async () => {
    expect(await checkOutboundUrl(new URL("http://[::1]:8080/x"), new Set())).toMatchObject({
      ok: false,
      addressClass: "loopback",
    });
    expect(await checkOutboundUrl(new URL("http://localhost/x"), new Set(["loopback"]))).toMatchObject({
      ok: true,
    });
  });
});
