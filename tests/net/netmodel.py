"""Reference model of the net RX rules (rtl/net/README.md), written from the
spec and independent of the RTL. Field extraction and the IPv4 checksum come
from Scapy; the verdict order is the documented one."""
from scapy.layers.inet import IP
from scapy.utils import checksum

MAX_FRAME_BYTES = 9018
BEAT = 64

# verdict names, as the benches print them (one counter each)
ROCE, MGMT = "rx_roce", "rx_mgmt"
BAD_CSUM, TRUNC, BAD_HDR = "drop_bad_csum", "drop_trunc", "drop_bad_hdr"
MALFORMED, MAC_ERR, NOT_FOR_US = "drop_malformed", "drop_mac_err", "drop_not_for_us"
ROCE_FULL, MGMT_FULL = "drop_roce_full", "drop_mgmt_full"
COUNTERS = [ROCE, MGMT, BAD_CSUM, TRUNC, BAD_HDR, MALFORMED, MAC_ERR, NOT_FOR_US,
            ROCE_FULL, MGMT_FULL]


def beats(n):
    return (n + BEAT - 1) // BEAT


def classify(frame, our_mac, our_ip, keep_bad=False, mac_err=False):
    """Return (verdict, bytes forwarded if good, beats reserved in the queue).

    frame: bytes as on the wire without FCS; keep_bad: the bench spoils the
    frame's tkeep; mac_err: the MAC flags the frame."""
    n = len(frame)
    f = frame + bytes(max(0, 64 - n))     # header bytes past the end read as 0
    dst = f[0:6]
    mac_ours = dst == our_mac
    mac_pass = mac_ours or (dst[0] & 1) == 1
    is_ip = f[12:14] == b"\x08\x00"
    ip = IP(f[14:34])                     # Scapy parses the base IPv4 header
    ver_ok = ip.version == 4 and ip.ihl >= 5
    csum_ok = checksum(f[14:34]) == 0     # one's complement sum incl. csum
    tl_ok = ip.len >= ip.ihl * 4
    ip_good = ver_ok and (ip.ihl != 5 or csum_ok) and tl_ok

    if not mac_pass:
        cls = NOT_FOR_US
    elif not is_ip:
        cls = MGMT
    elif not ver_ok:
        cls = BAD_HDR
    elif ip.ihl == 5 and not csum_ok:
        cls = BAD_CSUM
    elif not tl_ok:
        cls = BAD_HDR
    elif ip.ihl != 5 or ip.flags.MF or ip.frag != 0:
        cls = MGMT
    elif (ip.proto == 17 and ip.len >= 28 and int.from_bytes(f[36:38], "big") == 4791
          and ip.dst == our_ip and mac_ours):
        udp_len = int.from_bytes(f[38:40], "big")
        dqpn = int.from_bytes(f[47:50], "big")       # BTH DestQP
        if udp_len != ip.len - 20:
            cls = BAD_HDR
        elif ip.len >= 40 and dqpn == 1:             # GSI QP: to the firmware
            cls = MGMT
        else:
            cls = ROCE
    else:
        cls = MGMT

    if not mac_pass or not is_ip:
        req = 14
    elif ip_good:
        req = 14 + ip.len
    else:
        req = 34

    trim = mac_pass and is_ip and ip_good
    if trim and beats(14 + ip.len) <= beats(MAX_FRAME_BYTES):
        out, resv = frame[:14 + ip.len], beats(14 + ip.len)
    else:
        out, resv = frame, beats(MAX_FRAME_BYTES)

    if keep_bad or n > MAX_FRAME_BYTES:
        return MALFORMED, None, resv
    if mac_err:
        return MAC_ERR, None, resv
    if n < req:
        return TRUNC, None, resv
    if cls not in (ROCE, MGMT):
        return cls, None, resv
    return cls, out, resv
