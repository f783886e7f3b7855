import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createPluginCertificate } from "./certificate";

describe("createPluginCertificate", () => {
  it("is a self-signed CA certificate for localhost that OpenSSL parses and verifies", () => {
    // Many: a certificate with a bad serial byte is refused only now and then.
    for (let i = 0; i < 200; i++) {
      const cert = createPluginCertificate();
      const x509 = new X509Certificate(cert.certPem);
      expect(x509.raw.equals(cert.der)).toBe(true);
      expect(x509.ca).toBe(true);
      expect(x509.checkHost("localhost")).toBe("localhost");
      expect(x509.verify(x509.publicKey)).toBe(true);
      expect(x509.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"]);
      expect(x509.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    }
  });
});
