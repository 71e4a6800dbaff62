#!/usr/bin/env python3
"""Generate register blocks from the register description (regs/*.toml).

Each TOML file describes one register block. From them this tool writes:
  - one SystemVerilog module `<block>_regs` per block (an sbus target),
  - one C header with every block's addresses and fields,
  - docs/registers.md.

Description format (see regs/README.md for the full list of keys):

    [block]
    name = "uart"            # module uart_regs, C prefix UART_
    base = 0x20001000
    id = "UART"              # four ASCII characters, read at offset 0
    version = 1              # read at offset 4
    desc = "..."

    [[reg]]
    name = "data"
    offset = 0x08            # optional: next free word otherwise
    access = "rw"            # rw | ro | wo | w1c | const
    width = 8                # bits used, from bit 0 (default 32)
    reset = 0                # rw / w1c reset value; const value
    we_pulse = false         # rw: also a one-cycle strobe when written
    re_pulse = false         # ro: a one-cycle strobe when read (FIFO pop); it comes the cycle
                             # after the read sampled NAME_i, so the side effect must act on
                             # what was sampled then (a FIFO pops only if that read saw data)
    desc = "..."
    fields = [ { name = "tx_full", lsb = 0, width = 1, desc = "..." } ]

Ports of the generated module, per register NAME:
    rw    : output NAME_q [width]      (and NAME_we if we_pulse)
    ro    : input  NAME_i [width]      (and output NAME_re if re_pulse)
    wo    : output NAME_wdata [width], output NAME_we
    w1c   : input  NAME_set [width] (bits to set), output NAME_q [width]
    const : none
Offsets 0 and 4 are the block's ID and VERSION words (const).
"""
import argparse
import pathlib
import sys
import tomllib

ACCESS = ("rw", "ro", "wo", "w1c", "const")


class DescError(Exception):
    pass


def load_block(path):
    with open(path, "rb") as f:
        d = tomllib.load(f)
    b = d.get("block")
    if not b or "name" not in b or "base" not in b:
        raise DescError(f"{path}: needs a [block] table with name and base")
    ident = b.get("id", (b["name"].upper() + "    ")[:4])
    if len(ident) != 4 or not ident.isascii():
        raise DescError(f"{path}: block id must be four ASCII characters")
    regs = [
        {"name": "id", "offset": 0, "access": "const", "width": 32,
         "reset": int.from_bytes(ident.encode(), "big"),
         "desc": f"block identifier, ASCII '{ident}'", "fields": [], "we_pulse": False, "re_pulse": False},
        {"name": "version", "offset": 4, "access": "const", "width": 32,
         "reset": int(b.get("version", 1)), "desc": "block version", "fields": [],
         "we_pulse": False, "re_pulse": False},
    ]
    nxt = 8
    seen = {"id", "version"}
    for r in d.get("reg", []):
        r = dict(r)
        name = r.get("name")
        if not name or not name.isidentifier() or name != name.lower():
            raise DescError(f"{path}: register name {name!r} must be a lower-case identifier")
        if name in seen:
            raise DescError(f"{path}: register {name} defined twice")
        seen.add(name)
        r.setdefault("access", "rw")
        if r["access"] not in ACCESS:
            raise DescError(f"{path}: {name}: access must be one of {ACCESS}")
        r.setdefault("width", 32)
        if not 1 <= r["width"] <= 32:
            raise DescError(f"{path}: {name}: width must be 1..32")
        r.setdefault("reset", 0)
        r.setdefault("desc", "")
        r.setdefault("fields", [])
        r.setdefault("we_pulse", False)
        r.setdefault("re_pulse", False)
        off = r.get("offset", nxt)
        if off % 4:
            raise DescError(f"{path}: {name}: offset must be word aligned")
        if any(x["offset"] == off for x in regs):
            raise DescError(f"{path}: {name}: offset 0x{off:x} used twice")
        r["offset"] = off
        for fld in r["fields"]:
            if fld["lsb"] + fld.get("width", 1) > r["width"]:
                raise DescError(f"{path}: {name}.{fld['name']} lies outside the register")
        regs.append(r)
        nxt = max(nxt, off + 4)
    size = int(b.get("size", 0x1000))
    if nxt > size:
        raise DescError(f"{path}: registers exceed the block size 0x{size:x}")
    return {"name": b["name"], "base": int(b["base"]), "size": size, "id": ident,
            "desc": b.get("desc", ""), "regs": sorted(regs, key=lambda x: x["offset"]),
            "src": pathlib.Path(path).name}


