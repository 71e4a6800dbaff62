#!/usr/bin/env python3
"""Derive apt source lines for this Debian release from the machine's own apt
configuration (one-line .list and deb822 .sources files), so nothing in the
repository names a package archive. Used by scripts/deps.sh (deb-src lines for
`apt-get source lwip`) and interop/build_image.py (deb lines for the guest).

    apt_sources.py [--kind deb|deb-src] [--suites main|all] [CODENAME]

--suites main: only CODENAME; all: CODENAME, CODENAME-updates, CODENAME-security.
Prints one line per archive and suite (component main). Exits non-zero with a
message when the configuration has no archive for CODENAME main.
"""
import argparse
import glob
import re
import sys

LIST_FILES = ["/etc/apt/sources.list"]
LIST_GLOB = "/etc/apt/sources.list.d/*.list"
DEB822_GLOB = "/etc/apt/sources.list.d/*.sources"


def codename():
    """This machine's release code name (bookworm when /etc/os-release does not say)."""
    try:
        for ln in open("/etc/os-release"):
            if ln.startswith("VERSION_CODENAME="):
                return ln.split("=", 1)[1].strip().strip('"') or "bookworm"
    except OSError:
        pass
    return "bookworm"


def _entries():
    """(uri, suites, components, signed_by) of every enabled archive entry."""
    for f in LIST_FILES + sorted(glob.glob(LIST_GLOB)):
        try:
            lines = open(f).read().splitlines()
        except OSError:
            continue
        for ln in lines:
            ln = ln.split("#", 1)[0].strip()
            m = re.match(r"^(deb|deb-src)\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s+(.*)$", ln)
            if not m:
                continue
            sb = re.search(r"signed-by=([^\s\]]+)", m.group(2) or "")
            yield m.group(3), [m.group(4)], m.group(5).split(), sb.group(1) if sb else None
    for f in sorted(glob.glob(DEB822_GLOB)):
        try:
            text = open(f).read()
        except OSError:
            continue
        for stanza in re.split(r"\n\s*\n", text):
            fields = {}
            for ln in stanza.splitlines():
                if ln.startswith("#") or ":" not in ln:
                    continue
                k, v = ln.split(":", 1)
                fields[k.strip().lower()] = v.strip()
            if fields.get("enabled", "yes").lower() == "no":
                continue
            if not {"deb", "deb-src"} & set(fields.get("types", "").split()):
                continue
            for uri in fields.get("uris", "").split():
                yield (uri, fields.get("suites", "").split(), fields.get("components", "").split(),
                       fields.get("signed-by"))


def derive(cn, kind="deb", all_suites=False):
    """Source lines of `kind` for release `cn` (and its -updates/-security suites when
    all_suites), component main, in a stable order. Raises LookupError when the apt
    configuration has no archive for `cn` main."""
    wanted = [cn] + ([cn + "-updates", cn + "-security"] if all_suites else [])
    out = []
    for uri, suites, comps, signed in _entries():
        if "main" not in comps:
            continue
        for s in suites:
            if s in wanted:
                opt = f" [signed-by={signed}]" if signed else ""
                line = f"{kind}{opt} {uri} {s} main"
                if line not in out:
                    out.append(line)
    if not any(f" {cn} main" in ln for ln in out):
        raise LookupError(f"found no Debian archive for '{cn}' main in the apt configuration")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", choices=["deb", "deb-src"], default="deb")
    ap.add_argument("--suites", choices=["main", "all"], default="main")
    ap.add_argument("codename", nargs="?", default=None)
    a = ap.parse_args()
    try:
        lines = derive(a.codename or codename(), a.kind, a.suites == "all")
    except LookupError as e:
        sys.exit(f"apt_sources: {e}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
