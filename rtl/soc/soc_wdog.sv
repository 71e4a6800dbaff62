`default_nettype none

// Watchdog: the wdog register block (regs/wdog.toml). A kick (the key written
// to `kick`) arms it and loads `timeout` into the down counter; each cycle
// takes one off. When the count is at zero while armed, `bite` rises for
// BITE_CYCLES cycles (soc_top resets the core and the rest of the SoC with
// it), `bites` counts one and the watchdog disarms: the restarted firmware
// arms it again. Reset only by the power-on reset, so `bites` survives the
// bite. Cycle plan: the kick's write lands a cycle after the request (the
// register block), the key compare is registered and the counter loads the
// cycle after. The counter has a 33rd bit that the decrement past zero sets:
// the count expires timeout + 1 cycles after the load, with no wide compare.
module soc_wdog #(
  parameter int BITE_CYCLES = 16
) (
  input  wire logic        clk,
  input  wire logic        rst,          // power-on reset only
  // sbus target
  input  wire logic        req,
  input  wire logic        we,
  input  wire logic [11:0] addr,
  input  wire logic [3:0]  be,
  input  wire logic [31:0] wdata,
  output logic             gnt,
  output logic             rvalid,
  output logic [31:0]      rdata,
  output logic             err,
  output logic             bite
);

  localparam logic [31:0] KICK_KEY = 32'h4b49_434b;   // "KICK"
  localparam logic [31:0] STOP_KEY = 32'h5354_4f50;   // "STOP"

  logic [31:0] timeout_q, kick_wdata, stop_wdata;
  logic        kick_we, stop_we;
  logic        kick_q, kick_d, stop_q, stop_d;      // a key written, one cycle later
  logic        armed_q, armed_d;
  logic [32:0] count_q, count_d;                    // [32]: decremented past zero
  logic [31:0] bites_q, bites_d;
  logic [4:0]  bite_left_q, bite_left_d;
  logic        bite_q, bite_d;

  wdog_regs u_regs (
    .clk, .rst,
    .req, .we, .addr, .be, .wdata, .gnt, .rvalid, .rdata, .err,
    .timeout_q,
    .kick_wdata, .kick_we,
    .stop_wdata, .stop_we,
    .armed_i(armed_q),
    .remaining_i(count_q[31:0]),
    .bites_i(bites_q)
  );

  // the keys compared first, the counter moved a cycle later
  always_comb begin
    kick_d = kick_we && kick_wdata == KICK_KEY;
    stop_d = stop_we && stop_wdata == STOP_KEY;
  end

  always_comb begin
    armed_d = armed_q;
    count_d = count_q;
    bites_d = bites_q;
    bite_left_d = bite_left_q;
    if (bite_left_q != 5'd0) bite_left_d = bite_left_q - 5'd1;
    if (kick_q) begin
      armed_d = 1'b1;
      count_d = {1'b0, timeout_q};
    end else if (stop_q) begin
      armed_d = 1'b0;
    end else if (armed_q && count_q[32]) begin
      armed_d = 1'b0;
      bites_d = bites_q + 32'd1;
      bite_left_d = 5'(BITE_CYCLES);
    end else if (armed_q) begin
      count_d = count_q - 33'd1;
    end
    bite_d = bite_left_d != 5'd0;
    bite = bite_q;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      kick_q <= 1'b0;
      stop_q <= 1'b0;
      armed_q <= 1'b0;
      count_q <= 33'd0;
      bites_q <= 32'd0;
      bite_left_q <= 5'd0;
      bite_q <= 1'b0;
    end else begin
      kick_q <= kick_d;
      stop_q <= stop_d;
      armed_q <= armed_d;
      count_q <= count_d;
      bites_q <= bites_d;
      bite_left_q <= bite_left_d;
      bite_q <= bite_d;
    end
  end

endmodule
