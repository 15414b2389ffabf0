// SPDX-License-Identifier: Apache-2.0
//
// nic_net_rx: receive side of the NIC's local network port 0 (RRA, TLP_RAW).
//
// The router's local outport holds LOCAL_CREDITS credits per VC (message
// class) for this unit (docs/network.md, "Flow control"), so the unit owns a
// receive buffer of CLASSES * LOCAL_CREDITS flits: one FIFO for the classes it
// is given (the outport never interleaves packets, and each class can never
// hold more than its credits), returning a credit pulse for the VC of every
// flit that leaves it. nic_rra_unit gives each class an instance of its own
// (CLASSES = 1), so responses never wait behind requests.
//
// Flits leave the FIFO into a packet register that keeps the first three
// flits of a packet (every packet this port handles is at most 3 flits;
// further flits of a longer packet are consumed and discarded). While the
// FIFO is empty an arriving flit bypasses it (same cycle into the packet
// register), so an idle unit adds no buffer latency.

`default_nettype none

module nic_net_rx #(
  parameter int LOCAL_CREDITS = 32,  // credits per VC the router outport holds (net_node LOCAL_CREDITS)
  parameter int CLASSES       = 2    // VCs (message classes) whose flits arrive here: 1 or 2
) (
  // ---------------- clock and reset ----------------
  input  wire logic          clk,
  input  wire logic          rst,          // synchronous, active high

  // ---------------- from the router's local outport ----------------
  input  wire logic          s_valid,
  input  wire logic [127:0]  s_data,
  input  wire logic          s_last,
  input  wire logic          s_vc,
  output      logic [1:0]    m_credit,     // one pulse per flit leaving the buffer, per VC

  // ---------------- assembled packet ----------------
  output      logic          m_valid,
  input  wire logic          m_ready,
  output      logic [127:0]  m_f0,         // header flit
  output      logic [127:0]  m_f1,         // payload flit 1 (0 if absent)
  output      logic [127:0]  m_f2,         // payload flit 2 (0 if absent)

  // ---------------- status ----------------
  output      logic          m_ovf         // sticky: a flit arrived while the buffer was full
);

  localparam int DEPTH = CLASSES * LOCAL_CREDITS;
  localparam int AW    = $clog2(DEPTH);

  logic [129:0]    mem [DEPTH];            // {vc, last, data}
  logic [AW-1:0]   wr_q, rd_q;
  logic [AW:0]     cnt_q;
  logic            empty;

  logic            pkt_v_q;
  logic [1:0]      idx_q;                  // next flit index (saturates at 3)
  logic [127:0]    f0_q, f1_q, f2_q;

  // flit offered to the packet register: FIFO head, or the arriving flit when empty
  logic            h_valid, h_last, h_vc;
  logic [127:0]    h_data;
  logic            take;                   // the offered flit moves into the packet register
  logic            push;                   // the arriving flit goes into the FIFO

  assign empty   = (cnt_q == '0);
  assign h_valid = empty ? s_valid : 1'b1;
  assign {h_vc, h_last, h_data} = empty ? {s_vc, s_last, s_data} : mem[rd_q];
  assign take    = h_valid && (!pkt_v_q || m_ready);
  assign push    = s_valid && !(empty && take);

  always_ff @(posedge clk) begin
    if (push) begin
      mem[wr_q] <= {s_vc, s_last, s_data};
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      wr_q     <= '0;
      rd_q     <= '0;
      cnt_q    <= '0;
      m_credit <= '0;
      m_ovf    <= 1'b0;
      pkt_v_q  <= 1'b0;
      idx_q    <= '0;
    end else begin
      if (push) begin
        wr_q <= wr_q + 1'b1;
        if (cnt_q == (AW+1)'(DEPTH)) m_ovf <= 1'b1;
      end
      if (take && !empty) begin
        rd_q <= rd_q + 1'b1;
      end
      cnt_q <= cnt_q + (AW+1)'(push) - (AW+1)'(take && !empty);
      m_credit <= '0;
      if (take) begin
        m_credit[h_vc] <= 1'b1;
      end
      if (m_valid && m_ready) begin
        pkt_v_q <= 1'b0;
      end
      if (take) begin
        if (h_last) begin
          pkt_v_q <= 1'b1;
          idx_q   <= '0;
        end else if (idx_q != 2'd3) begin
          idx_q   <= idx_q + 2'd1;
        end
      end
    end
  end

  always_ff @(posedge clk) begin
    if (take) begin
      case (idx_q)
        2'd0: begin
          f0_q <= h_data;
          f1_q <= '0;
          f2_q <= '0;
        end
        2'd1: f1_q <= h_data;
        2'd2: f2_q <= h_data;
        default: ;
      endcase
    end
  end

  assign m_valid = pkt_v_q;
  assign m_f0    = f0_q;
  assign m_f1    = f1_q;
  assign m_f2    = f2_q;

  // synthesis translate_off
  always_ff @(posedge clk) begin
    if (!rst && push && cnt_q == (AW+1)'(DEPTH)) begin
      $error("nic_net_rx: receive buffer overrun (credit protocol violated)");
    end
  end
  // synthesis translate_on

endmodule

`default_nettype wire
