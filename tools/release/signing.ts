import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

/** The signing key the release reads from its environment, never from a file in the repository. */
export const KEY_ENV = "CLUSTERFORM_GPG_PRIVATE_KEY";
/** Its passphrase, when the key has one. */
export const PASSPHRASE_ENV = "CLUSTERFORM_GPG_PASSPHRASE";

/** What the registries and `tofu init` need to check a signature: the key's id and public half. */
export interface SigningKey {
  /** The long key id (16 hex digits), as registries list it. */
  keyId: string;
  fingerprint: string;
  /** The public key, ASCII-armored. */
  publicKey: string;
  /** When the key was made (seconds since 1970): no signature may be older. */
  createdAt: number;
}

/**
 * A GnuPG keyring in a temporary folder holding only the release key, taken from the environment
 * (an ASCII-armored secret key). The key never touches the repository or the logs; `close()`
 * removes the folder.
 */
export class ReleaseSigner {
  private readonly home: string;
  private readonly passphrase: string;
  readonly key: SigningKey;

  constructor(env: Readonly<Record<string, string | undefined>> = process.env) {
    const secret = env[KEY_ENV];
    if (!secret?.includes("BEGIN PGP PRIVATE KEY BLOCK")) {
      throw new Error(
        `${KEY_ENV} must hold the release's ASCII-armored GnuPG secret key (gpg --armor --export-secret-keys <id>); it is ${secret ? "not an armored secret key" : "not set"}. See docs/releasing.md.`,
      );
    }
    this.home = mkdtempSync(path.join(tmpdir(), "clusterform-gpg-"));
    this.passphrase = env[PASSPHRASE_ENV] ?? "";
    try {
      this.gpg(["--import"], secret);
      this.key = this.readKey();
    } catch (err) {
      this.close();
      throw err;
    }
  }

  /**
   * Writes `<file>.sig`, a binary detached signature, dated `time` (or the key's creation, if
   * later): the same key and time give the same bytes, so two builds of a commit agree.
   */
  sign(file: string, time: number): string {
    const out = `${file}.sig`;
    rmSync(out, { force: true });
    const when = Math.max(time, this.key.createdAt);
    this.gpg(
      [
        "--pinentry-mode", "loopback", "--passphrase-fd", "0",
        "--faked-system-time", `${when}!`,
        "--local-user", this.key.fingerprint,
        "--digest-algo", "SHA256",
        "--output", out, "--detach-sign", file,
      ],
      this.passphrase,
    );
    return out;
  }

  close(): void {
    rmSync(this.home, { recursive: true, force: true });
  }

  private readKey(): SigningKey {
    const listing = this.gpg(["--list-secret-keys", "--with-colons", "--fixed-list-mode"]);
    const lines = listing.split("\n").map((l) => l.split(":"));
    const sec = lines.filter((f) => f[0] === "sec");
    if (sec.length !== 1) throw new Error(`${KEY_ENV} must hold exactly one secret key; it holds ${sec.length}`);
    const fingerprint = lines.find((f) => f[0] === "fpr")?.[9];
    if (!fingerprint) throw new Error(`could not read the fingerprint of the key in ${KEY_ENV}`);
    const publicKey = this.gpg(["--armor", "--export", fingerprint]);
    return { keyId: sec[0][4], fingerprint, publicKey, createdAt: Number(sec[0][5]) };
  }

  private gpg(args: string[], input?: string): string {
    return execFileSync("gpg", ["--batch", "--quiet", "--no-tty", "--homedir", this.home, ...args], {
      input: input ?? "",
      encoding: "utf8",
      stdio: ["pipe", "pipe", "pipe"],
    });
  }
}
