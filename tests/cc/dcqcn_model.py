"""DCQCN reaction point (Zhu et al., SIGCOMM 2015), one QP, event-driven at exact times.

Written from the paper's equations with the fixed-point formats of docs/cc.md (not from
the RTL): rates in Mb/s (integers), alpha in 1/1024 (0..1024), times in clock cycles.

  CNP at t, accepted when the QP is inactive or t - t_dec >= dec_interval:
      (inactive: Rc = Rt = line, alpha = alpha_init)
      Rt = Rc;  Rc = max(Rmin, Rc - floor(Rc * alpha / 2048))
      alpha = floor(alpha * g / 1024) + (1024 - g)
      iT = iB = 0, byte counter = 0, t_dec = t, alpha and rate timers restarted at t
  alpha timer (period K):   alpha = floor(alpha * g / 1024)
  rate timer (period T):    iT += 1, then increase
  bytes (active QP only):   counter += bytes; counter >= B: counter -= B, iB += 1, increase
  increase: max(iT, iB) < F: fast recovery (Rt kept); min(iT, iB) > F: Rt += HAI;
            else Rt += AI; Rt = min(Rt, line); Rc = ceil((Rt + Rc) / 2);
            Rc == Rt == line: the QP is inactive again (timers stop)
Timers fire at their deadlines (deadline += period, no drift), before any event at or
after that time; iT and iB saturate at 7.
"""
from dataclasses import dataclass

MHZ = 250


@dataclass
class Params:
    line: int = 100_000          # Mb/s
    rmin: int = 1                # Mb/s
    ai: int = 5                  # Mb/s
    hai: int = 50                # Mb/s
    g: int = 1019                # alpha <- alpha * g / 1024
    alpha_init: int = 1024       # 1.0
    f: int = 5
    dec_cyc: int = 4 * MHZ       # 4 us
    alpha_cyc: int = 55 * MHZ    # 55 us
    rai_cyc: int = 300 * MHZ     # 300 us
    b_bytes: int = 10 * 1024 * 1024


class RP:
    def __init__(self, p: Params):
        self.p = p
        self.act = False
        self.rc = self.rt = p.line
        self.alpha = 0
        self.it = self.ib = 0
        self.bc = 0
        self.t_dec = 0
        self.t_alpha = self.t_rate = 0
        self.handled = self.ignored = self.decreases = 0
        # what the trajectory went through: fast, additive, hyper, alpha timer, back to line rate
        self.seen = {"fast": 0, "additive": 0, "hyper": 0, "alpha_timer": 0, "line_again": 0}

    def rate(self):
        return self.rc if self.act else self.p.line

    def _increase(self):
        p = self.p
        if max(self.it, self.ib) < p.f:
            self.seen["fast"] += 1
        elif min(self.it, self.ib) > p.f:
            self.rt += p.hai
            self.seen["hyper"] += 1
        else:
            self.rt += p.ai
            self.seen["additive"] += 1
        self.rt = min(self.rt, p.line)
        self.rc = (self.rt + self.rc + 1) // 2
        if self.rc == p.line and self.rt == p.line:
            self.act = False
            self.seen["line_again"] += 1

    def advance(self, t):
        """Fire the timers due at or before t, in deadline order."""
        p = self.p
        while self.act and min(self.t_alpha, self.t_rate) <= t:
            if self.t_alpha <= self.t_rate:
                self.alpha = self.alpha * p.g // 1024
                self.t_alpha += p.alpha_cyc
                self.seen["alpha_timer"] += 1
            else:
                self.it = min(self.it + 1, 7)
                self.t_rate += p.rai_cyc
                self._increase()

    def cnp(self, t):
        p = self.p
        self.advance(t)
        if self.act and t - self.t_dec < p.dec_cyc:
            self.ignored += 1
            return
        self.handled += 1
        if not self.act:
            self.rc = self.rt = p.line
            self.alpha = p.alpha_init
        self.rt = self.rc
        new = max(p.rmin, self.rc - self.rc * self.alpha // 2048)
        if new < self.rc:
            self.decreases += 1
        self.rc = new
        self.alpha = self.alpha * p.g // 1024 + (1024 - p.g)
        self.act = True
        self.it = self.ib = self.bc = 0
        self.t_dec = t
        self.t_alpha = t + p.alpha_cyc
        self.t_rate = t + p.rai_cyc

    def tx(self, t, nbytes):
        self.advance(t)
        if not self.act:
            return
        self.bc += nbytes
        if self.bc >= self.p.b_bytes:
            self.bc -= self.p.b_bytes
            self.ib = min(self.ib + 1, 7)
            self._increase()
