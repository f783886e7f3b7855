import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

/** A throwaway release signing key: made for one test run, never written to the repository. */
export interface ThrowawayKey {
  /** The GnuPG home holding it (and so able to verify its signatures). */
  home: string;
  /** The ASCII-armored secret key, as the release reads it from CLUSTERFORM_GPG_PRIVATE_KEY. */
  secretKey: string;
}

/** Makes an RSA key without a passphrase in a fresh GnuPG home (a second or so). */
export function throwawaySigningKey(): ThrowawayKey {
  const home = mkdtempSync(path.join(tmpdir(), "cf-gpg-test-"));
  const gpg = (args: string[]) => execFileSync("gpg", ["--batch", "--quiet", "--homedir", home, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  gpg(["--passphrase", "", "--quick-gen-key", "Clusterform release test <release-test@clusterform.invalid>", "rsa2048", "sign", "1d"]);
  return { home, secretKey: gpg(["--armor", "--export-secret-keys"]) };
}
