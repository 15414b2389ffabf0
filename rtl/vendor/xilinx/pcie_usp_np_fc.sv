// SPDX-License-Identifier: Apache-2.0
//
// pcie_usp_np_fc: non-posted flow control toward a Xilinx UltraScale+ PCIe
// (PCIE4) hard IP (docs/hard-ip.md "Non-posted flow control").
//
// The IP forwards a non-posted request on CQ only against a credit the user
// logic asked for on pcie_cq_np_req (one per cycle it is asserted; the IP's
// counter saturates at 32, PG213 "Completer Request Non-Posted Flow Control")
// and holds the others back while posted requests pass them. This unit asks
// for a credit only while
//
//   credits held by the IP + non-posted requests in the NIC < NP_MAX
//
// so at most NP_MAX non-posted requests are ever inside the NIC, and the
// NIC's receive path never has to stop on tready for one (posted writes
// behind a slow aperture read are not held up). `np_cred` mirrors the IP's
// counter (+1 for each cycle pcie_cq_np_req is asserted, -1 for each
// non-posted request accepted on CQ); `np_open` counts the requests accepted
// and not yet answered: -1 at the header beat of the last completion of a
// request on CC (a status other than SC, no payload, or byte count + lower
// address [1:0] <= 4 x dword count: the completion carries the remaining
// bytes). Every non-posted request the NIC takes is answered (UR or CA at
// worst), so no credit is lost.
//
// Parameters:
//   NP_MAX  non-posted requests the NIC may hold (<= 32): the SMFU's read tags
//           are enough for all of them, so none waits in the receive path
//
// Synchronous to clk (the IP's user_clk), rst.

`default_nettype none

module pcie_usp_np_fc #(
  parameter int NP_MAX = 16
) (
  // ---------------- clock and reset ----------------
  input  wire logic         clk,
  input  wire logic         rst,             // synchronous, active high

  // ---------------- CQ: a non-posted request accepted ----------------
  input  wire logic         np_in,           // pulse: header beat of a non-posted request taken

  // ---------------- CC: the completions leaving for the IP ----------------
  input  wire logic [95:0]  cc_desc,         // m_axis_cc_tdata[95:0]: the descriptor on the first beat
  input  wire logic         cc_first,        // this beat is the first of a CC packet
  input  wire logic         cc_fire,         // m_axis_cc_tvalid && m_axis_cc_tready

  // ---------------- to the IP ----------------
  output      logic [1:0]   pcie_cq_np_req,  // 2'b01: one credit this cycle

  // ---------------- status ----------------
  output      logic [5:0]   np_open          // non-posted requests in the NIC, not yet answered
);

  localparam int CW = 6;

  logic [CW-1:0] cred_q, open_q;
  logic          req;
  logic          live_q = 1'b0;                 // a reset has been seen (cred_q mirrors the IP's counter)
  logic          last_cpl;
  logic [12:0]   bc;
  logic [13:0]   room;

  // the last completion of a request: CC descriptor (PG213) lower address
  // [6:0], byte count [28:16], dword count [42:32], status [45:43]
  assign bc       = cc_desc[28:16];
  assign room     = {1'b0, cc_desc[42:32], 2'b00};
  assign last_cpl = cc_desc[45:43] != 3'd0 || cc_desc[42:32] == 11'd0 ||
                    {1'b0, bc} + {12'd0, cc_desc[1:0]} <= room;

  // none before the first reset and none during one: the IP counts every
  // cycle the request is asserted, and its counter starts with ours
  assign req = live_q && !rst && {1'b0, cred_q} + {1'b0, open_q} < (CW+1)'(NP_MAX);

  always_ff @(posedge clk) begin
    if (rst) begin
      live_q <= 1'b1;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      cred_q <= '0;
      open_q <= '0;
    end else begin
      cred_q <= cred_q + CW'(req) - CW'(np_in && cred_q != '0);
      open_q <= open_q + CW'(np_in) - CW'(cc_fire && cc_first && last_cpl && open_q != '0);
    end
  end

  assign pcie_cq_np_req = {1'b0, req};

  // NP_MAX <= 32: the IP's counter never saturates, cred_q mirrors it
  if (NP_MAX < 1 || NP_MAX > 32) begin : g_np_max
    $error("pcie_usp_np_fc: NP_MAX must be 1..32");
  end
  assign np_open        = open_q;

  logic unused;
  assign unused = ^{cc_desc[95:46], cc_desc[31:29], cc_desc[15:2]};

endmodule

`default_nettype wire
