// SPDX-License-Identifier: Apache-2.0
//
// nic_hip_cdc: the clock-domain crossing between a PCIe hard IP's adapter
// (IP user clock, ip_clk) and the NIC (core clock, core_clk), unrelated
// clocks (docs/hard-ip.md "Clock domains"):
//
//   TLPs into the NIC   async_fifo (beat, keep, sop, eop, BAR ID)
//   TLPs from the NIC   async_fifo (beat, keep, sop, eop)
//   PCIe state -> NIC   sync_bit, two flip-flops per bit (quasi-static: bus
//                       number, Command bits, MPS/MRRS, D3hot, MSI-X Enable,
//                       PBA bit)
//   MSI-X message sent  toggle, sync_bit, edge: one core pulse each (the IP
//                       reports them far apart: one message at a time)
//   RC packets dropped  counts of events through an async_fifo, one core
//                       pulse per event: exact for any burst (below)
//   MSI-X table entry   sync_bit, two flip-flops per bit (software writes it
//   -> adapter          long before it enables the vector)
//   interrupt cause     see below
//
// Interrupt after data: the cause (irq) crosses as a level, but only once the
// TLPs the NIC sent before it have left the transmit FIFO on the IP side
// (its s_idle): it is latched when irq && s_idle and dropped when irq goes
// away. On the IP side those TLPs are then in pcie_usp_tx, counted in rq_out,
// and the MSI-X request waits for their sequence numbers (order_ok). A
// multi-bit value that changes is seen torn for a cycle; none of these
// changes while it is used. Resets: ip_rst and core_rst, each synchronous to
// its clock, held together (async_fifo's rule). Every path between the two
// clocks starts or ends in async_fifo or sync_bit: the board's constraints
// (fw/boards/common/cdc.tcl) bound exactly those and time everything else as
// an error.

`default_nettype none
`include "tlp_stream.svh"