def sv_module(blk):
    n = blk["name"]
    aw = max(2, (blk["size"] - 1).bit_length())
    ports, decl, ff_reset, ff_next, comb, rd = [], [], [], [], [], []

    def pulse(name, expr, w=1):
        """decoded from the request and registered: it acts a cycle after the request"""
        decl.append(f"  logic {f'[{w - 1}:0] ' if w > 1 else ''}{name}_d;")
        comb.append(f"    {name}_d = {expr};")
        ff_reset.append(f"      {name} <= '0;")
        ff_next.append(f"      {name} <= {name}_d;")
    for r in blk["regs"]:
        rn, w, a = r["name"], r["width"], r["access"]
        rng = f"[{w - 1}:0] " if w > 1 else ""
        sel = f"wr_{rn}"
        if a in ("rw", "w1c", "wo"):   # the write's decode, registered: the write lands a cycle later
            decl.append(f"  logic {sel};")
            pulse(sel, f"wr && (word == {aw - 2}'d{r['offset'] // 4})")
        if a == "rw":
            ports.append(f"  output logic {rng}{rn}_q")
            decl.append(f"  logic {rng}{rn}_d;")
            ff_reset.append(f"      {rn}_q <= {w}'h{r['reset']:x};")
            ff_next.append(f"      {rn}_q <= {rn}_d;")
            m, d = (f"wmask_q[{w - 1}:0]", f"wdata_q[{w - 1}:0]") if w < 32 else ("wmask_q", "wdata_q")
            comb.append(f"    {rn}_d = {sel} ? ({rn}_q & ~{m}) | ({d} & {m}) : {rn}_q;")
            if r["we_pulse"]:
                ports.append(f"  output logic {rn}_we")
                comb.append(f"    {rn}_we = {sel};")
            rd.append((r, f"{rn}_q"))
        elif a == "w1c":
            ports.append(f"  input  wire logic {rng}{rn}_set")
            ports.append(f"  output logic {rng}{rn}_q")
            decl.append(f"  logic {rng}{rn}_d;")
            ff_reset.append(f"      {rn}_q <= {w}'h{r['reset']:x};")
            ff_next.append(f"      {rn}_q <= {rn}_d;")
            d = f"wdata_q[{w - 1}:0]" if w < 32 else "wdata_q"
            comb.append(f"    {rn}_d = ({rn}_q & ~({sel} ? {d} : {w}'d0)) | {rn}_set;")
            rd.append((r, f"{rn}_q"))
        elif a == "wo":
            ports.append(f"  output logic {rng}{rn}_wdata")
            ports.append(f"  output logic {rn}_we")
            comb.append(f"    {rn}_wdata = wdata_q[{w - 1}:0];")
            comb.append(f"    {rn}_we = {sel};")
            rd.append((r, "32'd0"))  # reads as zero
        elif a == "ro":
            ports.append(f"  input  wire logic {rng}{rn}_i")
            rd.append((r, f"{rn}_i"))
            if r["re_pulse"]:
                ports.append(f"  output logic {rn}_re")
                pulse(f"{rn}_re", f"rd && (word == {aw - 2}'d{r['offset'] // 4})")
        else:  # const
            rd.append((r, f"{w}'h{r['reset']:x}"))
    # the read mux in two registered stages: stage 1 picks a word inside each occupied
    # group of 16, stage 2 picks the group (no path through a decode of every register)
    groups = sorted({r["offset"] // 4 >> 4 for r, _ in rd})
    gidx = {g: k for k, g in enumerate(groups)}
    gw = max(1, (len(groups) - 1).bit_length())
    hw = aw - 2 - 4   # bits of the group number
    grp_cases = []
    for g in groups:
        k = gidx[g]
        grp_cases.append(f"    unique case (word[3:0])")
        grp_cases += [f"      4'd{(r['offset'] // 4) & 15}: grp_d[{k * 32 + 31}:{k * 32}] = 32'({expr});"
                      for r, expr in rd if r["offset"] // 4 >> 4 == g]
        grp_cases.append("      default: ;")
        grp_cases.append("    endcase")
    hit_cases = "\n".join(f"      {aw - 2}'d{r['offset'] // 4}: hit = 1'b1;" for r, _ in rd)
    gsel_cases = "\n".join(f"      {hw}'d{g}: gsel_d = {gw}'d{gidx[g]};" for g in groups) if hw > 0 else ""
    out = [
        f"// Generated by regs/regtool.py from regs/{blk['src']}. Do not edit.",
        "`default_nettype none",
        "",
        f"// {blk['desc']}",
        f"module {n}_regs (",
        "  input  wire logic        clk,",
        "  input  wire logic        rst,",
        "  // sbus target (docs/DEVELOPING.md); a write lands (and its _we pulse comes) a cycle after",
        "  // the request, a read samples at the request and its _re pulse comes a cycle after it;",
        "  // every request is answered two cycles after it (the read mux is two registered stages)",
        "  input  wire logic        req,",
        "  input  wire logic        we,",
        f"  input  wire logic [{aw - 1}:0] addr,",
        "  input  wire logic [3:0]  be,",
        "  input  wire logic [31:0] wdata,",
        "  output logic             gnt,",
        "  output logic             rvalid,",
        "  output logic [31:0]      rdata,",
        "  output logic             err" + ("," if ports else ""),
        ",\n".join(ports),
        ");",
        "",
        f"  logic [{aw - 3}:0] word;",
        "  logic wr, rd, hit;",
        "  logic rvalid_d, err_d, rvalid1_q, err1_q, rd1_q;",
        f"  logic [{len(groups) * 32 - 1}:0] grp_d, grp_q;  // stage 1: the addressed word of each group",
        f"  logic [{gw - 1}:0] gsel_d, gsel_q;  // stage 1: which group",
        "  logic [31:0] rdata_d;",
        "  logic [31:0] wmask, wmask_q, wdata_q;  // byte enables as a bit mask; the write's data, registered",
        "  logic unused;",
        *decl,
        "",
        "  always_comb begin",
        "    gnt = 1'b1;",
        f"    word = addr[{aw - 1}:2];",
        "    wr = req && we;",
        "    rd = req && !we;",
        "    wmask = {{8{be[3]}}, {8{be[2]}}, {8{be[1]}}, {8{be[0]}}};",
        "    unused = ^{addr[1:0], rd, wmask, wdata, be, wmask_q, wdata_q};  // not every block uses them all",
        *comb,
        "    hit = 1'b0;",
        "    unique case (word)",
        hit_cases,
        "      default: ;",
        "    endcase",
        "    grp_d = '0;",
        *grp_cases,
        f"    gsel_d = '0;",
        *([f"    unique case (word[{aw - 3}:4])", gsel_cases, "      default: ;", "    endcase"] if hw > 0 else []),
        "    rvalid_d = req;",
        "    err_d = req && !hit;",
        "  end",
        "",
        "  // stage 2: the group's word, answered the cycle after stage 1",
        "  always_comb begin",
        "    rdata_d = '0;",
        f"    for (int k = 0; k < {len(groups)}; k++) begin",
        f"      if (gsel_q == {gw}'(k)) rdata_d = grp_q[k * 32 +: 32];",
        "    end",
        "    if (!rd1_q) rdata_d = 32'd0;",
        "  end",
        "",
        "  always_ff @(posedge clk) begin",
        "    if (rst) begin",
        "      rvalid1_q <= 1'b0;",
        "      rvalid <= 1'b0;",
        "      err1_q <= 1'b0;",
        "      err <= 1'b0;",
        "      rd1_q <= 1'b0;",
        "      rdata <= 32'd0;",
        *ff_reset,
        "    end else begin",
        "      rvalid1_q <= rvalid_d;",
        "      rvalid <= rvalid1_q;",
        "      err1_q <= err_d;",
        "      err <= err1_q;",
        "      rd1_q <= rd;",
        "      rdata <= rdata_d;",
        *ff_next,
        "    end",
        "    grp_q <= grp_d;",
        "    wdata_q <= wdata;",
        "    wmask_q <= wmask;",
        "    gsel_q <= gsel_d;",
        "  end",
        "",
        "endmodule",
        "",
    ]
    return "\n".join(out)


def c_header(blocks):
    out = ["/* Generated by regs/regtool.py from the register description (regs). Do not edit. */",
           "#ifndef SOLONIC_REGS_H", "#define SOLONIC_REGS_H", "", "#include <stdint.h>", "",
           "#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))", ""]
    for blk in blocks:
        P = blk["name"].upper()
        out.append(f"/* {blk['name']}: {blk['desc']} */")
        out.append(f"#define {P}_BASE 0x{blk['base']:08x}u")
        out.append(f"#define {P}_ID_VALUE 0x{int.from_bytes(blk['id'].encode(), 'big'):08x}u")
        for r in blk["regs"]:
            R = f"{P}_{r['name'].upper()}"
            out.append(f"#define {R} (0x{blk['base'] + r['offset']:08x}u)")
            if r["access"] == "const" and r["name"] == "version":
                out.append(f"#define {R}_VALUE {r['reset']}u")
            for fld in r["fields"]:
                F = f"{R}_{fld['name'].upper()}"
                fw = fld.get("width", 1)
                out.append(f"#define {F}_SHIFT {fld['lsb']}u")
                out.append(f"#define {F}_MASK 0x{((1 << fw) - 1) << fld['lsb']:08x}u")
        out.append("")
    out.append("#endif")
    return "\n".join(out) + "\n"


def markdown(blocks):
    out = ["# Registers", "",
           "Generated by `regs/regtool.py` from `regs/*.toml`; do not edit by hand.",
           "Every block starts with an ID word (four ASCII characters) and a VERSION word,",
           "so software can find and check it.", "",
           "| block | base | id | description |", "| --- | --- | --- | --- |"]
    for blk in blocks:
        out.append(f"| [{blk['name']}](#{blk['name']}) | `0x{blk['base']:08x}` | `{blk['id']}` | {blk['desc']} |")
    for blk in blocks:
        out += ["", f"## {blk['name']}", "", blk["desc"], "",
                "| offset | name | access | width | reset | description |",
                "| --- | --- | --- | --- | --- | --- |"]
        for r in blk["regs"]:
            extra = []
            if r["we_pulse"]:
                extra.append("a write also strobes the hardware")
            if r["re_pulse"]:
                extra.append("reading has a side effect")
            desc = r["desc"] + (f" ({'; '.join(extra)})" if extra else "")
            for fld in r["fields"]:
                fw = fld.get("width", 1)
                bits = f"{fld['lsb']}" if fw == 1 else f"{fld['lsb'] + fw - 1}:{fld['lsb']}"
                desc += f"<br>`[{bits}]` {fld['name']}: {fld.get('desc', '')}"
            reset = f"0x{r['reset']:x}" if r["access"] in ("rw", "w1c", "const") else "-"
            out.append(f"| `0x{r['offset']:03x}` | {r['name']} | {r['access']} | {r['width']} | {reset} | {desc} |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("descs", nargs="+", help="register description files (*.toml)")
    ap.add_argument("--sv-dir", help="write <block>_regs.sv files here")
    ap.add_argument("--header", help="write the C header here")
    ap.add_argument("--doc", help="write the Markdown documentation here")
    ap.add_argument("--check-doc", help="fail if this documentation file is not up to date")
    a = ap.parse_args()
    try:
        blocks = [load_block(p) for p in a.descs]
    except (DescError, tomllib.TOMLDecodeError, KeyError) as e:
        sys.exit(f"regtool: {e}")
    blocks.sort(key=lambda b: b["base"])
    for x, y in zip(blocks, blocks[1:]):
        if x["base"] + x["size"] > y["base"]:
            sys.exit(f"regtool: blocks {x['name']} and {y['name']} overlap")
    names = [b["name"] for b in blocks]
    if len(set(names)) != len(names):
        sys.exit("regtool: two blocks share a name")
    if a.sv_dir:
        d = pathlib.Path(a.sv_dir)
        d.mkdir(parents=True, exist_ok=True)
        for b in blocks:
            (d / f"{b['name']}_regs.sv").write_text(sv_module(b))
    if a.header:
        pathlib.Path(a.header).parent.mkdir(parents=True, exist_ok=True)
        pathlib.Path(a.header).write_text(c_header(blocks))
    if a.doc:
        pathlib.Path(a.doc).write_text(markdown(blocks))
    if a.check_doc:
        have = pathlib.Path(a.check_doc).read_text() if pathlib.Path(a.check_doc).exists() else ""
        if have != markdown(blocks):
            sys.exit(f"regtool: {a.check_doc} is out of date: run 'make regs-doc'")


if __name__ == "__main__":
    main()
