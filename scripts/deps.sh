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
  verilator zlib1g-dev clang-14
  gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf picolibc-riscv64-unknown-elf
  qemu-system-misc qemu-system-x86
  yosys
  python3 python3-pytest python3-scapy python3-matplotlib
  tshark
  tcl
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

# deb-src lines for this release's main suite, read from the machine's apt
# configuration (scripts/apt_sources.py): nothing here names an archive.
"${PY:-/usr/bin/python3}" "$ROOT/scripts/apt_sources.py" --kind deb-src "$codename" > "$APT_DIR/sources.list"

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
