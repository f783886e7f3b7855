import { describe, expect, it } from "vitest";
import { parseCliArgs, UsageError } from "../cli-args";
import { startLocalControlPlane } from "../server";
import { makeDataDir } from "../testing";

describe("senlin and keystone flags", () => {
  it("passes the microversion and keystone flags to the modules' options", () => {
    const command = parseCliArgs([
      "--senlin-max-microversion",
      "1.3",
      "--keystone-user",
      "ops",
      "--keystone-token-ttl",
      "120",
      "--keystone-users",
      "alice:pw:demo",
    ]);
    expect(command.kind === "start" && command.options.platformOptions).toMatchObject({
      senlin: { maxMicroversion: "1.3" },
      keystone: { user: "ops", tokenTtlSeconds: 120, extraUsers: [{ name: "alice", password: "pw", project: "demo", admin: false }] },
    });
  });

  it.each([
    [["--senlin-max-microversion", "1.15"], /--senlin-max-microversion: invalid senlin option "maxMicroversion": got "1.15", expected 1.0 to 1.14/],
    [["--senlin-max-microversion", "latest"], /expected 1.0 to 1.14/],
    [["--keystone-token-ttl", "0"], /--keystone-token-ttl: invalid value "0": expected a number of seconds > 0/],
    [["--keystone-users", "alice"], /--keystone-users: invalid user entry/],
  ])("rejects %j naming the flag and what is allowed", (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(UsageError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });

  it("refuses bad options given programmatically before anything starts", async () => {
    await expect(startLocalControlPlane({ dataDir: makeDataDir(), platformOptions: { senlin: { maxMicroversion: "2.0" } } })).rejects.toThrow(
      'invalid senlin option "maxMicroversion"',
    );
    await expect(startLocalControlPlane({ dataDir: makeDataDir(), platformOptions: { keystone: { tokenTtlSeconds: -5 } } })).rejects.toThrow(
      'invalid keystone option "tokenTtlSeconds"',
    );
  });
});
