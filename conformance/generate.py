#!/usr/bin/env python3
"""Write the conformance vectors with pinned pyfory 1.7.7, or check the committed files.

    python conformance/generate.py                  # every group of groups.json, then the Rust mirrors
    python conformance/generate.py GROUP...         # those groups (and their Rust mirrors)
    python conformance/generate.py --check [GROUP...]  # regenerate and compare; exit 1 if stale
    python conformance/generate.py --list           # the groups, one a line

Each group's generator is generators/<group>.py (groups.json lists the groups); its files
are written by one writer (vectorlib.write_group). The output is deterministic: this script
re-runs itself with PYTHONHASHSEED=0 (the iteration order of sets of strings) and TZ=UTC
(pyfory.format reads timestamps as local times).
"""

import argparse
import importlib
import os
import sys

if os.environ.get("PYTHONHASHSEED") != "0" or os.environ.get("TZ") != "UTC":
    os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, PYTHONHASHSEED="0", TZ="UTC"))

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vectorlib as VL  # noqa: E402


def main(argv=None):
    names = [row["name"] for row in VL.groups()]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("groups", nargs="*", metavar="GROUP", help="groups to generate (default: all): " + ", ".join(names))
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if a committed file differs")
    parser.add_argument("--list", action="store_true", help="print the group names and exit")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(names))
        return 0
    unknown = [g for g in args.groups if g not in names]
    if unknown:
        parser.error("unknown group(s) {}; groups.json has {}".format(", ".join(unknown), ", ".join(names)))
    chosen = args.groups or names
    VL.require_pyfory()
    status = 0
    for name in chosen:
        module = importlib.import_module("generators." + name)
        status = max(status, VL.write_group(name, module.documents(), args.check))
    from generators import rust_mirrors

    status = max(status, rust_mirrors.run(args.check, chosen))
    return status


if __name__ == "__main__":
    sys.exit(main())
