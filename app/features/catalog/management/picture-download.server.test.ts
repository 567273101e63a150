import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DownloadOptions, downloadPicture, isPublicAddress } from "./picture-download.server";

const PICTURE = Buffer.from("a picture's bytes");
const REFUSED =
  "a private or local network address: the import downloads pictures only from the public internet. If they are on your own network, run again with --allow-private-network.";

/** A server on `host`, its requests counted, answering by path; its address once listening. */
async function server(host: string, answer: (path: string, res: http.ServerResponse) => void) {
  const served: string[] = [];
  const listening = http.createServer((req, res) => {
    served.push(req.url ?? "");
    answer(req.url ?? "", res);
  });
  await new Promise<void>((resolve) => listening.listen(0, host, resolve));
  return { listening, served, port: (listening.address() as AddressInfo).port };
}

describe("which addresses are the public internet", () => {
  it("refuses loopback, private, link-local, unique-local, unspecified and reserved addresses", () => {
    for (const address of [
      "127.0.0.1",
      "127.8.9.10",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "224.0.0.1",
      "::1",
      "::",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "::ffff:169.254.169.254",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "fe80::1%eth0",
      "64:ff9b::7f00:1",
      "ff02::1",
      "not an address",
    ]) {
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    }
  });

  it("allows global addresses, IPv4 written as IPv6 and behind NAT64 included", () => {
    for (const address of [
      "93.184.216.34",
      "8.8.8.8",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
    ]) {
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
    }
  });
});

describe("downloading a picture", () => {
  // This machine's own network, where nothing may be fetched…
  let inside: Awaited<ReturnType<typeof server>>;
  // …and a server that stands in for the public internet: 127.0.0.2, allowed by the tests' policy only.
  let outside: Awaited<ReturnType<typeof server>>;
  const options = (more: Partial<DownloadOptions> = {}): DownloadOptions => ({
    maxBytes: 1024,
    isPublic: (address) => address === "127.0.0.2" || isPublicAddress(address),
    ...more,
  });

  beforeAll(async () => {
    inside = await server("127.0.0.1", (_, res) => res.end("the shop's secrets"));
    outside = await server("127.0.0.2", (path, res) => {
      const redirect = (to: string) => res.writeHead(302, { Location: to }).end();
      if (path === "/lamp.jpg") res.end(PICTURE);
      else if (path === "/moved.jpg") redirect("/lamp.jpg");
      else if (path === "/to-loopback") redirect(`http://127.0.0.1:${inside.port}/secret`);
      else if (path === "/to-metadata") redirect("http://169.254.169.254/latest/meta-data/");
      else if (path === "/to-mapped") redirect(`http://[::ffff:127.0.0.1]:${inside.port}/secret`);
      else if (path === "/to-name") redirect(`http://rebound.example:${inside.port}/secret`);
      else if (path === "/to-file") redirect("file:///etc/passwd");
      else if (path.startsWith("/again/")) redirect(`/again/${Number(path.slice(7)) + 1}`);
      else res.writeHead(404).end();
    });
  });
  afterAll(async () => {
    for (const { listening } of [inside, outside]) await new Promise((done) => listening.close(done));
  });
  const url = (path: string, host = "127.0.0.2") => new URL(`http://${host}:${outside.port}${path}`);

  it("downloads from the public internet, following its redirects", async () => {
    expect(await downloadPicture(url("/lamp.jpg"), options())).toEqual(PICTURE);
    expect(await downloadPicture(url("/moved.jpg"), options())).toEqual(PICTURE);
  });

  it("refuses a redirect to loopback or the metadata service, without connecting", async () => {
    for (const path of ["/to-loopback", "/to-metadata", "/to-mapped"]) {
      await expect(downloadPicture(url(path), options())).rejects.toThrow(
        `${url(path).href} redirects to ${REFUSED}`,
      );
    }
    expect(inside.served).toEqual([]);
  });

  it("checks the address a name has when connecting, on every hop: a name turning private is refused", async () => {
    // The first answer is public; the next one, for the redirect, is this machine (DNS rebinding).
    const answers = ["127.0.0.2", "127.0.0.1"];
    const resolve: DownloadOptions["resolve"] = async () => [
      { address: answers.shift() ?? "127.0.0.1", family: 4 },
    ];
    const start = url("/to-name", "rebound.example");
    await expect(downloadPicture(start, options({ resolve }))).rejects.toThrow(
      `${start.href} redirects to ${REFUSED}`,
    );
    expect(answers).toEqual([]);
    expect(inside.served).toEqual([]);
  });

  it("refuses a public-looking name that resolves to this machine", async () => {
    const resolve: DownloadOptions["resolve"] = async () => [
      { address: "2606:4700::1111", family: 6 },
      { address: "127.0.0.1", family: 4 },
    ];
    const start = new URL(`http://cdn.example.com:${inside.port}/lamp.jpg`);
    await expect(downloadPicture(start, options({ resolve }))).rejects.toThrow(
      `${start.href} is on ${REFUSED}`,
    );
    expect(inside.served).toEqual([]);
  });

  it("downloads from this machine's network when the owner allows it", async () => {
    const start = new URL(`http://127.0.0.1:${inside.port}/lamp.jpg`);
    await expect(downloadPicture(start, options())).rejects.toThrow(`${start.href} is on ${REFUSED}`);
    expect(inside.served).toEqual([]);
    expect(String(await downloadPicture(start, options({ allowPrivateNetwork: true })))).toBe(
      "the shop's secrets",
    );
    inside.served.length = 0;
  });

  it("gives up after five redirects, and on a redirect that is not http(s)", async () => {
    await expect(downloadPicture(url("/again/1"), options())).rejects.toThrow(
      `${url("/again/1").href} redirects more than 5 times.`,
    );
    expect(outside.served.filter((path) => path.startsWith("/again/"))).toHaveLength(6);
    await expect(downloadPicture(url("/to-file"), options())).rejects.toThrow(
      "redirects to an address that is not an http(s) URL.",
    );
  });

  it("says a server could not be reached, not what the connection answered", async () => {
    const closed = await server("127.0.0.1", (_, res) => res.end());
    await new Promise((done) => closed.listening.close(done));
    const start = new URL(`http://127.0.0.1:${closed.port}/lamp.jpg`);
    const failure = downloadPicture(start, options({ allowPrivateNetwork: true }));
    await expect(failure).rejects.toThrow(
      `${start.href} could not be downloaded: its server could not be reached.`,
    );
    await expect(failure).rejects.not.toThrow(/ECONNREFUSED|connect/);
  });
});
