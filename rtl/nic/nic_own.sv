// SPDX-License-Identifier: Apache-2.0
//
// nic_own: the node's holder (register block `own`, docs/security.md). A write
// of own.claim is an operation applied in hardware for the node the write came
// from (nic_cpuif_arb's m_src: the RRA request's source node, or this node for
// BAR0), never for a value software chooses, so of two hosts racing to claim a
// free node exactly one wins: the register file takes one access at a time.
//
//   1 claim           take the node if it is free or already the source's
//                     (a renewal); reloads the lease
//   2 release         free the node if the source holds it
//   3 forced release  free the node whoever holds it (the administrator);
//                     with a management node configured (own.mgmt valid)
//                     only from the management node or this node itself
//                     (BAR0), otherwise refused like a foreign claim
//
// A claim or release against another holder is refused: nothing changes but
// owner.last_* and the refused counter. The lease (own.lease, units of 1024
// cycles, 0 = none) counts down while the node is held and frees it when it
// runs out, (units - 1) to units periods after the last claim (a holder that
// crashed stops renewing). The written operation is
// visible in the register one cycle after the write (claim_wr is the write's
// swmod pulse), so the source is taken with the pulse and the operation a
// cycle later. While the node is held, nic_rra_rsp refuses other nodes'
// register writes (but not own.claim) and nic_pkt_dispatch discards their
// TLP_RAW injections; own.denied counts both. nic_smfu_gate refuses their
// SMFU requests; own.denied_smfu counts them.

`default_nettype none

module nic_own #(
  parameter int LEASE_TICK_LOG2 = 10   // cycles per lease unit: 2**LEASE_TICK_LOG2
) (
  // ---------------- clock and reset ----------------
  input  wire logic        clk,
  input  wire logic        rst,          // synchronous, active high

  // ---------------- own.claim write ----------------
  input  wire logic        claim_wr,     // own.claim.op swmod: the write is taken this cycle
  input  wire logic [15:0] claim_src,    // node the write comes from (nic_cpuif_arb m_src)
  input  wire logic [1:0]  claim_op,     // own.claim.op (the written value, a cycle later)
  input  wire logic [31:0] lease_units,  // own.lease.units
  input  wire logic [15:0] node_id,      // this node (BAR0 writes come from it)
  input  wire logic        mgmt_valid,   // own.mgmt.valid: forced release only from
  input  wire logic [15:0] mgmt_node,    //   own.mgmt.node or this node

  // ---------------- refusals by the units (nic_rra_unit) ----------------
  input  wire logic        ev_wr_denied,   // an RRA register write refused
  input  wire logic        ev_inj_denied,  // a TLP_RAW injection discarded
  input  wire logic        ev_smfu_denied, // an SMFU request refused (nic_smfu_gate)

  // ---------------- own.owner, own.lease_left, own.events ----------------
  output      logic [15:0] owner,
  output      logic        held,
  output      logic [15:0] last_src,
  output      logic        last_refused,
  output      logic [31:0] lease_left,
  output      logic [15:0] won,
  output      logic [15:0] refused,
  output      logic [15:0] expired,
  output      logic [15:0] forced,
  output      logic [31:0] denied_writes,  // own.denied
  output      logic [31:0] denied_tunnel,
  output      logic [31:0] denied_smfu     // own.denied_smfu
);

  // the operations of own.claim.op (enum own_op_e of hw/regs/extoll_nic.rdl)
  localparam logic [1:0] OP_CLAIM   = 2'(extoll_regs_pkg::own_op_e__claim);
  localparam logic [1:0] OP_RELEASE = 2'(extoll_regs_pkg::own_op_e__release);
  localparam logic [1:0] OP_FORCE   = 2'(extoll_regs_pkg::own_op_e__force);

  logic                       pend_q;     // a claim write was taken last cycle
  logic [15:0]                src_q;      // ... from this node
  logic [LEASE_TICK_LOG2-1:0] div_q;      // lease prescaler
  logic                       tick;
  logic                       mine;       // the source holds the node, or nobody does
  logic                       may_force;  // the source may force a release

  assign tick      = &div_q;
  assign mine      = !held || owner == src_q;
  assign may_force = !mgmt_valid || src_q == mgmt_node || src_q == node_id;

  always_ff @(posedge clk) begin
    if (rst) begin
      pend_q       <= 1'b0;
      src_q        <= '0;
      div_q        <= '0;
      owner        <= '0;
      held         <= 1'b0;
      last_src     <= '0;
      last_refused <= 1'b0;
      lease_left   <= '0;
      won          <= '0;
      refused      <= '0;
      expired      <= '0;
      forced       <= '0;
      denied_writes <= '0;
      denied_tunnel <= '0;
      denied_smfu   <= '0;
    end else begin
      if (ev_wr_denied) denied_writes <= denied_writes + 1'b1;
      if (ev_inj_denied) denied_tunnel <= denied_tunnel + 1'b1;
      if (ev_smfu_denied) denied_smfu <= denied_smfu + 1'b1;
      pend_q <= claim_wr;
      if (claim_wr) src_q <= claim_src;
      div_q <= div_q + 1'b1;
      if (pend_q && claim_op != 2'd0) begin
        last_src     <= src_q;
        last_refused <= claim_op == OP_FORCE ? !may_force : !mine;
        unique case (claim_op)
          OP_CLAIM: begin
            if (mine) begin
              owner      <= src_q;
              held       <= 1'b1;
              lease_left <= lease_units;
              won        <= won + 1'b1;
            end else begin
              refused    <= refused + 1'b1;
            end
          end
          OP_RELEASE: begin
            if (mine) begin
              held       <= 1'b0;
              lease_left <= '0;
            end else begin
              refused    <= refused + 1'b1;
            end
          end
          default: begin   // OP_FORCE
            if (!may_force) begin
              refused    <= refused + 1'b1;
            end else begin
              if (held) forced <= forced + 1'b1;
              held       <= 1'b0;
              lease_left <= '0;
            end
          end
        endcase
      end else if (tick && held && lease_left != '0) begin
        lease_left <= lease_left - 1'b1;
        if (lease_left == 32'd1) begin
          held    <= 1'b0;
          expired <= expired + 1'b1;
        end
      end
    end
  end

endmodule

`default_nettype wire
