#!/usr/bin/env bash
# make deps: install everything solonic needs on Debian bookworm, by package name,
# and fetch lwIP's source with `apt-get source`. Safe and quick to run again.
#
# The lwIP source comes from the machine's own Debian archive: the deb-src list is
# derived at run time from the machine's apt configuration and written under deps/,
# never to /etc, and no archive host name is written into this repository.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

PACKAGES=(
  make g++ git ca-certificates dpkg-dev
  verilator zlib1g-dev
  gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf picolibc-riscv64-unknown-elf
  qemu-system-misc qemu-system-x86
  yosys
  python3 python3-pytest python3-scapy
  tshark
)

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  $SUDO apt-get update -q
  # tshark asks whether non-root users may capture; answer no without a prompt
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "deps: Debian packages already installed"
fi

# ---- lwIP source (Debian source package 'lwip', upstream 2.1.3) ----
LWIP_DIR=$ROOT/deps/lwip
if [ -f "$LWIP_DIR/src/core/tcp.c" ]; then
  echo "deps: lwIP source present in deps/lwip"
  exit 0
fi

APT_DIR=$ROOT/deps/apt
rm -rf "$APT_DIR"
mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial" "$APT_DIR/src"
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")

# Read the machine's Debian archive entries (one-line and deb822 formats) and turn
# the ones for this release's main suite into deb-src lines.
"${PY:-/usr/bin/python3}" - "$codename" > "$APT_DIR/sources.list" <<'PYEOF'
import glob, re, sys
codename = sys.argv[1]
out = set()
def emit(uri, suites, comps, signed):
    if codename in suites and "main" in comps:
        opt = f" [signed-by={signed}]" if signed else ""
        out.add(f"deb-src{opt} {uri} {codename} main")
for f in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        lines = open(f).read().splitlines()
    except OSError:
        continue
    for ln in lines:
        ln = ln.split("#", 1)[0].strip()
        m = re.match(r"^(deb|deb-src)\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s+(.*)$", ln)
        if not m:
            continue
        opts = m.group(2) or ""
        sb = re.search(r"signed-by=([^\s\]]+)", opts)
        emit(m.group(3), [m.group(4)], m.group(5).split(), sb.group(1) if sb else None)
for f in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
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
        if "deb" not in fields.get("types", "").split():
            continue
        for uri in fields.get("uris", "").split():
            emit(uri, fields.get("suites", "").split(), fields.get("components", "").split(),
                 fields.get("signed-by"))
if not out:
    sys.exit("deps: found no Debian archive for '%s' main in the apt configuration" % codename)
print("\n".join(sorted(out)))
PYEOF

APT_OPTS=(-o "Dir::Etc::SourceList=$APT_DIR/sources.list" -o "Dir::Etc::SourceParts=-"
          -o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::Cache=$APT_DIR/cache"
          -o "Debug::NoLocking=1")
[ "$(id -u)" = 0 ] && APT_OPTS+=(-o "APT::Sandbox::User=root")
echo "deps: fetching lwIP source with apt-get source (temporary list in deps/apt)"
apt-get "${APT_OPTS[@]}" update -q
(cd "$APT_DIR/src" && apt-get "${APT_OPTS[@]}" source -q lwip)
src=$(find "$APT_DIR/src" -maxdepth 1 -mindepth 1 -type d -name 'lwip-*' | head -n 1)
if [ -z "$src" ] || [ ! -f "$src/src/core/tcp.c" ]; then
  echo "deps: apt-get source lwip did not give an lwIP source tree" >&2
  exit 1
fi
rm -rf "$LWIP_DIR"
mv "$src" "$LWIP_DIR"
ls "$APT_DIR/src" > "$LWIP_DIR/.debian-source-files"
rm -rf "$APT_DIR"
echo "deps: lwIP source in deps/lwip (Debian source $(sed -n 's/\.dsc$//p' "$LWIP_DIR/.debian-source-files"))"
