#!/usr/bin/env python3
"""Build the interop guest: a Debian kernel and a small initramfs with rdma_rxe.

Everything comes from Debian packages by name (interop/guest/packages.list),
downloaded with their dependencies from the machine's own Debian archive: the
apt source list is derived at run time from the machine's apt configuration
and written under build/interop/apt, never into the repository or /etc.

Steps: download the package closure (apt-get --download-only against an empty
dpkg status, so every dependency is fetched), unpack every .deb with
dpkg-deb -x into build/interop/root, then copy into build/interop/initrd only
what the guest uses: the kernel modules named in MODULES (with their
dependencies), the programs named in PROGRAMS (with the shared libraries they
load), the rxe verbs provider, and interop/guest/init as /init. The result is
build/interop/vmlinuz and build/interop/initrd.img (cpio, gzip) plus
build/interop/image.json (kernel and package versions).

Cached: build/interop/image.stamp holds a hash of the inputs (the package
list, the init script, this builder); a matching stamp means nothing to do.
"""
import argparse
import fcntl
import glob
import gzip
import hashlib
import json
import os
import pathlib
import re
import shutil
import stat
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
HERE = REPO / "interop"
PKG_LIST = HERE / "guest" / "packages.list"
INIT = HERE / "guest" / "init"
APT_SOURCES = REPO / "scripts" / "apt_sources.py"
INPUTS = [PKG_LIST, INIT, pathlib.Path(__file__).resolve(), APT_SOURCES]

sys.path.insert(0, str(APT_SOURCES.parent))
import apt_sources  # noqa: E402  (scripts/apt_sources.py: the machine's apt archives)

# Kernel modules the guest loads (dependencies are added from the modules'
# own .modinfo). A name built into the kernel is fine; an unknown name fails.
MODULES = [
    "virtio_pci", "virtio_net", "virtio_blk",   # the NIC and the capture disk
    "af_packet",                                 # tcpdump
    "rdma_rxe", "ib_uverbs", "rdma_ucm",         # soft-RoCE and the verbs device
    "crc32_generic",                             # rxe's ICRC (crypto "crc32")
]

# Programs copied into the guest (looked up in the unpacked packages'
# bin/sbin directories), with every shared library they need.
PROGRAMS = [
    "busybox", "kmod", "ip", "tc", "rdma", "tcpdump",
    "ibv_devices", "ibv_devinfo", "ibv_rc_pingpong", "ibv_ud_pingpong",
    "ibv_srq_pingpong", "ibv_uc_pingpong",
    "ib_write_bw", "ib_read_bw", "ib_send_bw", "ib_atomic_bw",
    "ib_write_lat", "ib_read_lat", "ib_send_lat", "ib_atomic_lat",
    "rping", "rdma_server", "rdma_client", "ucmatose", "udaddy",   # rdmacm-utils: RDMA CM
]
KMOD_LINKS = {"modprobe": "sbin", "insmod": "sbin", "rmmod": "sbin", "lsmod": "bin",
              "depmod": "sbin", "modinfo": "sbin"}
# The verbs provider for rxe is loaded with dlopen by libibverbs.
PROVIDERS = ["rxe"]
# Libraries loaded with dlopen by the programs: glibc's pthread_exit (rping's threads)
# loads libgcc_s for unwinding and aborts without it.
DLOPENED = ["libgcc_s.so.1"]

LIBDIRS = ["lib/x86_64-linux-gnu", "usr/lib/x86_64-linux-gnu", "lib64", "usr/lib64", "lib",
           "usr/lib"]
BINDIRS = ["usr/sbin", "usr/bin", "sbin", "bin"]


def log(msg):
    print(f"interop-image: {msg}", flush=True)


def inputs_hash():
    h = hashlib.sha256()
    for f in INPUTS:
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


# ---------------------------------------------------------------- apt sources

def derive_sources(cn):
    """deb lines for this release's main, -updates and -security suites, read from
    the machine's apt configuration (scripts/apt_sources.py)."""
    try:
        return apt_sources.derive(cn, "deb", all_suites=True)
    except LookupError as e:
        sys.exit(f"interop-image: {e}")


