import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign } from "node:crypto";

/**
 * A self-signed certificate for go-plugin's automatic mutual TLS, built with node:crypto alone.
 * tofu pins the certificate the provider prints in its handshake line and checks the server name
 * `localhost`, so it must be: ECDSA P-256, SAN DNS:localhost, CA:TRUE, and usable for both server
 * and client authentication (go-plugin's own certificates have the same shape).
 */
export interface PluginCertificate {
  /** PEM of the private key (PKCS#8). */
  keyPem: string;
  /** PEM of the certificate. */
  certPem: string;
  /** The certificate's DER bytes: the handshake line carries them as unpadded base64. */
  der: Buffer;
}

// DER building blocks: a tag, a length, the content.
function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), content]);
}
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const octets = (content: Buffer) => tlv(0x04, content);
const bits = (content: Buffer, unused = 0) => tlv(0x03, Buffer.concat([Buffer.from([unused]), content]));
const bool = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0]));
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, "utf8"));

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const bytes = [40 * a + b];
  for (const part of rest) {
    const groups = [part & 0x7f];
    for (let v = part >> 7; v > 0; v >>= 7) groups.unshift((v & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime, the form certificates use for dates before 2050. */
function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, "").slice(2, 14);
  return tlv(0x17, Buffer.from(`${text}Z`, "ascii"));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), bool(true), octets(value)) : seq(oid(id), octets(value));
}

const ECDSA_SHA256 = seq(oid("1.2.840.10045.4.3.2"));

/**
 * Generates a fresh key and certificate (a few milliseconds). Valid from a minute ago (clock skew)
 * for a day: tofu uses it for one provider process.
 */
export function createPluginCertificate(now = new Date()): PluginCertificate {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const spki = createPublicKey(privateKey).export({ type: "spki", format: "der" });
  // A positive serial whose first byte is 0x40-0x7f: a leading 0x00 byte would be invalid DER,
  // which OpenSSL then refuses now and then.
  const serialBytes = randomBytes(16);
  serialBytes[0] = 0x40 | (serialBytes[0] & 0x3f);
  const name = seq(set(seq(oid("2.5.4.10"), utf8("Clusterform"))), set(seq(oid("2.5.4.3"), utf8("localhost"))));
  const extensions = seq(
    extension("2.5.29.19", true, seq(bool(true))),
    // digitalSignature, keyEncipherment, keyCertSign
    extension("2.5.29.15", true, bits(Buffer.from([0xa4]), 2)),
    extension("2.5.29.37", false, seq(oid("1.3.6.1.5.5.7.3.1"), oid("1.3.6.1.5.5.7.3.2"))),
    extension("2.5.29.17", false, seq(tlv(0x82, Buffer.from("localhost", "ascii")))),
  );
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serialBytes),
    ECDSA_SHA256,
    name,
    seq(utcTime(new Date(now.getTime() - 60_000)), utcTime(new Date(now.getTime() + 86_400_000))),
    name,
    spki,
    tlv(0xa3, extensions),
  );
  const signature = sign("sha256", tbs, { key: privateKey, dsaEncoding: "der" });
  const der = seq(tbs, ECDSA_SHA256, bits(signature));
  const keyPem = createPrivateKey(privateKey.export({ type: "pkcs8", format: "pem" })).export({ type: "pkcs8", format: "pem" }).toString();
  const certPem = `-----BEGIN CERTIFICATE-----\n${der.toString("base64").replace(/.{64}/g, "$&\n").replace(/\n?$/, "\n")}-----END CERTIFICATE-----\n`;
  return { keyPem, certPem, der };
}
