import type http from "node:http";

/**
 * A small request body as text, for the local stand-ins' own forms and calls
 * (the demo identity and payment providers): a body past `most` characters
 * ends the request, so a client cannot make the process hold a large one.
 */
export function readSmallBody(req: http.IncomingMessage, most: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
      if (body.length > most) req.destroy(new Error(`a body of more than ${most} characters`));
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}
