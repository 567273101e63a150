import { EventEmitter, once } from "node:events";
import http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { startShopProcess } from "../support/shop-process";

/**
 * A raw connection to the shop, and everything it received until the shop closed it. `accepted`
 * resolves once the shop has answered a first request on it: a connection the client sees open may
 * still wait in the kernel's queue, and a SIGTERM then refuses it with a reset instead of draining it.
 */
function connect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  const arrived = new EventEmitter();
  socket.on("data", (chunk) => {
    received += chunk;
    arrived.emit("data");
  });
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(received)));
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const accepted = (async () => {
    await connected;
    socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    while (!completeAnswer(received)) await once(arrived, "data");
    received = "";
  })();
  return { socket, accepted, closed };
}

/** Whether `text` holds a whole answer, sent with a Content-Length or in chunks. */
function completeAnswer(text: string): boolean {
  const headersEnd = text.indexOf("\r\n\r\n");
  if (headersEnd < 0) return false;
  const headers = text.slice(0, headersEnd);
  if (/\r\ntransfer-encoding: *chunked/i.test(headers)) return text.endsWith("\r\n0\r\n\r\n");
  const length = /\r\ncontent-length: *(\d+)/i.exec(headers)?.[1];
  return length !== undefined && Buffer.byteLength(text.slice(headersEnd + 4)) >= Number(length);
}

/** A GET on a keep-alive agent's connection: the answer, and whether it came on a connection used before. */
function get(agent: http.Agent, port: number, path: string) {
  return new Promise<{ status: number; connection?: string; body: string; reusedSocket: boolean }>(
    (resolve, reject) => {
      const request = http.get({ host: "127.0.0.1", port, path, agent }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            connection: response.headers.connection,
            body,
            reusedSocket: request.reusedSocket,
          }),
        );
      });
      request.on("error", reject);
    },
  );
}

/** Graceful shutdown, as an operator's SIGTERM (a deploy, a scale-down) meets it. */
describe("SIGTERM", { timeout: 90_000 }, () => {
  it("stops accepting, finishes the request in flight, closes its connections and exits 0", async () => {
    const shop = await startShopProcess({ LOG_LEVEL: "info" });
    const body = "email=someone%40example.com&password=Wr0ng%21Pass1";
    // A login whose body is still on its way when the signal comes.
    const login = connect(shop.port);
    await login.accepted;
    login.socket.write(
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
    login.socket.write(body.slice(10));
    const answer = await login.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain("Invalid email or password.");

    expect(await shop.exited).toBe(0);
    expect(shop.output()).toContain('"msg":"stopped"');
  });

  it("answers a request sent on an open keep-alive connection after the signal, with Connection: close, and never cuts a request being received", async () => {
    const shop = await startShopProcess({ LOG_LEVEL: "debug" });
    // A keep-alive client (a browser, a load balancer) with a connection that has had an answer and waits.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const first = await get(agent, shop.port, "/healthz");
    expect(first).toMatchObject({ status: 200, reusedSocket: false });
    // A login whose body is still on its way: in flight while the shop drains.
    const body = "email=someone%40example.com&password=Wr0ng%21Pass1";
    const login = connect(shop.port);
    await login.accepted;
    login.socket.write(
      "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    // A request whose headers are half sent when the signal comes.
    const halfSent = connect(shop.port);
    await halfSent.accepted;
    halfSent.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n");

    shop.kill("SIGTERM");
    await shop.waitForOutput(/"msg":"shutting down: no new connections/);

    // The keep-alive connection still answers, says it closes, and does.
    const second = await get(agent, shop.port, "/healthz");
    expect(second).toMatchObject({ status: 503, connection: "close", reusedSocket: true });
    expect(JSON.parse(second.body)).toEqual({ status: "shutting-down" });

    // The login in flight completes…
    login.socket.write(body.slice(10));
    expect(await login.closed).toMatch(/^HTTP\/1\.1 401 [\s\S]*Invalid email or password\./);
    // …and once the shop closes the connections that are between requests, the half-sent request
    // is not one of them: it is finished and answered.
    await shop.waitForOutput(/"msg":"closing the connections between requests"/);
    halfSent.socket.write("\r\n");
    const answer = await halfSent.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);

    agent.destroy();
    expect(await shop.exited).toBe(0);
  });
});
