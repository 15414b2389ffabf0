// SPDX-License-Identifier: Apache-2.0
//
// nic_reg_hw: the small pieces of hardware behind the NIC's register file
// (docs/nic.md "Registers served by the top") that are not a unit of their own:
//
//   node       node_id / dateline in use (info.id.node_id, every unit's own
//              node; the router's dateline): router.node.{id, dateline}
//              once software has set router.node.valid (in-band bring-up),
//              else the straps: cfg_node_id | NODE_ID and cfg_dateline,
//              registered once. A copy of router.node taken at each write of
//              it lives in the network's reset domain (net_rst): a function
//              reset clears the register but not the id and dateline in use
//   cycles     free-running cycle counter (info.cycles)
//   rt_entry   a write with the commit bit enabled stores the entry into the
//              router's tables the cycle after the write, when the new field
//              values are visible: {inport, dest[TBL_AW-1:0]} <- {valid,
//              vcrule, outport[2:0]}
//   links      crc_sum / replay_sum = bad symbols / replays summed over the
//              links (router.crc_errors, router.replays); link_up[l] = link
//              l's state machine is UP; sel_* = the counters of link link_sel
//              (router.link_*); net_ovf = a network buffer overran (router or
//              local port 0)
//   interrupt  irq_pending = any enabled cause pending (test, notify)
//
// Synchronous to clk, reset rst (the function's, sync, high); the node copy:
// net_rst (the node's).

`default_nettype none

module nic_reg_hw #(
  parameter logic [15:0] NODE_ID = 16'd0,  // ORed with the cfg_node_id strap
  parameter int          TBL_AW  = 6,      // routing table index bits
  parameter int          NL      = 7       // network links
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,            // the function's reset, synchronous, active high
  input  wire logic                  net_rst,        // the node's reset (network domain), synchronous, active high

  // ---------------- straps ----------------
  input  wire logic [15:0]           cfg_node_id,
  input  wire logic [6:0]            cfg_dateline,
  input  wire logic                  node_wr,        // router.node written (swmod)
  input  wire logic                  node_valid,     // router.node.valid
  input  wire logic [15:0]           node_reg_id,    // router.node.id
  input  wire logic [6:0]            node_reg_dl,    // router.node.dateline
  output      logic [15:0]           node_id,        // in use: register or cfg_node_id | NODE_ID
  output      logic [6:0]            dateline,       // in use: register or cfg_dateline

  // ---------------- info ----------------
  output      logic [63:0]           cycles,         // info.cycles

  // ---------------- router.rt_entry -> net_node tables ----------------
  input  wire logic                  rt_commit,      // rt_entry.commit written (swmod)
  input  wire logic [3:0]            rt_inport,
  input  wire logic [TBL_AW-1:0]     rt_dest,        // rt_entry.dest[TBL_AW-1:0]
  input  wire logic                  rt_valid,
  input  wire logic [1:0]            rt_vcrule,
  input  wire logic [2:0]            rt_outport,     // rt_entry.outport[2:0]
  output      logic                  tbl_we,
  output      logic [TBL_AW+3:0]     tbl_addr,
  output      logic [5:0]            tbl_wdata,

  // ---------------- links ----------------
  input  wire logic [NL-1:0][31:0]   crc_err_cnt,    // net_node, per link
  input  wire logic [NL-1:0][31:0]   replay_cnt,
  input  wire logic [NL-1:0][31:0]   nak_tx_cnt,
  input  wire logic [NL-1:0][31:0]   nak_rx_cnt,
  input  wire logic [NL-1:0][31:0]   down_cnt,
  input  wire logic [NL-1:0][1:0]    link_state,     // net_lstate_e per link
  input  wire logic [2:0]            link_sel,       // router.link_sel
  output      logic [31:0]           crc_sum,        // router.crc_errors
  output      logic [31:0]           replay_sum,     // router.replays
  output      logic [NL-1:0]         link_up,        // router.link_status.up
  output      logic [4:0][31:0]      sel_cnt,        // link link_sel: crc, naks sent, rcvd, replays, downs
  input  wire logic                  node_ovf,       // net_node: sticky overrun
  input  wire logic                  rx_ovf,         // nic_net_rx: sticky overrun
  output      logic                  net_ovf,        // either (must stay 0)

  // ---------------- interrupt ----------------
  input  wire logic [1:0]            irq_status,     // info.irq_status {notify, test}
  input  wire logic [1:0]            irq_enable,     // info.irq_enable {notify, test}
  output      logic                  irq_pending     // masked by INTx disable in pcie_ep
);

  // The straps are static (set before reset is released). One register stage
  // keeps them out of the combinational logic: a Verilated model must otherwise
  // re-evaluate the whole router (routing, allocation, crossbar) and the header
  // builders on every eval() because they depend on top-level inputs.
  // The register values are copied the cycle after their write (when the new
  // values are visible) into the network's domain: a write takes effect one
  // cycle after it, and a function reset leaves the copy alone.
  logic        node_wr_q, nv_q;
  logic [15:0] nid_q;
  logic [6:0]  ndl_q;
  always_ff @(posedge clk) begin
    if (net_rst) begin
      node_wr_q <= 1'b0;
      nv_q      <= 1'b0;
      nid_q     <= '0;
      ndl_q     <= '0;
    end else begin
      node_wr_q <= node_wr && !rst;
      if (node_wr_q && !rst) begin
        nv_q  <= node_valid;
        nid_q <= node_reg_id;
        ndl_q <= node_reg_dl;
      end
    end
  end
  always_ff @(posedge clk) begin
    node_id  <= nv_q ? nid_q : (cfg_node_id | NODE_ID);
    dateline <= nv_q ? ndl_q : cfg_dateline;
  end

  always_ff @(posedge clk) begin
    if (rst) cycles <= 64'd0;
    else     cycles <= cycles + 64'd1;
  end

  always_ff @(posedge clk) begin
    if (rst) tbl_we <= 1'b0;
    else     tbl_we <= rt_commit;
  end
  assign tbl_addr  = {rt_inport, rt_dest};
  assign tbl_wdata = {rt_valid, rt_vcrule, rt_outport};

  // Sums and the selected link's counters registered (a register read sees
  // them one cycle late).
  logic [31:0] sum_crc, sum_replay;
  always_comb begin
    sum_crc    = '0;
    sum_replay = '0;
    for (int l = 0; l < NL; l++) begin
      sum_crc    = sum_crc + crc_err_cnt[l];
      sum_replay = sum_replay + replay_cnt[l];
    end
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      crc_sum    <= '0;
      replay_sum <= '0;
      link_up    <= '0;
      sel_cnt    <= '0;
    end else begin
      crc_sum    <= sum_crc;
      replay_sum <= sum_replay;
      sel_cnt    <= '0;
      for (int l = 0; l < NL; l++) begin
        link_up[l] <= link_state[l] == net_pkg::NET_LSTATE_UP;
        if (int'(link_sel) == l) sel_cnt <= {down_cnt[l], replay_cnt[l], nak_rx_cnt[l], nak_tx_cnt[l], crc_err_cnt[l]};
      end
    end
  end

  assign net_ovf = node_ovf || rx_ovf;

  assign irq_pending = |(irq_status & irq_enable);

endmodule

`default_nettype wire
