import { Code, type ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { parseLabelSelector } from "./label-selector";

const labels = { env: "prod", team: "backend", tier: "web" };

describe("parseLabelSelector", () => {
  it.each([
    ["", true],
    ["env=prod", true],
    ["env==prod", true],
    ["env=dev", false],
    ["env!=dev", true],
    ["env!=prod", false],
    ["env=prod,team=backend", true],
    ["env=prod, team=frontend", false],
    ["tier in (web,api)", true],
    ["tier in (api)", false],
    ["tier notin (api, batch)", true],
    ["tier notin (web)", false],
    ["team", true],
    ["owner", false],
    ["!owner", true],
    ["!team", false],
    ["missing!=x", true],
    ["env in (prod),!legacy,team", true],
  ])("%j on %j -> %s", (selector, expected) => {
    expect(parseLabelSelector(selector)(labels)).toBe(expected);
  });

  it.each(["env=prod=x", "=prod", "env in prod", "a b", "env=pr od"])("rejects %j with INVALID_ARGUMENT naming the requirement", (selector) => {
    let caught: unknown;
    try {
      parseLabelSelector(selector);
    } catch (error) {
      caught = error;
    }
    expect((caught as ConnectError).code).toBe(Code.InvalidArgument);
    expect((caught as ConnectError).rawMessage).toMatch(new RegExp(`^invalid label_selector ${JSON.stringify(selector).replace(/[()[\]]/g, "\\$&")}: requirement `));
  });
});
