// SPDX-License-Identifier: Apache-2.0
//
// pcie_err_mon: watches the header beats of one TLP stream (it never stalls
// it) and pulses the events the error bits of the configuration space are
// made of (PCIe Base Spec. 7.5.1.1.4 Status Register, 6.2.3.2 errors of a
// requester and a completer, 2.7.2 poisoned TLPs):
//   cpl_ur     a completion with status UR for one of OWN_TAGS's tags (a
//              requester receiving it sets Received Master Abort)
//   cpl_ca     a completion with status CA for one of our tags (Received
//              Target Abort); on the transmit stream, any CA completion
//              (Signaled Target Abort); use own = 0 there
//   poisoned   a TLP with EP = 1 (received: Detected Parity Error)
//   poisoned_cpl  a poisoned completion for one of our tags (received:
//              Master Data Parity Error if Parity Error Response is set)
//   poisoned_wr   a poisoned memory write (transmitted: Master Data Parity
//              Error if Parity Error Response is set)
// Our tags: (tag & ~(OWN_TAGS - 1)) == OWN_TAG_BASE; with OWN_TAGS = 0 every
// completion counts (the transmit side: the function is the completer).

`default_nettype none
`include "tlp_stream.svh"

module pcie_err_mon #(
  parameter logic [7:0] OWN_TAG_BASE = 8'h80,   // first tag of the function's requests
  parameter int         OWN_TAGS     = 16       // tags of its requests (power of two); 0: all
) (
  input  wire logic                                clk,
  input  wire logic                                rst,
  // ---------------- the watched stream (not driven) ----------------
  input  wire logic [pcie_tlp_pkg::TLP_DATA_W-1:0] tlp_data,
  input  wire logic                                tlp_sop,
  input  wire logic                                tlp_valid,
  input  wire logic                                tlp_ready,
  // ---------------- event pulses (registered) ----------------
  output      logic                                cpl_ur,
  output      logic                                cpl_ca,
  output      logic                                poisoned,
  output      logic                                poisoned_cpl,
  output      logic                                poisoned_wr
);

  logic [31:0] dw0, dw1, dw2;
  logic        hdr, is_cpl, is_mwr, own;
  logic [2:0]  status;

  assign dw0    = tlp_data[31:0];
  assign dw1    = tlp_data[63:32];
  assign dw2    = tlp_data[95:64];
  assign hdr    = tlp_valid && tlp_ready && tlp_sop;
  // Fmt/Type: Cpl 000/01010, CplD 010/01010; MWr 010|011/00000
  assign is_cpl = !dw0[31] && !dw0[29] && dw0[28:24] == pcie_tlp_pkg::TYPE_CPL;
  assign is_mwr = !dw0[31] && dw0[30] && dw0[28:24] == pcie_tlp_pkg::TYPE_MEM;
  assign status = dw1[15:13];
  // completion tag: header dword 2 bits 15:8
  assign own    = (OWN_TAGS == 0) || ((dw2[15:8] & ~8'(OWN_TAGS - 1)) == OWN_TAG_BASE);

  always_ff @(posedge clk) begin
    if (rst) begin
      cpl_ur       <= 1'b0;
      cpl_ca       <= 1'b0;
      poisoned     <= 1'b0;
      poisoned_cpl <= 1'b0;
      poisoned_wr  <= 1'b0;
    end else begin
      cpl_ur       <= hdr && is_cpl && own && status == pcie_tlp_pkg::CPL_UR;
      cpl_ca       <= hdr && is_cpl && own && status == pcie_tlp_pkg::CPL_CA;
      poisoned     <= hdr && dw0[14];
      poisoned_cpl <= hdr && dw0[14] && is_cpl && own;
      poisoned_wr  <= hdr && dw0[14] && is_mwr;
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{tlp_data[pcie_tlp_pkg::TLP_DATA_W-1:96], dw0[23:15], dw0[13:0], dw1[31:16],
                    dw1[12:0], dw2[31:16], dw2[7:0]};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
