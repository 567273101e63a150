import type http from "node:http";
import net from "node:net";
import { logger } from "../app/utils/logger.server";

/**
 * How long after SIGTERM an idle keep-alive connection may still bring a
 * request, when no other request keeps the process busy for longer. A
 * balancer or a browser sends on a connection it holds without warning; a
 * request that arrives gets its answer (with Connection: close) instead of a
 * closed socket.
 */
const IDLE_CONNECTION_GRACE_MS = 2_000;

export interface ShopConnections {
  /** Requests between their arrival and the end of their response. */
  inFlight(): number;
  /**
   * Shuts the shop's door for a graceful shutdown: no new connections; every
   * response not yet begun says `Connection: close`; connections between
   * requests stay open while requests run (and at least a moment), then close
   * as soon as each is between requests — never one receiving a request.
   * Resolves when every connection has closed, or at `deadline`, whichever
   * comes first.
   */
  drain(deadline: Promise<void>): Promise<void>;
  /** Cuts whatever is still open (after the grace period). */
  closeAll(): void;
}

export function trackConnections(server: http.Server): ShopConnections {
  let count = 0;
  let closingBetweenRequests = false;
  const waiters: (() => void)[] = [];
  const responses = new Set<http.ServerResponse>();
  const sockets = new Set<net.Socket>();

  const closeBetweenRequests = () => {
    // Connections whose last response is complete (Node never counts one receiving a request)…
    server.closeIdleConnections();
    // …and those that never sent a byte, which Node counts as neither idle nor busy.
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
  };
  const track = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    count++;
    responses.add(res);
    res.once("close", () => {
      count--;
      responses.delete(res);
      // A response that began before SIGTERM went out keep-alive: its connection closes now.
      if (closingBetweenRequests) closeBetweenRequests();
      if (count === 0) for (const resolve of waiters.splice(0)) resolve();
    });
  };
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("request", track);
  // Requests with Expect: 100-continue come through this event instead, answered by start.ts's listener.
  server.on("checkContinue", track);

  const settled = () =>
    count === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve));

  return {
    inFlight: () => count,
    async drain(deadline) {
      // Those that arrive from now on are told by the shop's handler (services.lifecycle.draining).
      for (const res of responses) if (!res.headersSent) res.setHeader("Connection", "close");
      // net.Server's close, not http.Server's: since Node 19 the latter also closes every idle
      // keep-alive connection at once, and a client's next request on one found it closed.
      const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
      let timer: NodeJS.Timeout | undefined;
      const idleGraceOver = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, IDLE_CONNECTION_GRACE_MS);
      });
      await Promise.race([closed, deadline, Promise.all([settled(), idleGraceOver])]);
      clearTimeout(timer);
      logger.debug({ connections: sockets.size }, "closing the connections between requests");
      closingBetweenRequests = true;
      closeBetweenRequests();
      await Promise.race([closed, deadline]);
    },
    closeAll: () => server.closeAllConnections(),
  };
}
