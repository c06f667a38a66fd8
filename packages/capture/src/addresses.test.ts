import { describe, expect, it } from "vitest";
import { assertPublicUrl, isPrivateAddress } from "./addresses.ts";
import { CaptureError } from "./errors.ts";

describe("isPrivateAddress", () => {
  it.each([
    // IPv4 private, loopback, link-local, CGNAT, metadata
    ["10.0.0.1", true],
    ["10.255.255.255", true],
    ["172.16.0.1", true],
    ["172.31.255.254", true],
    ["192.168.1.1", true],
    ["127.0.0.1", true],
    ["127.53.0.1", true],
    ["0.0.0.0", true],
    ["169.254.169.254", true], // AWS / GCP / Azure metadata
    ["169.254.0.1", true],
    ["100.64.0.1", true], // CGNAT
    ["100.100.100.200", true], // Alibaba metadata
    ["100.127.255.255", true],
    ["192.0.0.170", true],
    ["192.0.2.10", true],
    ["198.18.0.1", true],
    ["198.51.100.7", true],
    ["203.0.113.9", true],
    ["224.0.0.1", true],
    ["239.255.255.250", true],
    ["240.0.0.1", true],
    ["255.255.255.255", true],
    // IPv4 public, including neighbours of the blocked ranges
    ["8.8.8.8", false],
    ["1.1.1.1", false],
    ["93.184.216.34", false],
    ["172.15.255.255", false],
    ["172.32.0.1", false],
    ["100.63.255.255", false],
    ["100.128.0.1", false],
    ["169.253.255.255", false],
    ["192.169.0.1", false],
    ["11.0.0.1", false],
    // IPv6 loopback, unspecified, unique-local, link-local, multicast, documentation
    ["::1", true],
    ["::", true],
    ["0:0:0:0:0:0:0:1", true],
    ["fd00:ec2::254", true], // AWS metadata over IPv6
    ["fc00::1", true],
    ["fdff:ffff::1", true],
    ["fe80::1", true],
    ["fe80::1%eth0", true],
    ["febf::1", true],
    ["fec0::1", true],
    ["ff02::1", true],
    ["2001:db8::1", true],
    ["100::1", true],
    ["2002:7f00:1::1", true], // 6to4
    ["2001::1", true], // Teredo
    ["[::1]", true],
    // IPv4-mapped / translated / NAT64: judged by the embedded IPv4 address
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["::ffff:169.254.169.254", true],
    ["::ffff:a9fe:a9fe", true],
    ["::ffff:10.0.0.1", true],
    ["::ffff:0:10.0.0.1", true],
    ["::127.0.0.1", true], // deprecated IPv4-compatible
    ["64:ff9b::10.0.0.1", true],
    ["64:ff9b::8.8.8.8", false],
    ["::ffff:8.8.8.8", false],
    // IPv6 public
    ["2606:4700:4700::1111", false],
    ["2a00:1450:4001:82b::200e", false],
    ["2001:4860:4860::8888", false],
    // Not an IP: fails closed
    ["localhost", true],
    ["", true],
    ["999.1.1.1", true],
  ])("%s → %s", (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });
});

describe("assertPublicUrl", () => {
  const resolve = async (host: string) =>
    ({
      "public.test": ["93.184.216.34"],
      "mixed.test": ["93.184.216.34", "10.1.2.3"],
      "v6.test": ["fd00::1"],
    })[host] ?? [];

  const reason = (url: string) =>
    assertPublicUrl(url, { resolve }).then(
      () => "ok",
      (error: unknown) => (error instanceof CaptureError ? error.reason : String(error)),
    );

  it.each([
    ["http://public.test/", "ok"],
    ["https://public.test:8443/path?q=1", "ok"],
    ["http://8.8.8.8/", "ok"],
    ["http://127.0.0.1/", "blocked-url"],
    ["http://2130706433/", "blocked-url"], // 127.0.0.1 as one number
    ["http://0x7f.1/", "blocked-url"],
    ["http://[::1]:8080/", "blocked-url"],
    ["http://[::ffff:169.254.169.254]/", "blocked-url"],
    ["http://169.254.169.254/latest/meta-data/", "blocked-url"],
    ["http://[fd00:ec2::254]/", "blocked-url"],
    ["http://mixed.test/", "blocked-url"], // any private answer is enough
    ["http://v6.test/", "blocked-url"],
    ["http://nowhere.test/", "load-failed"],
    ["file:///etc/passwd", "blocked-url"],
    ["ftp://public.test/", "blocked-url"],
    ["javascript:alert(1)", "blocked-url"],
    ["not a url", "blocked-url"],
  ])("%s → %s", async (url, expected) => {
    expect(await reason(url)).toBe(expected);
  });
});
