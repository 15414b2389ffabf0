// SPDX-License-Identifier: Apache-2.0
//
// nic_fwd_pkt: packs a completion that the backdoor RX filter forwards
// (pcie_backdoor m_fwd, docs/remote-access.md "Config tunnel") into a
// TLP_RAW extract packet for the transmit mux (nic_net_tx), no storage:
//
//   header  dst = rx_filter.fwd_node, src = this node, table-routed,
//           cmd (net_cmd_tlp_t) = {rec = rx_fwd_addr[47:4], ndw, dir extract,
//           seq = seq of the last TLP_RAW inject this NIC received}
//   flit 1  the completion's header dwords 3..0
//   flit 2  its payload dwords 1..0 (only when it has payload)
//
// The seq echo lets the host match the answer to its request: software
// serialises tunnelled requests (one outstanding per NAA, tag 0xff).

`default_nettype none
`include "nic_pkt_port.svh"

module nic_fwd_pkt (
  // ---------------- configuration ----------------
  input  wire logic [15:0]   my_node,
  input  wire logic [15:0]   inj_seq,      // seq of the last injected TLP (nic_pkt_dispatch)

  // ---------------- forwarded completion (pcie_backdoor m_fwd) ----------------
  input  wire logic          s_valid,
  output      logic          s_ready,
  input  wire logic [127:0]  s_hdr,        // header dwords 3..0
  input  wire logic [63:0]   s_data,       // payload dwords 1..0
  input  wire logic [1:0]    s_data_dw,    // payload dwords (0..2)
  input  wire logic [15:0]   s_node,       // destination node (rx_filter.fwd_node)
  input  wire logic [63:0]   s_addr,       // record address (rx_fwd_addr)

  // ---------------- packet to the transmit mux ----------------
  `NIC_PKT_M_PORTS(m)
);

  net_pkg::net_hdr_t     h;
  net_pkg::net_cmd_tlp_t c;
  always_comb begin
    c       = '0;
    c.rec   = s_addr[47:4];
    c.ndw   = s_data_dw;
    c.dir   = net_pkg::NET_TLP_DIR_EXTRACT;
    c.seq   = inj_seq;
    h       = '0;
    h.dst   = s_node;
    h.src   = my_node;
    h.ptype = net_pkg::NET_TYPE_TLP_RAW;
    h.rmode = net_pkg::NET_RMODE_TABLE;
    h.plen  = (s_data_dw == 2'd0) ? 5'd1 : 5'd2;
    h.cmd   = c;
  end

  assign m_valid = s_valid;
  assign s_ready = m_ready;
  assign m_nflit = (s_data_dw == 2'd0) ? 2'd2 : 2'd3;
  assign m_f0    = h;
  assign m_f1    = s_hdr;
  assign m_f2    = {64'd0, s_data};

  logic unused;
  assign unused = ^{s_addr[63:48], s_addr[3:0]};

endmodule

`default_nettype wire
