// SPDX-License-Identifier: Apache-2.0
//
// pcie_cpl_ur: answers a non-posted request with a completion of status
// Unsupported Request (one header-only Cpl beat). For memory reads the byte
// count and lower address are those of the request (as a first completion
// would carry them); for every other request (config, IO, AtomicOps) byte
// count is 4 and lower address 0. The completion carries the request's
// requester ID, tag, traffic class and attributes.

`default_nettype none
`include "tlp_stream.svh"

// Package items are referenced by qualified name (pcie_tlp_pkg::...):
// Yosys does not read package imports inside modules.

module pcie_cpl_ur
(
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,          // synchronous, active high

  // ---------------- request to reject (from pcie_ep_rx) ----------------
  input  wire logic                  req_valid,
  output      logic                  req_ready,
  input  wire pcie_tlp_pkg::tlp_req_t              req,

  // ---------------- completer ID (from pcie_cfg_t0) ----------------
  input  wire logic [15:0]           cpl_id,

  // ---------------- completion stream (to the transmit arbiter) ----------------
  `TLP_M_PORTS(m_cpl)
);

  `include "pcie_tlp_func.svh"

  logic                  valid_q;
  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] hdr_q;
  logic                  is_mrd;
  logic [11:0]           bc;
  logic [6:0]            la;

  always_comb begin
    is_mrd = (req.typ == pcie_tlp_pkg::TYPE_MEM || req.typ == pcie_tlp_pkg::TYPE_MEM_LK) && !req.fmt[1] && !req.fmt[2];
    bc     = is_mrd ? tlp_mrd_byte_count(req.len, req.first_be, req.last_be) : 12'd4;
    la     = is_mrd ? tlp_mrd_lower_addr(req.addr[6:2], req.first_be) : 7'd0;
  end

  assign req_ready = !valid_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      valid_q <= 1'b0;
    end else if (req_valid && req_ready) begin
      valid_q <= 1'b1;
    end else if (m_cpl_ready) begin
      valid_q <= 1'b0;
    end
  end

  always_ff @(posedge clk) begin
    if (req_valid && req_ready) begin
      hdr_q <= tlp_cpl_hdr(1'b0, 10'd0, cpl_id, pcie_tlp_pkg::CPL_UR, bc, req.req_id, req.tag, la,
                           req.tc, req.attr);
    end
  end

  assign m_cpl_data  = hdr_q;
  assign m_cpl_keep  = 4'b0111;
  assign m_cpl_sop   = 1'b1;
  assign m_cpl_eop   = 1'b1;
  assign m_cpl_valid = valid_q;

  // A poisoned request is rejected like any other; EP is not echoed.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = req.ep;
  /* verilator lint_on UNUSEDSIGNAL */


endmodule

`default_nettype wire