module nic_hip_cdc #(
  parameter int DEPTH_LOG2 = 4                     // entries of each TLP FIFO, log2
) (
  // ---------------- clocks and resets ----------------
  input  wire logic         ip_clk,
  input  wire logic         ip_rst,
  input  wire logic         core_clk,
  input  wire logic         core_rst,

  // ---------------- IP side: TLPs from the adapter, BAR ID ----------------
  `TLP_S_PORTS(s_ip),
  input  wire logic [2:0]   s_ip_bar_id,

  // ---------------- core side: TLPs into the NIC, BAR ID ----------------
  `TLP_M_PORTS(m_core),
  output      logic [2:0]   m_core_bar_id,

  // ---------------- core side: TLPs from the NIC ----------------
  `TLP_S_PORTS(s_core),

  // ---------------- IP side: TLPs to the adapter ----------------
  `TLP_M_PORTS(m_ip),

  // ---------------- PCIe state: IP side in, core side out ----------------
  input  wire logic [15:0]  ip_cpl_id,
  input  wire logic [11:0]  ip_state,              // {mem_en, bus_master, intx_disable, mps, mrrs, d3hot, msix_en, msix_pending}
  input  wire logic         ip_ev_msix,            // pulse
  input  wire logic         ip_ev_rc_err,          // pulse: an RC packet the adapter dropped
  output      logic [15:0]  core_cpl_id,
  output      logic [11:0]  core_state,
  output      logic         core_ev_msix,          // pulse
  output      logic         core_ev_rc_err,        // pulse

  // ---------------- interrupt: core side in, IP side out ----------------
  input  wire logic         core_irq,
  input  wire logic [63:0]  core_msix_addr,
  input  wire logic [31:0]  core_msix_data,
  input  wire logic         core_msix_mask,
  output      logic         ip_irq,
  output      logic [63:0]  ip_msix_addr,
  output      logic [31:0]  ip_msix_data,
  output      logic         ip_msix_mask
);

  localparam int DW = pcie_tlp_pkg::TLP_DATA_W;
  localparam int KW = pcie_tlp_pkg::TLP_KEEP_W;

  // ------------------------------------------------------------------
  // TLP FIFOs
  // ------------------------------------------------------------------
  logic rx_idle, tx_idle;

  async_fifo #(.W (DW + KW + 5), .DEPTH_LOG2 (DEPTH_LOG2)) u_rx_fifo (
    .s_clk (ip_clk), .s_rst (ip_rst),
    .s_data ({s_ip_bar_id, s_ip_sop, s_ip_eop, s_ip_keep, s_ip_data}),
    .s_valid (s_ip_valid), .s_ready (s_ip_ready), .s_idle (rx_idle),
    .m_clk (core_clk), .m_rst (core_rst),
    .m_data ({m_core_bar_id, m_core_sop, m_core_eop, m_core_keep, m_core_data}),
    .m_valid (m_core_valid), .m_ready (m_core_ready)
  );

  async_fifo #(.W (DW + KW + 2), .DEPTH_LOG2 (DEPTH_LOG2)) u_tx_fifo (
    .s_clk (core_clk), .s_rst (core_rst),
    .s_data ({s_core_sop, s_core_eop, s_core_keep, s_core_data}),
    .s_valid (s_core_valid), .s_ready (s_core_ready), .s_idle (tx_idle),
    .m_clk (ip_clk), .m_rst (ip_rst),
    .m_data ({m_ip_sop, m_ip_eop, m_ip_keep, m_ip_data}),
    .m_valid (m_ip_valid), .m_ready (m_ip_ready)
  );

  // ------------------------------------------------------------------
  // IP -> core: state (sync_bit); MSI-X sent (a toggle, sync_bit, edge: one
  // core pulse per IP pulse, IP pulses at least three core cycles apart)
  // ------------------------------------------------------------------
  logic        msix_tgl_q;
  logic        msix_s;
  logic        msix_d_q;

  always_ff @(posedge ip_clk) begin
    if (ip_rst) msix_tgl_q <= 1'b0;
    else msix_tgl_q <= msix_tgl_q ^ ip_ev_msix;
  end

  sync_bit #(.WIDTH (28)) u_st_sync (
    .clk (core_clk), .s_async ({ip_cpl_id, ip_state}), .m_sync ({core_cpl_id, core_state})
  );
  sync_bit #(.WIDTH (1)) u_ev_sync (.clk (core_clk), .s_async (msix_tgl_q), .m_sync (msix_s));

  always_ff @(posedge core_clk) begin
    if (core_rst) msix_d_q <= 1'b0;
    else msix_d_q <= msix_s;
  end
  assign core_ev_msix = !core_rst && (msix_s ^ msix_d_q);

  // ------------------------------------------------------------------
  // IP -> core: RC packets dropped. They can come on consecutive IP cycles
  // (a burst of stray completions), faster than a toggle can carry them, so
  // the IP side counts them (rc_acc_q, saturating at 31) and moves counts of
  // up to 15 through a FIFO whenever it has room; the core side turns each
  // count into as many pulses, one per cycle (rc_drain_q), taking the next
  // count in the cycle of the last pulse. Every event arrives while fewer
  // than 31 + 16 x 15 are on their way.
  // ------------------------------------------------------------------
  logic [4:0]  rc_acc_q;          // IP side: events not yet in the FIFO
  logic        rc_push, rc_room;
  logic [3:0]  rc_cnt;            // the count pushed this cycle
  logic [5:0]  rc_acc_nx;
  logic [3:0]  rc_pop_cnt, rc_drain_q;
  logic        rc_pop_v, rc_pop;
  /* verilator lint_off UNUSEDSIGNAL */
  logic        rc_idle;           // unused: nothing waits for the counts
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    rc_cnt = (rc_acc_q > 5'd15) ? 4'd15 : rc_acc_q[3:0];
    rc_push = (rc_acc_q != '0) && rc_room;
    rc_acc_nx = {1'b0, rc_acc_q} - (rc_push ? {2'b00, rc_cnt} : 6'd0) + {5'd0, ip_ev_rc_err};
  end

  always_ff @(posedge ip_clk) begin
    if (ip_rst) rc_acc_q <= '0;
    else rc_acc_q <= (rc_acc_nx > 6'd31) ? 5'd31 : rc_acc_nx[4:0];
  end

  async_fifo #(.W (4), .DEPTH_LOG2 (4)) u_rc_fifo (
    .s_clk (ip_clk), .s_rst (ip_rst),
    .s_data (rc_cnt), .s_valid (rc_push), .s_ready (rc_room), .s_idle (rc_idle),
    .m_clk (core_clk), .m_rst (core_rst),
    .m_data (rc_pop_cnt), .m_valid (rc_pop_v), .m_ready (rc_pop)
  );

  assign rc_pop = rc_drain_q <= 4'd1;

  always_ff @(posedge core_clk) begin
    if (core_rst) rc_drain_q <= '0;
    else if (rc_pop_v && rc_pop) rc_drain_q <= rc_pop_cnt;
    else if (rc_drain_q != '0) rc_drain_q <= rc_drain_q - 4'd1;
  end
  assign core_ev_rc_err = !core_rst && (rc_drain_q != '0);

  // ------------------------------------------------------------------
  // core -> IP: the cause once earlier TLPs are out of the FIFO; the entry
  // ------------------------------------------------------------------
  logic         irq_gate_q;

  always_ff @(posedge core_clk) begin
    if (core_rst) irq_gate_q <= 1'b0;
    else irq_gate_q <= core_irq && (irq_gate_q || tx_idle);
  end

  sync_bit #(.WIDTH (98)) u_ir_sync (
    .clk    (ip_clk),
    .s_async ({irq_gate_q, core_msix_mask, core_msix_data, core_msix_addr}),
    .m_sync ({ip_irq, ip_msix_mask, ip_msix_data, ip_msix_addr})
  );

  logic unused;
  assign unused = rx_idle;

endmodule

`default_nettype wire