def download(out, packages):
    """Download the packages and their whole dependency closure; returns the .deb paths."""
    apt = out / "apt"
    for d in ("lists/partial", "cache/archives/partial", "empty.d"):
        (apt / d).mkdir(parents=True, exist_ok=True)
    (apt / "sources.list").write_text("\n".join(derive_sources(apt_sources.codename())) + "\n")
    (apt / "status").write_text("")   # nothing installed: apt fetches every dependency
    opts = ["-o", f"Dir::Etc::SourceList={apt}/sources.list",
            "-o", f"Dir::Etc::SourceParts={apt}/empty.d",
            "-o", "Dir::Etc::Preferences=/dev/null",
            "-o", f"Dir::Etc::PreferencesParts={apt}/empty.d",
            "-o", f"Dir::State::Lists={apt}/lists", "-o", f"Dir::State::status={apt}/status",
            "-o", f"Dir::Cache={apt}/cache", "-o", "Dir::Cache::pkgcache=",
            "-o", "Dir::Cache::srcpkgcache=", "-o", "Debug::NoLocking=1",
            "-o", "APT::Architecture=amd64", "-o", "APT::Architectures::=amd64",
            "-o", "APT::Install-Recommends=0", "-o", "APT::Install-Suggests=0",
            "-o", "APT::Get::AllowUnauthenticated=0"]
    if os.geteuid() == 0:
        opts += ["-o", "APT::Sandbox::User=root"]
    log("apt-get update (private lists in build/interop/apt)")
    subprocess.run(["apt-get"] + opts + ["-q", "update"], check=True, stdout=subprocess.DEVNULL)
    log("downloading " + " ".join(packages) + " and their dependencies")
    p = subprocess.run(["apt-get"] + opts + ["-q", "-y", "--simulate", "install"] + packages,
                       check=True, stdout=subprocess.PIPE, text=True)
    chosen = re.findall(r"^Inst (\S+) \((\S+) .*\[(\S+)\]\)", p.stdout, re.M)
    if not chosen:
        sys.exit("interop-image: apt chose no packages:\n" + p.stdout[-2000:])
    subprocess.run(["apt-get"] + opts + ["-q", "-y", "--download-only", "install"] + packages,
                   check=True, stdout=subprocess.DEVNULL)
    # drop cached .debs the archive no longer has (older versions)
    subprocess.run(["apt-get"] + opts + ["-q", "autoclean"], check=True, stdout=subprocess.DEVNULL)
    arch_dir = apt / "cache" / "archives"
    debs = [arch_dir / f"{n}_{v.replace(':', '%3a')}_{a}.deb" for n, v, a in chosen]
    missing = [d for d in debs if not d.exists()]
    if missing:
        sys.exit("interop-image: apt did not download " + " ".join(map(str, missing)))
    return debs


# ---------------------------------------------------------------- ELF helpers

def elf_needed(path):
    """DT_NEEDED and RUNPATH entries of an ELF file (readelf -d)."""
    p = subprocess.run(["readelf", "-d", str(path)], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", p.stdout)
    rpath = re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[([^\]]+)\]", p.stdout)
    return needed, [d for r in rpath for d in r.split(":")]


