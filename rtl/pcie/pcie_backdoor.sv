// SPDX-License-Identifier: Apache-2.0
//
// pcie_backdoor: the PCIe backdoor (register block `backdoor`, type 4;
// naa-dissertation 2.4.1 and 4.2.1; docs/remote-access.md "The config tunnel").
// Works the same in both roles: in root-port mode m_tx feeds the root port's
// upstream input and s_rx takes its completions; in endpoint mode m_tx goes
// toward the host and s_rx sees the completions that arrive from the host.
//
// TX: two one-TLP slots, arbitrated round robin, a whole TLP at a time:
//   register slot  tx_send (the singlepulse tx_ctrl.send) copies tx_hdr0/1,
//                  tx_data, tx_hdr_dw and tx_data_dw; a send while the slot
//                  is still occupied is ignored (ev_tx_busy).
//   inject slot    s_inj (valid/ready): an op-TLP from the network (RRA).
// A TLP leaves as one header beat (keep 0111 for a 3-DW header, with dword 3
// forced to zero, 1111 for hdr_dw = 4) and, with data_dw 1 or 2 (3 counts as
// 2), one payload beat. The header is sent as given (raw): software makes
// Fmt/Length agree with hdr_dw/data_dw.
//
// RX filter on s_rx: a Cpl/CplD/CplLk/CplDLk whose tag (header dword 2 bits
// 15:8) equals rx_filter_tag while rx_filter_enable is set is extracted:
// header dwords 0-2 and the first (up to) two payload dwords are kept, the
// rest consumed. The decision, rx_filter_fwd, fwd_node and fwd_addr are taken
// once per TLP, when its header beat is first presented. Then
//   rx_filter_fwd = 1: presented on m_fwd until taken (s_rx waits meanwhile);
//   rx_filter_fwd = 0: stored in the RX buffer if it is free (rx_valid = 0,
//                      or rx_pop in the same cycle), else dropped and counted
//                      in rx_dropped (16 bit, wraps).
// All other TLPs pass to m_rx unchanged (beats pass combinationally once the
// decision is registered; one idle cycle per TLP for the decision). Beats
// without sop outside a TLP are discarded.

