import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";

/** A folder served over HTTPS by a certificate of a test CA, as a release host would serve it. */
export interface FileHost {
  /** `https://localhost:<port>/`. */
  url: string;
  /** A CA bundle: the system's authorities and the test CA (SSL_CERT_FILE for Go programs). */
  caBundle: string;
  /** The test CA alone (PEM). */
  caFile: string;
  /** Every path requested, in order. */
  requests: string[];
  /** Serves the named file (relative to the root) with one byte changed, as a compromised mirror would. */
  tamper(file: string | undefined): void;
  close(): Promise<void>;
}

/** Files without an extension under these folders are the registry protocol's JSON answers. */
const JSON_FOLDERS = ["registry/", "mirror/"];

/** A CA and a certificate for `localhost` and 127.0.0.1 signed by it (openssl, ECDSA P-256). */
function testCertificates(): { dir: string; ca: string; key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "cf-test-ca-"));
  const openssl = (args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  openssl(["req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Clusterform test CA", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]);
  openssl(["req", ...ec, "-keyout", "host.key", "-out", "host.csr", "-subj", "/CN=localhost"]);
  writeFileSync(path.join(dir, "host.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n");
  openssl(["x509", "-req", "-in", "host.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "host.pem", "-days", "2", "-extfile", "host.ext"]);
  return { dir, ca: path.join(dir, "ca.pem"), key: path.join(dir, "host.key"), cert: path.join(dir, "host.pem") };
}

/** Serves `root` read-only over HTTPS on a free port of 127.0.0.1. */
export async function serveFiles(root: string): Promise<FileHost> {
  const certs = testCertificates();
  const system = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"].find(existsSync);
  const caBundle = path.join(certs.dir, "bundle.pem");
  writeFileSync(caBundle, `${system ? readFileSync(system, "utf8") : ""}\n${readFileSync(certs.ca, "utf8")}`);
  const requests: string[] = [];
  let tampered: string | undefined;
  const server = createServer({ key: readFileSync(certs.key), cert: readFileSync(certs.cert) }, (req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? "/", "https://localhost").pathname).replace(/^\/+/, "");
    requests.push(rel);
    const file = path.resolve(root, rel);
    if (!file.startsWith(path.resolve(root) + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${rel}\n`);
      return;
    }
    let body = readFileSync(file);
    if (rel === tampered) {
      body = Buffer.from(body);
      body[Math.floor(body.length / 2)] ^= 0xff;
    }
    const json = rel.endsWith(".json") || (JSON_FOLDERS.some((f) => rel.startsWith(f)) && path.extname(rel) === "");
    res.writeHead(200, { "content-type": json ? "application/json" : "application/octet-stream", "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}/`,
    caBundle,
    caFile: certs.ca,
    requests,
    tamper: (file) => {
      tampered = file;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