def elf_interp(path):
    p = subprocess.run(["readelf", "-l", str(path)], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    m = re.search(r"Requesting program interpreter: ([^\]]+)\]", p.stdout)
    return m.group(1) if m else None


def modinfo(ko):
    """The .modinfo section of a kernel module as a list of (key, value)."""
    p = subprocess.run(["readelf", "-p", ".modinfo", str(ko)], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    out = []
    for ln in p.stdout.splitlines():
        m = re.match(r"^\s*\[\s*[0-9a-f]+\]\s+(\S+?)=(.*)$", ln)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


# ---------------------------------------------------------------- assembly

class Initrd:
    def __init__(self, root, dest):
        self.root, self.dest = root, dest
        self.done = set()

    def resolve(self, rel):
        """Follow symlinks inside the unpacked root; returns the real path there."""
        p = self.root / rel.lstrip("/")
        for _ in range(40):
            if p.is_symlink():
                t = os.readlink(p)
                p = (p.parent / t) if not t.startswith("/") else self.root / t.lstrip("/")
                p = pathlib.Path(os.path.normpath(p))
            else:
                break
        return p

    def put(self, src, rel, mode=None):
        """Copy a real file from the unpacked root to a path in the initrd (merged /usr)."""
        rel = merged(rel)
        if rel in self.done:
            return
        self.done.add(rel)
        d = self.dest / rel
        d.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, d)
        os.chmod(d, mode if mode is not None else (src.stat().st_mode & 0o777))

    def find_lib(self, name, rpaths):
        for d in rpaths + LIBDIRS:
            p = self.root / d.lstrip("/") / name
            if p.exists() or p.is_symlink():
                return d.strip("/") + "/" + name
        sys.exit(f"interop-image: shared library {name} not found in the unpacked packages")

    def add_elf(self, rel, dest_rel=None):
        """Copy an ELF program or library and, recursively, what it needs."""
        src = self.resolve(rel)
        if not src.exists():
            sys.exit(f"interop-image: {rel} not found in the unpacked packages")
        key = merged(dest_rel or rel)
        if key in self.done:
            return
        self.put(src, dest_rel or rel)
        interp = elf_interp(src)
        if interp:
            self.add_elf(interp)
        needed, rpaths = elf_needed(src)
        for n in needed:
            self.add_elf(self.find_lib(n, rpaths))


def merged(rel):
    """Map a path to its place in a merged-/usr tree (/bin -> /usr/bin, ...)."""
    rel = rel.lstrip("/")
    for top in ("bin", "sbin", "lib", "lib64"):
        if rel == top or rel.startswith(top + "/"):
            return "usr/" + rel
    return rel


def find_program(root, name):
    for d in BINDIRS:
        if (root / d / name).exists():
            return d + "/" + name
    sys.exit(f"interop-image: program {name} not found in the unpacked packages")


def add_modules(root, dest, kver):
    mdir = root / "lib" / "modules" / kver
    builtin = set()
    for ln in (mdir / "modules.builtin").read_text().splitlines():
        builtin.add(os.path.basename(ln).split(".ko")[0].replace("-", "_"))
    by_name = {}
    for ko in mdir.rglob("*.ko*"):
        by_name[ko.name.split(".ko")[0].replace("-", "_")] = ko
    want, seen = list(MODULES), set()
    while want:
        n = want.pop().replace("-", "_")
        if n in seen:
            continue
        seen.add(n)
        if n in builtin:
            continue
        if n not in by_name:
            sys.exit(f"interop-image: kernel module {n} is neither built in nor a module of {kver}")
        ko = by_name[n]
        rel = ko.relative_to(root)
        d = dest / merged(str(rel))
        d.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ko, d)
        for k, v in modinfo(ko):
            if k == "depends" and v:
                want += v.split(",")
            elif k == "softdep":
                want += [w for w in v.split() if not w.endswith(":")]
    mods = sorted(m for m in seen if m not in builtin)
    for f in ("modules.builtin", "modules.builtin.modinfo", "modules.order"):
        if (mdir / f).exists():
            shutil.copyfile(mdir / f, dest / "usr/lib/modules" / kver / f)
    return mods


def depmod(dest, kver):
    """Run the guest's own depmod (from the unpacked kmod) on the initrd's module tree."""
    ld = dest / "usr/lib64/ld-linux-x86-64.so.2"
    libs = str(dest / "usr/lib/x86_64-linux-gnu")
    subprocess.run([str(ld), "--library-path", libs, "--argv0", "depmod",
                    str(dest / "usr/bin/kmod"), "-b", str(dest), kver], check=True)


def write_cpio_gz(tree, out):
    """newc cpio of tree (sorted, owner root, fixed mtime), gzip level 6."""
    entries = []
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames.sort()
        for n in sorted(dirnames) + sorted(filenames):
            p = pathlib.Path(dirpath) / n
            entries.append(p)
    entries.sort(key=lambda p: str(p.relative_to(tree)))
    ino = 1000
    tmp = out.with_suffix(".tmp")
    with gzip.GzipFile(tmp, "wb", compresslevel=6, mtime=0) as f:
        def rec(name, mode, data, nlink=1):
            nonlocal ino
            ino += 1
            nb = name.encode() + b"\0"
            hdr = "070701" + "".join("%08X" % v for v in (
                ino, mode, 0, 0, nlink, 0, len(data), 0, 0, 0, 0, len(nb), 0))
            f.write(hdr.encode() + nb)
            f.write(b"\0" * ((4 - (110 + len(nb)) % 4) % 4))
            f.write(data)
            f.write(b"\0" * ((4 - len(data) % 4) % 4))
        for p in entries:
            rel = str(p.relative_to(tree))
            st = p.lstat()
            if stat.S_ISLNK(st.st_mode):
                rec(rel, stat.S_IFLNK | 0o777, os.readlink(p).encode())
            elif stat.S_ISDIR(st.st_mode):
                rec(rel, stat.S_IFDIR | 0o755, b"", 2)
            else:
                rec(rel, stat.S_IFREG | (st.st_mode & 0o777), p.read_bytes())
        rec("TRAILER!!!", 0, b"")
    tmp.replace(out)