`default_nettype none
`include "tlp_stream.svh"
`include "backdoor_port.svh"

// Package items are referenced by qualified name (pcie_tlp_pkg::...):
// Yosys does not read package imports inside modules.

module pcie_backdoor
(
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,            // synchronous, active high

  // ---------------- TX registers (backdoor.tx_*) ----------------
  input  wire logic [63:0]           tx_hdr0,        // header dwords 1 (63:32), 0 (31:0)
  input  wire logic [63:0]           tx_hdr1,        // header dwords 3 (63:32), 2 (31:0)
  input  wire logic [63:0]           tx_data,        // payload dwords 1 (63:32), 0 (31:0)
  input  wire logic [2:0]            tx_hdr_dw,      // header dwords: 4, else 3
  input  wire logic [1:0]            tx_data_dw,     // payload dwords 0-2 (3: 2)
  input  wire logic                  tx_send,        // pulse: send the TLP in the registers
  output      logic                  tx_busy,        // register slot occupied

  // ---------------- network inject (RRA op TLP) ----------------
  `BD_INJ_S_PORTS(s_inj),

  // ---------------- TX stream (toward the PCIe side) ----------------
  `TLP_M_PORTS(m_tx),

  // ---------------- RX filter registers (backdoor.rx_filter, rx_fwd_addr) ----------------
  input  wire logic [7:0]            rx_filter_tag,
  input  wire logic                  rx_filter_enable,
  input  wire logic                  rx_filter_fwd,
  input  wire logic [15:0]           rx_filter_fwd_node,
  input  wire logic [63:0]           rx_fwd_addr,

  // ---------------- RX stream in (TLPs coming up from the PCIe side) ----------------
  `TLP_S_PORTS(s_rx),

  // ---------------- RX pass-through (TLPs not extracted) ----------------
  `TLP_M_PORTS(m_rx),

  // ---------------- RX buffer (backdoor.rx_status, rx_hdr0/1, rx_data, rx_pop) ----------------
  output      logic                  rx_valid,       // rx_status.valid
  output      logic [1:0]            rx_data_dw,     // rx_status.data_dw
  output      logic [15:0]           rx_dropped,     // rx_status.dropped
  output      logic [63:0]           rx_hdr0,        // header dwords 1, 0
  output      logic [63:0]           rx_hdr1,        // header dwords 3 (0), 2
  output      logic [63:0]           rx_data,        // payload dwords 1, 0 (absent: 0)
  input  wire logic                  rx_pop,         // pulse: release the buffer

  // ---------------- RX forward output (to the network unit) ----------------
  `BD_FWD_M_PORTS(m_fwd),

  // ---------------- event pulses (counters) ----------------
  output      logic                  ev_tx,          // TLP sent on m_tx
  output      logic                  ev_tx_busy,     // tx_send ignored: register slot busy
  output      logic                  ev_rx_extract,  // completion extracted
  output      logic                  ev_rx_drop      // extracted completion dropped: buffer full
);

  // ==================================================================
  // TX
  // ==================================================================
  logic          reg_v_q, inj_v_q;                 // slots occupied
  logic [127:0]  reg_hdr_q, inj_hdr_q;
  logic [63:0]   reg_dat_q, inj_dat_q;
  logic          reg_h4_q, inj_h4_q;               // 4-DW header
  logic [1:0]    reg_nd_q, inj_nd_q;               // payload dwords 0-2

  typedef enum logic [1:0] { T_IDLE, T_HDR, T_DATA } tstate_e;
  tstate_e       tstate_q;
  logic          sel_q;                            // 0 register slot, 1 inject slot
  logic          last_q;                           // slot sent last (round robin)
  logic          pick;

  logic [127:0]  cur_hdr;
  logic [63:0]   cur_dat;
  logic          cur_h4;
  logic [1:0]    cur_nd;
  logic          tx_done;                          // the current TLP leaves this cycle

  assign cur_hdr = sel_q ? inj_hdr_q : reg_hdr_q;
  assign cur_dat = sel_q ? inj_dat_q : reg_dat_q;
  assign cur_h4  = sel_q ? inj_h4_q  : reg_h4_q;
  assign cur_nd  = sel_q ? inj_nd_q  : reg_nd_q;

  // round robin between the two slots
  assign pick = (reg_v_q && inj_v_q) ? !last_q : inj_v_q;

  assign tx_done = m_tx_ready && ((tstate_q == T_HDR && cur_nd == 2'd0) || tstate_q == T_DATA);

  assign s_inj_ready = !inj_v_q;
  assign tx_busy     = reg_v_q;
  assign ev_tx_busy  = tx_send && reg_v_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      reg_v_q  <= 1'b0;
      inj_v_q  <= 1'b0;
      tstate_q <= T_IDLE;
      sel_q    <= 1'b0;
      last_q   <= 1'b1;
    end else begin
      if (tx_send && !reg_v_q) begin
        reg_v_q <= 1'b1;
      end else if (tx_done && !sel_q) begin
        reg_v_q <= 1'b0;
      end
      if (s_inj_valid && s_inj_ready) begin
        inj_v_q <= 1'b1;
      end else if (tx_done && sel_q) begin
        inj_v_q <= 1'b0;
      end
      case (tstate_q)
        T_IDLE: begin
          if (reg_v_q || inj_v_q) begin
            sel_q    <= pick;
            last_q   <= pick;
            tstate_q <= T_HDR;
          end
        end
        T_HDR:  if (m_tx_ready) tstate_q <= (cur_nd == 2'd0) ? T_IDLE : T_DATA;
        T_DATA: if (m_tx_ready) tstate_q <= T_IDLE;
        default: tstate_q <= T_IDLE;
      endcase
    end
  end

  always_ff @(posedge clk) begin
    if (tx_send && !reg_v_q) begin
      reg_h4_q  <= (tx_hdr_dw == 3'd4);
      reg_hdr_q <= {(tx_hdr_dw == 3'd4) ? tx_hdr1[63:32] : 32'd0, tx_hdr1[31:0], tx_hdr0};
      reg_dat_q <= tx_data;
      reg_nd_q  <= (tx_data_dw == 2'd3) ? 2'd2 : tx_data_dw;
    end
    if (s_inj_valid && s_inj_ready) begin
      inj_h4_q  <= (s_inj_hdr_dw == 3'd4);
      inj_hdr_q <= {(s_inj_hdr_dw == 3'd4) ? s_inj_hdr[127:96] : 32'd0, s_inj_hdr[95:0]};
      inj_dat_q <= s_inj_data;
      inj_nd_q  <= (s_inj_data_dw == 2'd3) ? 2'd2 : s_inj_data_dw;
    end
  end

  always_comb begin
    if (tstate_q == T_DATA) begin
      m_tx_data = {64'd0, cur_dat};
      if (cur_nd == 2'd1) begin
        m_tx_data[63:32] = 32'd0;
      end
      m_tx_keep = (cur_nd == 2'd1) ? 4'b0001 : 4'b0011;
      m_tx_sop  = 1'b0;
      m_tx_eop  = 1'b1;
    end else begin
      m_tx_data = cur_hdr;
      m_tx_keep = cur_h4 ? 4'b1111 : 4'b0111;
      m_tx_sop  = 1'b1;
      m_tx_eop  = (cur_nd == 2'd0);
    end
    m_tx_valid = (tstate_q != T_IDLE);
  end

  assign ev_tx = m_tx_valid && m_tx_ready && m_tx_sop;

  // ==================================================================
  // RX filter
  // ==================================================================
  typedef enum logic [2:0] { R_IDLE, R_PASS, R_EXT_HDR, R_EXT_DATA, R_DELIVER } rstate_e;
  rstate_e       rstate_q;
  logic          match;
  logic          r_fire;
  logic          fwd_q;
  logic [15:0]   fwd_node_q;
  logic [63:0]   fwd_addr_q;
  logic [95:0]   cap_hdr_q;
  logic [63:0]   cap_dat_q;
  logic [1:0]    cap_nd_q;
  logic          cap_got_q;                       // first payload beat taken
  logic          buf_free;

  // completion (Fmt 000/010, Type 0101x) with the filter's tag
  assign match = rx_filter_enable && !s_rx_data[31] && !s_rx_data[29] &&
                 s_rx_data[28:25] == 4'b0101 && s_rx_data[79:72] == rx_filter_tag;

  always_comb begin
    case (rstate_q)
      R_IDLE:     s_rx_ready = !s_rx_sop;       // discard strays, decide on sop
      R_PASS:     s_rx_ready = m_rx_ready;
      R_EXT_HDR:  s_rx_ready = 1'b1;
      R_EXT_DATA: s_rx_ready = 1'b1;
      default:    s_rx_ready = 1'b0;
    endcase
  end
  assign r_fire = s_rx_valid && s_rx_ready;

  assign m_rx_data  = s_rx_data;
  assign m_rx_keep  = s_rx_keep;
  assign m_rx_sop   = s_rx_sop;
  assign m_rx_eop   = s_rx_eop;
  assign m_rx_valid = (rstate_q == R_PASS) && s_rx_valid;

  assign buf_free = !rx_valid || rx_pop;

  always_ff @(posedge clk) begin
    if (rst) begin
      rstate_q   <= R_IDLE;
      rx_valid   <= 1'b0;
      rx_dropped <= 16'd0;
    end else begin
      if (rx_pop) begin
        rx_valid <= 1'b0;
      end
      case (rstate_q)
        R_IDLE: begin
          if (s_rx_valid && s_rx_sop) begin
            rstate_q <= match ? R_EXT_HDR : R_PASS;
          end
        end
        R_PASS:     if (r_fire && s_rx_eop) rstate_q <= R_IDLE;
        R_EXT_HDR:  if (r_fire) rstate_q <= s_rx_eop ? R_DELIVER : R_EXT_DATA;
        R_EXT_DATA: if (r_fire && s_rx_eop) rstate_q <= R_DELIVER;
        R_DELIVER: begin
          if (fwd_q) begin
            if (m_fwd_ready) rstate_q <= R_IDLE;
          end else begin
            rstate_q <= R_IDLE;
            if (buf_free) begin
              rx_valid <= 1'b1;
            end else begin
              rx_dropped <= rx_dropped + 16'd1;
            end
          end
        end
        default: rstate_q <= R_IDLE;
      endcase
    end
  end

  always_ff @(posedge clk) begin
    if (rstate_q == R_IDLE && s_rx_valid && s_rx_sop) begin
      fwd_q      <= rx_filter_fwd;
      fwd_node_q <= rx_filter_fwd_node;
      fwd_addr_q <= rx_fwd_addr;
    end
    if (rstate_q == R_EXT_HDR && r_fire) begin
      cap_hdr_q <= s_rx_data[95:0];
      cap_dat_q <= 64'd0;
      cap_nd_q  <= 2'd0;
      cap_got_q <= 1'b0;
    end
    if (rstate_q == R_EXT_DATA && r_fire && !cap_got_q) begin
      // CplD: min(Length, dwords in the first payload beat, 2)
      cap_got_q <= 1'b1;
      if (cap_hdr_q[30] && s_rx_keep[0]) begin
        if (cap_hdr_q[9:0] != 10'd1 && s_rx_keep[1]) begin
          cap_nd_q  <= 2'd2;
          cap_dat_q <= s_rx_data[63:0];
        end else begin
          cap_nd_q  <= 2'd1;
          cap_dat_q <= {32'd0, s_rx_data[31:0]};
        end
      end
    end
  end

  // RX buffer contents (reset so the registers read zero before the first completion)
  always_ff @(posedge clk) begin
    if (rst) begin
      rx_hdr0    <= 64'd0;
      rx_hdr1    <= 64'd0;
      rx_data    <= 64'd0;
      rx_data_dw <= 2'd0;
    end else if (rstate_q == R_DELIVER && !fwd_q && buf_free) begin
      rx_hdr0    <= cap_hdr_q[63:0];
      rx_hdr1    <= {32'd0, cap_hdr_q[95:64]};
      rx_data    <= cap_dat_q;
      rx_data_dw <= cap_nd_q;
    end
  end

  assign m_fwd_valid   = (rstate_q == R_DELIVER) && fwd_q;
  assign m_fwd_hdr     = {32'd0, cap_hdr_q};
  assign m_fwd_data    = cap_dat_q;
  assign m_fwd_data_dw = cap_nd_q;
  assign m_fwd_node    = fwd_node_q;
  assign m_fwd_addr    = fwd_addr_q;

  assign ev_rx_extract = (rstate_q == R_IDLE) && s_rx_valid && s_rx_sop && match;
  assign ev_rx_drop    = (rstate_q == R_DELIVER) && !fwd_q && !buf_free;

endmodule

`default_nettype wire
