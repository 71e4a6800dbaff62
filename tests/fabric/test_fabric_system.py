"""System test of the switch: 3 NICs in build/sim/solonic_sim (--nics 3), each on a port.

NIC 2 listens, NIC 0 connects (the exchange over TCP through the switch), turns ECT(0)
marking on (`cc ect on`) and runs `bench write 65536 16` into NIC 2's buffer; NIC 1 stays
idle. NIC 2's links run at 50 Gb/s
(--link 2:rate=50e9) and PFC is on (--pfc xoff=20K,xon=10K): the queue to NIC 2 builds and
the switch pauses NIC 0 instead of dropping. At exit (--stats) the switch's counters must
agree with what the NICs and the links counted: per port, frames in = the frames NIC k sent
(= its uplink's arrivals), frames out = the frames NIC k received (its downlink carried
those and the pause frames, which NIC k's MAC consumed: pauses sent = received); nothing
dropped; every frame forwarded once or
flooded to the N-1 other ports (sum out = sum in + flooded x (N-2)); the switch's RED
(--fabric kmin=2K,kmax=8K: the queue to NIC 2 passes Xoff, so past Kmax every ECT packet is
marked) marked CE only packets to NIC 2 (NIC 0's ECT requests), never NIC 2's ACKs (ECN 0),
and NIC 2 took the marked ones (no ICRC error: the ICRC masks the TOS byte), counted each
(np_ecn_marked_roce_packets = the switch's marks) and answered with CNPs that NIC 0 received
(np_cnp_sent = rp_cnp_received > 0, none dropped); the bench's bytes went
0 -> 2 and not to port 1, below NIC 2's 50 Gb/s; the --fabric-csv series carries the
0 -> 2 flow; --pcap-port 1 holds every frame of NIC 1's two links.
"""
import csv
import os
import re
import struct
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from nicsim import NicSet  # noqa: E402

N = 3
SIZE, ITERS = 65536, 16
XOFF, XON = 20 * 1024, 10 * 1024
failures = []


def check(what, ok, expected, got):
    print(f"{'ok  ' if ok else 'FAIL'} {what}: expected {expected}, got {got}")
    if not ok:
        failures.append(what)


def kv(line):
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", line)}


