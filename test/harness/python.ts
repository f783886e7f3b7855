import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { PULUMI_SDK_VERSION } from "./workspace";

/** The Python the set-up checked (python3 >= 3.10 with venv), and the wheels it downloaded from PyPI. */
export function pythonSetup(): { python: string; wheelhouse: string } {
  const python = process.env.CLUSTERFORM_PYTHON;
  const wheelhouse = process.env.CLUSTERFORM_PYTHON_WHEELHOUSE;
  if (!python || !wheelhouse || !existsSync(wheelhouse)) {
    throw new Error("CLUSTERFORM_PYTHON or CLUSTERFORM_PYTHON_WHEELHOUSE is not set: run the tests through scripts/test.sh or after `. scripts/setup.sh` (its python step)");
  }
  return { python, wheelhouse };
}

/**
 * Makes `<dir>/venv` (the folder a program's `virtualenv: venv` names) holding the Pulumi Python SDK
 * at the CLI's version and `packages` (a wheel, or a folder with a setup.py), installed by pip
 * from the set-up's wheelhouse only: no package index is asked.
 */
export function makeVenv(dir: string, packages: string[]): string {
  const { python, wheelhouse } = pythonSetup();
  const venv = path.join(dir, "venv");
  execFileSync(python, ["-m", "venv", venv], { stdio: ["ignore", "ignore", "inherit"] });
  execFileSync(
    path.join(venv, "bin", "python"),
    ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-index", "--find-links", wheelhouse, `pulumi==${PULUMI_SDK_VERSION}`, ...packages],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  return venv;
}
