// SPDX-License-Identifier: Apache-2.0
//
// accel_beat_fifo: the output stage of an accelerator TLP source (accel_target,
// accel_job): a small FIFO of beats toward accel_tx_arb. The source pushes at
// most one beat per cycle and only while `credit` is set, so the FIFO never
// overflows and s_valid needs no ready: a push decided in one cycle (whose
// data, e.g. a memory read, arrives the next) always has room.
//
// credit = the FIFO has room for one more beat beside the one being pushed.

`default_nettype none

// Package items are referenced by qualified name (accel_pkg::...): Yosys reads
// no package imports inside modules.

module accel_beat_fifo #(
  parameter int DEPTH = 4                       // beats (>= 2)
) (
  // ---------------- clock and reset (synchronous, active high) ----------------
  input  wire logic             clk,
  input  wire logic             rst,

  // ---------------- beats from the source ----------------
  input  wire logic             s_valid,        // push (only while credit was set)
  input  wire accel_pkg::beat_t s_beat,
  output      logic             credit,         // room for a push in the next cycle
  output      logic             empty,          // no beat stored

  // ---------------- beats toward accel_tx_arb ----------------
  output      logic             m_valid,
  output      accel_pkg::beat_t m_beat,
  input  wire logic             m_ready
);

  logic [$clog2(DEPTH):0] count;

  assign credit = (32'(count) + 32'(s_valid)) < DEPTH;
  assign empty  = count == '0;

  // Never full: pushes start only while the credit allows them.
  /* verilator lint_off UNUSEDSIGNAL */
  logic s_ready;
  /* verilator lint_on UNUSEDSIGNAL */

  sync_fifo #(.WIDTH(accel_pkg::BEAT_W), .DEPTH(DEPTH)) u_fifo (
    .clk, .rst,
    .s_valid, .s_data(s_beat), .s_ready,
    .m_valid, .m_data(m_beat), .m_ready,
    .count
  );

endmodule

`default_nettype wire
