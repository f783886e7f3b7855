import * as http from "node:http";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createMultiplexedListener, type MultiplexedListener, sniffProtocol } from "./listener";

describe("sniffProtocol", () => {
  it.each([
    ["PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "http2"],
    ["PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x12\x04", "http2"],
    ["PRI * HTTP/2", "undecided"],
    ["P", "undecided"],
    ["POST /api/v1/cluster HTTP/1.1\r\n", "http1"],
    ["GET / HTTP/1.1\r\n", "http1"],
    ["PRI * HTTP/1.1", "http1"],
  ])("classifies %j as %s", (head, expected) => {
    expect(sniffProtocol(Buffer.from(head, "latin1"))).toBe(expected);
  });
});

describe("createMultiplexedListener", () => {
  let listener: MultiplexedListener | undefined;
  afterEach(async () => {
    await listener?.close();
  });

  it("serves HTTP/1.1 and prior-knowledge HTTP/2 on one port", async () => {
    const h1 = http.createServer((req, res) => res.end(`h1 ${req.url}`));
    const h2 = http2.createServer((req, res) => res.end(`h2 ${req.url}`));
    listener = createMultiplexedListener({ http1: h1, http2: h2 });
    await new Promise<void>((resolve) => listener!.server.listen(0, "127.0.0.1", resolve));
    const { port } = listener.server.address() as AddressInfo;

    expect(await (await fetch(`http://127.0.0.1:${port}/one`)).text()).toBe("h1 /one");
    const session = http2.connect(`http://127.0.0.1:${port}`);
    const body = await new Promise<string>((resolve, reject) => {
      const stream = session.request({ ":path": "/two" });
      let text = "";
      stream.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      stream.on("end", () => resolve(text));
      stream.on("error", reject);
    });
    session.close();
    expect(body).toBe("h2 /two");
  });

  it("closes even while a keep-alive connection is open", async () => {
    listener = createMultiplexedListener({
      http1: http.createServer((_req, res) => res.end("ok")),
      http2: http2.createServer(),
    });
    await new Promise<void>((resolve) => listener!.server.listen(0, "127.0.0.1", resolve));
    const { port } = listener.server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve) => http.get({ port, host: "127.0.0.1", agent }, (res) => res.resume().on("end", resolve)));
    await listener.close();
    expect(listener.server.listening).toBe(false);
    agent.destroy();
    listener = undefined;
  });
});
