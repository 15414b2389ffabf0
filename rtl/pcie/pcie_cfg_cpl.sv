// SPDX-License-Identifier: Apache-2.0
//
// pcie_cfg_cpl: request handshake and completion of a configuration space
// (shared by pcie_cfg_t0 and pcie_cfg_t1).
//
// The request is the decoded header: fmt[1] tells a write, addr[31:19] the
// target bus/device (the completer ID), req_id/tag/tc/attr are echoed.
//
// Accepts one CfgRd0/CfgWr0 (Length 1) at a time and answers it: CplD with
// one dword (the register value read in the accepting cycle) for a read, Cpl
// for a write; status successful, byte count 4, lower address 0. The
// completer ID is the target ID of the request. While the completion is
// being sent the request side is not ready.
//
// Also keeps the function's own ID: the target bus and device number of the
// last CfgWr0 (PCIe rule: a function learns its bus and device number from
// the configuration writes it receives), for the completions of its other
// units.

`default_nettype none
`include "tlp_stream.svh"

// Package items are referenced by qualified name (pcie_tlp_pkg::...):
// Yosys does not read package imports inside modules.

module pcie_cfg_cpl
(
  // ---------------- clock and reset ----------------
  input  wire logic        clk,
  input  wire logic        rst,             // synchronous, active high

  // ---------------- request ----------------
  input  wire logic        req_valid,
  output      logic        req_ready,       // idle: no completion pending
  input  wire pcie_tlp_pkg::tlp_req_t req,  // decoded header (CfgRd0 / CfgWr0, Length 1)
  input  wire logic [31:0] req_rdata,       // register value (sampled on accept)

  // ---------------- own ID ----------------
  output      logic [15:0] cpl_id,          // {bus, device, function 0} of the last CfgWr0

  // ---------------- completion stream ----------------
  `TLP_M_PORTS(m_cpl)
);

  `include "pcie_tlp_func.svh"

  typedef enum logic [1:0] { S_IDLE, S_HDR, S_DATA } state_e;
  state_e                state_q;
  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] hdr_q;
  logic [31:0]           data_q;
  logic                  accept;

  assign req_ready = (state_q == S_IDLE);
  assign accept    = req_valid && req_ready;

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q <= S_IDLE;
    end else begin
      case (state_q)
        S_IDLE: if (accept) state_q <= S_HDR;
        S_HDR:  if (m_cpl_ready) state_q <= hdr_q[30] ? S_DATA : S_IDLE;
        S_DATA: if (m_cpl_ready) state_q <= S_IDLE;
        default: state_q <= S_IDLE;
      endcase
    end
  end

  always_ff @(posedge clk) begin
    if (accept) begin
      hdr_q  <= tlp_cpl_hdr(!req.fmt[1], 10'd1, {req.addr[31:19], 3'b000}, pcie_tlp_pkg::CPL_SC, 12'd4,
                            req.req_id, req.tag, 7'd0, req.tc, req.attr);
      data_q <= req_rdata;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      cpl_id <= 16'd0;
    end else if (accept && req.fmt[1]) begin
      cpl_id <= {req.addr[31:19], 3'b000};
    end
  end

  assign m_cpl_valid = (state_q != S_IDLE);
  assign m_cpl_sop   = (state_q == S_HDR);
  assign m_cpl_eop   = (state_q == S_DATA) || !hdr_q[30];
  assign m_cpl_data  = (state_q == S_DATA) ? {96'd0, data_q} : hdr_q;
  assign m_cpl_keep  = (state_q == S_DATA) ? 4'b0001 : 4'b0111;

  // Fields the configuration space decodes itself or the receive path checked.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{req.fmt[2], req.fmt[0], req.typ, req.ep, req.len, req.first_be, req.last_be,
                    req.addr[63:32], req.addr[18:0]};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
