"""What the board tests read from build/boards/Vtb_board (tests/boards/tb_board.cpp):
its closing stats line, and the checks every run of it must pass."""
import re

from nicsim import check, check_true


def stats(stderr_text):
    """The 'tb_board: stats k=v ...' line of the bench's stderr, as numbers."""
    m = re.search(r"tb_board: stats (.*)", stderr_text)
    check_true("the bench's stats line", m is not None, "'tb_board: stats ...' on stderr", stderr_text[-400:])
    return {k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)", m.group(1))}


def check_crossings(s):
    """Nothing lost in the MAC crossings: the RX crossing dropped nothing for want of
    room, and each crossing passed on every frame it was given."""
    check("frames dropped by the RX crossing", 0, s["cdc_rx_drop_full"])
    check("frames the CMAC delivered = frames the RX crossing admitted", s["line_rx_frames"], s["cdc_rx_frames"])
    check("frames the TX crossing handed over = frames the CMAC model received",
          s["cdc_tx_frames"], s["line_tx_frames"])
