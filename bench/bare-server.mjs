// The ceiling for the API benchmark: node:http answering a precomputed JSON body.
import fs from "node:fs";
import http from "node:http";

const body = fs.readFileSync(process.argv[2]);
const server = http.createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => process.send?.(server.address().port));
