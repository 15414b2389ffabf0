// SPDX-License-Identifier: Apache-2.0
//
// nq_ring: state of the notification queue (docs/smfu.md "Interrupts"): the
// producer index, where the next 16-byte entry goes and its phase, whether
// the ring has room (prod - cons < 2^log2_entries, ring enabled), and the
// counters. The entry itself is written by the pass-through receiver
// (smfu_in MODE 1) on its in-order TLP path; it pulses nq_push once the
// entry's MWr has left the NIC (its eop beat taken at the TLP output), so
// neither the producer index nor the interrupt cause can be seen before the
// entry (docs/pcie-rules.md, row 6); and nq_stall once per event that found the ring full
// and is being held back. A disabled ring drops events (nq_off).

`default_nettype none

module nq_ring
(
  // ---------------- clock and reset ----------------
  input  wire logic        clk,
  input  wire logic        rst,             // synchronous, active high

  // ---------------- configuration (notify block) ----------------
  input  wire logic        cfg_enable,      // ring_ctrl.enable
  input  wire logic [3:0]  cfg_log2,        // ring_ctrl.log2_entries (below 4: 4; at most 15)
  input  wire logic [63:0] cfg_ring_base,   // ring_base (16-byte aligned)
  input  wire logic [31:0] cfg_cons,        // cons (written by software)

  // ---------------- entry producer (smfu_in MODE 1) ----------------
  output      logic        nq_ready,        // an entry may be written now
  output      logic        nq_off,          // ring disabled: events are dropped (not held)
  output      logic [63:0] nq_addr,         // address of the next entry
  output      logic        nq_phase,        // phase bit of the next entry
  input  wire logic        nq_push,         // the entry's MWr has left the NIC: advance prod
  input  wire logic        nq_stall,        // an event is held back (ring full)

  // ---------------- status (to the register file) ----------------
  output      logic [31:0] st_prod,         // notify.prod
  output      logic [31:0] st_full_stalls,  // notify.full_stalls
  output      logic [31:0] st_events,       // notify.events
  output      logic        irq_notify       // pulse with nq_push: info.irq_status.notify hwset
);

  logic [31:0] prod_q, used, size, mask;
  logic [3:0]  lg;

  always_comb begin
    lg = cfg_log2;
    if (lg < 4'd4)  lg = 4'd4;
    size     = 32'd1 << lg;
    mask     = size - 32'd1;
    used     = prod_q - cfg_cons;
    nq_ready = cfg_enable && used < size;
    nq_off   = !cfg_enable;
    nq_addr  = cfg_ring_base + {28'd0, prod_q & mask, 4'b0000};
    nq_phase = (prod_q & size) == 32'd0;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      prod_q         <= '0;
      st_full_stalls <= '0;
      st_events      <= '0;
    end else begin
      if (nq_push) begin
        prod_q    <= prod_q + 32'd1;
        st_events <= st_events + 32'd1;
      end
      if (nq_stall) st_full_stalls <= st_full_stalls + 32'd1;
    end
  end

  assign st_prod = prod_q;
  // combinational: the status bit (a register-file flop) sets at the edge
  // that also advances prod_q, the cycle the entry's eop left the NIC
  assign irq_notify = nq_push;

endmodule

`default_nettype wire