def build(out, keep_root=False):
    packages = [ln.split("#", 1)[0].strip() for ln in PKG_LIST.read_text().splitlines()]
    packages = [p for p in packages if p]
    debs = download(out, packages)

    root = out / "root"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    log(f"unpacking {len(debs)} packages into build/interop/root")
    versions = {}
    for deb in debs:
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
        f = subprocess.run(["dpkg-deb", "-f", str(deb), "Package", "Version"], check=True,
                           stdout=subprocess.PIPE, text=True).stdout.splitlines()
        versions[f[0].split(": ", 1)[1]] = f[1].split(": ", 1)[1]

    kernels = sorted(glob.glob(str(root / "boot" / "vmlinuz-*")))
    if len(kernels) != 1:
        sys.exit(f"interop-image: expected one kernel in the packages, found {kernels}")
    kver = os.path.basename(kernels[0])[len("vmlinuz-"):]

    dest = out / "initrd"
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir()
    for d in ("usr/bin", "usr/sbin", "usr/lib/x86_64-linux-gnu", "usr/lib64", "etc", "proc",
              "sys", "dev", "tmp", "run", "root", "var/tmp"):
        (dest / d).mkdir(parents=True, exist_ok=True)
    for top in ("bin", "sbin", "lib", "lib64"):
        os.symlink("usr/" + top, dest / top)

    ird = Initrd(root, dest)
    for prog in PROGRAMS:
        ird.add_elf(find_program(root, prog))
    for name, d in KMOD_LINKS.items():
        os.symlink("../bin/kmod", dest / "usr" / d / name)
    # busybox applets for everything the init script and a debugging shell use
    bb = subprocess.run([str(dest / "usr/lib64/ld-linux-x86-64.so.2"), "--library-path",
                         str(dest / "usr/lib/x86_64-linux-gnu"), str(dest / "usr/bin/busybox"),
                         "--list-full"], check=True, stdout=subprocess.PIPE, text=True).stdout
    for applet in bb.split():
        link = dest / merged(applet)
        if not os.path.lexists(link):
            link.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.path.relpath(dest / "usr/bin/busybox", link.parent), link)
    for prov in PROVIDERS:
        libs = glob.glob(str(root / "usr/lib/x86_64-linux-gnu/libibverbs" / f"lib{prov}-rdmav*.so"))
        if len(libs) != 1:
            sys.exit(f"interop-image: verbs provider {prov} not found")
        ird.add_elf(os.path.relpath(libs[0], root))
        (dest / "etc/libibverbs.d").mkdir(exist_ok=True)
        shutil.copyfile(root / f"etc/libibverbs.d/{prov}.driver",
                        dest / f"etc/libibverbs.d/{prov}.driver")
    for lib in DLOPENED:
        ird.add_elf(ird.find_lib(lib, []))
    mods = add_modules(root, dest, kver)
    depmod(dest, kver)

    (dest / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/sh\n")
    (dest / "etc/group").write_text("root:x:0:\n")
    (dest / "etc/hosts").write_text("127.0.0.1 localhost\n")
    (dest / "etc/nsswitch.conf").write_text("passwd: files\ngroup: files\nhosts: files\n")
    shutil.copyfile(INIT, dest / "init")
    os.chmod(dest / "init", 0o755)

    write_cpio_gz(dest, out / "initrd.img")
    shutil.copyfile(kernels[0], out / "vmlinuz")
    info = {"kernel": kver, "modules": mods, "programs": PROGRAMS,
            "packages": dict(sorted(versions.items())),
            "initrd_bytes": (out / "initrd.img").stat().st_size}
    (out / "image.json").write_text(json.dumps(info, indent=1) + "\n")
    if not keep_root:
        shutil.rmtree(root)         # 500+ MB, rebuilt from the cached .debs when needed
    return info


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(REPO / "build" / "interop"))
    ap.add_argument("--force", action="store_true", help="rebuild even if the stamp matches")
    ap.add_argument("--keep-root", action="store_true",
                    help="keep build/interop/root (every package unpacked) for inspection")
    a = ap.parse_args()
    out = pathlib.Path(a.out).resolve()     # apt takes relative paths from /
    out.mkdir(parents=True, exist_ok=True)
    lock = open(out / "build.lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)   # two builds at once: the second waits, then finds it done
    stamp = out / "image.stamp"
    h = inputs_hash()
    have = all((out / f).exists() for f in ("vmlinuz", "initrd.img", "image.json"))
    if not a.force and have and stamp.exists() and stamp.read_text().strip() == h:
        log("up to date (inputs unchanged)")
        for f in ("vmlinuz", "initrd.img", "image.json", "image.stamp"):
            os.utime(out / f)
        return
    t0 = time.monotonic()
    if stamp.exists():
        stamp.unlink()
    info = build(out, a.keep_root)
    stamp.write_text(h + "\n")
    log(f"kernel {info['kernel']}, {len(info['modules'])} modules, initrd "
        f"{info['initrd_bytes'] / 1e6:.1f} MB, built in {time.monotonic() - t0:.0f} s")


if __name__ == "__main__":
    main()
