"""Runs `openstack` commands in one Python process, the unmodified client's own entry point.

Reads a JSON list of commands ({"argv": [...], "env": {...}, "unset": [...]}) from stdin and prints,
as JSON, one {"rc", "stdout", "stderr"} per command: `env` is set and the variables named in `unset`
are removed for that command only. One process for all commands: each start of the
`openstack` program costs one to two seconds of imports.
"""
import contextlib
import io
import json
import os
import sys

from openstackclient import shell


def run(command):
    saved = dict(os.environ)
    os.environ.update(command.get("env", {}))
    for name in command.get("unset", []):
        os.environ.pop(name, None)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = shell.main(command["argv"])
            except SystemExit as exit_:
                rc = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return {"rc": rc, "stdout": out.getvalue(), "stderr": err.getvalue()}


def main():
    commands = json.load(sys.stdin)
    json.dump([run(c) for c in commands], sys.stdout)


if __name__ == "__main__":
    main()
