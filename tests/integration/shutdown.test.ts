import net from "node:net";
import { describe, expect, it } from "vitest";
import { startShopProcess } from "../support/shop-process";

/** Graceful shutdown, as an operator's SIGTERM (a deploy, a scale-down) meets it. */
describe("SIGTERM", () => {
  it("stops accepting, finishes the request in flight, closes its connections and exits 0", async () => {
    const shop = await startShopProcess({ LOG_LEVEL: "info" });
    const body = "email=someone%40example.com&password=Wr0ng%21Pass1";
    // A login whose body is still on its way when the signal comes.
    const socket = net.connect(shop.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write(
      "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );

    shop.kill("SIGTERM");
    await shop.waitForOutput(/"msg":"shutting down: no new connections/);

    // New connections are refused…
    const refused = await new Promise<string>((resolve) => {
      const probe = net.connect(shop.port, "127.0.0.1");
      probe.once("connect", () => {
        probe.destroy();
        resolve("connected");
      });
      probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    });
    expect(refused).toBe("ECONNREFUSED");

    // …while the request in flight gets its whole answer, on a connection then closed.
    socket.write(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain("Invalid email or password.");

    expect(await shop.exited).toBe(0);
    expect(shop.output()).toContain('"msg":"stopped"');
  });
});
