  // nic_top stand-in body (tests/boards/nic_stand_in.py adds the header and
  // ties the other outputs to zero): after reset, one 4-beat INCR write burst
  // (ID 1) of a pattern to 0x1000, its write response, one 4-beat read burst
  // (ID 2) of the same address, each beat compared. done_q when all came back
  // right, err_q at the first wrong response, beat or ID. Restarts after every
  // reset (the bench checks that the NIC's reset really is held and released).
  typedef enum logic [2:0] {X_IDLE, X_AW, X_W, X_B, X_AR, X_R, X_DONE} xstate_e;
  xstate_e    st_q, st_d;
  logic [1:0] beat_q, beat_d;
  logic       done_q, done_d, err_q, err_d;

  function automatic logic [511:0] pattern(input logic [1:0] b);
    return {16{32'hC0DE_0000 | 32'(b)}};
  endfunction

  assign m_axi_awid    = 2'd1;
  assign m_axi_awaddr  = 64'h1000;
  assign m_axi_awlen   = 8'd3;
  assign m_axi_awsize  = 3'd6;
  assign m_axi_awburst = 2'b01;
  assign m_axi_awvalid = (st_q == X_AW);
  assign m_axi_wdata   = pattern(beat_q);
  assign m_axi_wstrb   = '1;
  assign m_axi_wlast   = (beat_q == 2'd3);
  assign m_axi_wvalid  = (st_q == X_W);
  assign m_axi_bready  = (st_q == X_B);
  assign m_axi_arid    = 2'd2;
  assign m_axi_araddr  = 64'h1000;
  assign m_axi_arlen   = 8'd3;
  assign m_axi_arsize  = 3'd6;
  assign m_axi_arburst = 2'b01;
  assign m_axi_arvalid = (st_q == X_AR);
  assign m_axi_rready  = (st_q == X_R);

  always_comb begin
    st_d = st_q; beat_d = beat_q; done_d = done_q; err_d = err_q;
    unique case (st_q)
      X_IDLE: st_d = X_AW;   // no valid while in reset
      X_AW: if (m_axi_awready) st_d = X_W;
      X_W:  if (m_axi_wready) begin
              beat_d = beat_q + 1'b1;
              if (beat_q == 2'd3) st_d = X_B;
            end
      X_B:  if (m_axi_bvalid) begin
              if (m_axi_bid != 2'd1 || m_axi_bresp != 2'b00) err_d = 1'b1;
              st_d = X_AR;
            end
      X_AR: if (m_axi_arready) st_d = X_R;
      X_R:  if (m_axi_rvalid) begin
              if (m_axi_rid != 2'd2 || m_axi_rresp != 2'b00 || m_axi_rdata != pattern(beat_q)
                  || m_axi_rlast != (beat_q == 2'd3)) err_d = 1'b1;
              beat_d = beat_q + 1'b1;
              if (beat_q == 2'd3) begin
                st_d = X_DONE;
                done_d = !err_d;
              end
            end
      default: ;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q <= X_IDLE; beat_q <= '0; done_q <= 1'b0; err_q <= 1'b0;
    end else begin
      st_q <= st_d; beat_q <= beat_d; done_q <= done_d; err_q <= err_d;
    end
  end