def main():
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        series = os.path.join(tmp, "fabric.csv")
        pcap1 = os.path.join(tmp, "port1.pcap")
        group = NicSet(N, args=["--stats", "--max-cycles", "100000000", "--fabric-csv", series,
                                "--fabric-sample", "1000", "--link", "2:rate=50e9", "--fabric", "kmin=2K,kmax=8K",
                                "--pfc", f"xoff={XOFF},xon={XON}", "--pcap-port", f"1:{pcap1}"], max_seconds=300)
        with group as (a, idle, c):
            c.send("listen --wait 5000")
            c.wait_for(r"listen --wait 5000\n", 30)
            out = a.cmd("connect 10.0.0.3", timeout=120).replace("\r", "")
            m = re.search(r"qpx: QP 0x(\w+) RTS: peer 10\.0\.0\.3 ", out)
            check("NIC 0 connected to NIC 2 through the switch", m is not None, "qpx: QP ... RTS: peer 10.0.0.3", out)
            c.wait_for(r"solonic> ", 120)
            out = c.cmd("mr list").replace("\r", "")
            k = re.search(r"^0x([0-9a-f]{8}) 0x0*100000 ", out, re.M)
            check("NIC 2's test buffer MR", k is not None, "a key for 0x100000", out)
            out = a.cmd("cc ect on").replace("\r", "")
            check("NIC 0: cc ect on", out.startswith("cc: ECT(0) marking on"), "cc: ECT(0) marking on ...", out)
            out = a.cmd(f"bench write {SIZE} {ITERS} --rkey 0x{k.group(1)}", timeout=120).replace("\r", "")
            bw = re.search(rf"^ {SIZE} +{ITERS} +([0-9.]+) +([0-9.]+) +([0-9.]+)\n", out, re.M)
            check("bench table", bw is not None, f"{SIZE} {ITERS} peak avg rate", out)
            gbps = float(bw.group(2)) if bw else 0
            check("bench through the switch: 0 < BW average < NIC 2's 50 Gb/s", 0 < gbps < 50, "0 < avg < 50", gbps)
            out = c.cmd("stats rx_icrc_bad rx_packets").replace("\r", "")
            st = {k: int(v) for k, v in re.findall(r"(\w+) (\d+)", out)}
            check("NIC 2 took the CE-marked packets: no ICRC error", st.get("rx_icrc_bad") == 0
                  and st.get("rx_packets", 0) > 0, "rx_icrc_bad 0, rx_packets > 0", out)
            # the notification point: NIC 2 answers CE marks with CNPs, NIC 0 counts them
            out = c.cmd("stats np_ecn_marked_roce_packets np_cnp_sent np_cnp_dropped").replace("\r", "")
            np2 = {k: int(v) for k, v in re.findall(r"(\w+) (\d+)", out)}
            out = a.cmd("stats rp_cnp_received rp_cnp_dropped").replace("\r", "")
            rp0 = {k: int(v) for k, v in re.findall(r"(\w+) (\d+)", out)}
        err = group.stderr
        rows = list(csv.DictReader(open(series)))
        pcap = open(pcap1, "rb").read()
    pcap_frames, pos = [], 24
    while pos + 16 <= len(pcap):
        incl = struct.unpack_from("<I", pcap, pos + 8)[0]
        pcap_frames.append(pcap[pos + 16:pos + 16 + incl])
        pos += 16 + incl
    wall = time.monotonic() - t0
    nic = {int(m.group(1)): kv(m.group(2)) for m in re.finditer(r"stats nic(\d+) (.*)", err)}
    port = {int(m.group(1)): kv(m.group(2)) for m in re.finditer(r"stats switch port(\d+) (.*)", err)}
    mac = {int(m.group(1)): kv(m.group(2)) for m in re.finditer(r"stats mac nic(\d+) (.*)", err)}
    up = {int(m.group(1)): kv(m.group(2)) for m in re.finditer(r"stats link nic(\d+)->switch:\d+ (.*)", err)}
    down = {int(m.group(1)): kv(m.group(2)) for m in re.finditer(r"stats link switch:\d+->nic(\d+) (.*)", err)}
    sw = re.search(r"stats switch buffer_bytes=.*", err)
    check("--stats: every NIC, port and link", len(nic) == len(port) == len(up) == len(down) == len(mac) == N and sw,
          f"{N} of each", (len(nic), len(port), len(up), len(down), len(mac)) if sw else err[-2000:])
    if failures:
        return 1
    flooded = kv(sw.group(0))["flooded"]
    for k in range(N):
        p = port[k]
        check(f"port {k}: frames in = NIC {k}'s frames sent = its uplink's arrivals",
              p["frames_in"] == nic[k]["tx_frames"] == up[k]["frames_out"],
              nic[k]["tx_frames"], (p["frames_in"], up[k]["frames_out"]))
        check(f"port {k}: bytes in = its uplink's bytes", p["bytes_in"] == up[k]["bytes_in"], up[k]["bytes_in"],
              p["bytes_in"])
        pfc = p["pauses_sent"] + p["resumes_sent"]
        check(f"port {k}: frames out = NIC {k}'s frames received = its downlink's less the pause frames",
              p["frames_out"] == nic[k]["rx_frames"] == down[k]["frames_in"] - pfc,
              nic[k]["rx_frames"], (p["frames_out"], down[k]["frames_in"] - pfc))
        check(f"port {k}: pauses and resumes sent = NIC {k}'s MAC received",
              (p["pauses_sent"], p["resumes_sent"]) == (mac[k]["pauses_received"], mac[k]["resumes_received"]),
              (p["pauses_sent"], p["resumes_sent"]), (mac[k]["pauses_received"], mac[k]["resumes_received"]))
        check(f"port {k}: no drops", p["drops"] == 0, 0, p["drops"])
    check("ECN: the queue to NIC 2 marked NIC 0's ECT packets CE; nothing toward NIC 0 (ACKs not ECT) or NIC 1",
          port[2]["ecn_marked"] > 0 and port[0]["ecn_marked"] == port[1]["ecn_marked"] == 0,
          "> 0 at port 2, 0 at ports 0 and 1", [port[k]["ecn_marked"] for k in range(N)])
    check("NIC 2 counted every CE-marked packet the switch marked toward it (np_ecn_marked_roce_packets)",
          np2.get("np_ecn_marked_roce_packets") == port[2]["ecn_marked"], port[2]["ecn_marked"], np2)
    check("NIC 2 sent CNPs for them, none dropped; NIC 0 received each (rp_cnp_received), none dropped",
          np2.get("np_cnp_sent", 0) > 0 and np2.get("np_cnp_dropped") == 0
          and rp0.get("rp_cnp_received") == np2.get("np_cnp_sent") and rp0.get("rp_cnp_dropped") == 0,
          "np_cnp_sent > 0 = rp_cnp_received, 0 dropped", (np2, rp0))
    check("the sender (NIC 0) was paused and resumed, nobody else", port[0]["pauses_sent"] > 0
          and port[0]["resumes_sent"] == port[0]["pauses_sent"]
          and port[1]["pauses_sent"] == port[2]["pauses_sent"] == 0, "> 0 pauses to NIC 0 only",
          [port[k]["pauses_sent"] for k in range(N)])
    check("the queue to NIC 2 passed Xoff", port[2]["max_queue_bytes"] > XOFF, f"> {XOFF}",
          port[2]["max_queue_bytes"])
    check("--pcap-port 1: NIC 1's frames both ways", len(pcap_frames) == port[1]["frames_in"] + down[1]["frames_in"]
          and pos == len(pcap) and sum(map(len, pcap_frames)) == port[1]["bytes_in"] + down[1]["bytes_in"],
          (port[1]["frames_in"] + down[1]["frames_in"], port[1]["bytes_in"] + down[1]["bytes_in"]),
          (len(pcap_frames), sum(map(len, pcap_frames))))
    tin = sum(port[k]["frames_in"] for k in range(N))
    tout = sum(port[k]["frames_out"] for k in range(N))
    check("every frame forwarded once or flooded to the other ports", tout == tin + flooded * (N - 2),
          f"{tin} + {flooded} x {N - 2}", tout)
    payload = SIZE * ITERS
    check("the bench's bytes entered at port 0 and left at port 2",
          port[0]["bytes_in"] > payload and port[2]["bytes_out"] > payload, f"> {payload}",
          (port[0]["bytes_in"], port[2]["bytes_out"]))
    check("the idle NIC 1 saw only flooded frames (not the bench)", port[1]["frames_out"] <= flooded
          and port[1]["bytes_out"] < payload // 10, f"<= {flooded} frames, < {payload // 10} B",
          (port[1]["frames_out"], port[1]["bytes_out"]))
    flows = {}
    for r in rows:
        if r["kind"] == "flow":
            flows[r["name"]] = flows.get(r["name"], 0) + int(r["value"])
    queues = sum(1 for r in rows if r["kind"] == "queue")
    f02 = flows.get("02:00:00:00:00:01>02:00:00:00:00:03", 0)
    check("CSV: the 0 -> 2 flow carries the bench", payload < f02 <= port[0]["bytes_in"],
          f"{payload} < bytes <= {port[0]['bytes_in']}", f02)
    check("CSV: one queue row per port per sample", queues % N == 0 and queues > 0, f"a multiple of {N}", queues)
    bin_ = sum(port[k]["bytes_in"] for k in range(N))
    check("CSV: flow bytes never exceed what entered", 0 < sum(flows.values()) <= bin_, f"<= {bin_}",
          sum(flows.values()))
    print(f"bench write {SIZE} {ITERS} through the switch to NIC 2 at 50 Gb/s: {gbps} Gb/s; frames in {tin}, "
          f"out {tout}, flooded {flooded}; CE marks to NIC 2 {port[2]['ecn_marked']}; pauses to NIC 0 "
          f"{port[0]['pauses_sent']}, max queue to NIC 2 "
          f"{port[2]['max_queue_bytes']} B; wall {wall:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
