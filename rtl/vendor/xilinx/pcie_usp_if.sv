// SPDX-License-Identifier: Apache-2.0
//
// pcie_usp_if: adapter from a Xilinx UltraScale+ PCIe (PCIE4) hard IP,
// configured with 128-bit AXI-Stream interfaces, dword alignment, no
// straddling, to the NIC's TLP stream (docs/tlp-interface.md) and PCIe state
// (docs/hard-ip.md), endpoint mode. Wiring only:
//
//   CQ --> pcie_usp_cq --+--> pcie_tlp_arb --> m_tlp (+ BAR ID side band)
//          np_in, CC descriptors --> pcie_usp_np_fc --> pcie_cq_np_req
//   RC --> pcie_usp_rc --+    requests and the completions for the NIC's reads
//   s_tlp --> pcie_usp_tx --+--> pcie_usp_cc --> CC           completions
//                           +--> pcie_usp_rq --> RQ           requests (MWr, MRd)
//             rq_out / order_ok <-- pcie_rq_seq_num_vld0/1
//   irq, MSI-X table entry --> pcie_usp_msix --> cfg_interrupt_msix_*
//   cfg_* status --> cpl_id, mem_en, bus_master, intx_disable, mps, mrrs, d3hot
//
// The IP owns the Type-0 configuration space, BAR decode, MSI-X capability
// and AER; the NIC's own config space logic (pcie_cfg_t0) is not used.
// The BAR ID travels with the beats through the merge (completions: 7, no
// BAR). Synchronous to the IP's user_clk (clk) and user_reset (rst).

`default_nettype none
`include "tlp_stream.svh"

module pcie_usp_if #(
  parameter int NP_MAX    = 16,                    // non-posted requests inside the NIC (pcie_usp_np_fc)
  parameter int CQ_USER_W = 88,                    // tuser widths of the 128-bit IP interfaces
  parameter int CC_USER_W = 33,
  parameter int RQ_USER_W = 62,
  parameter int RC_USER_W = 75
) (
  // ---------------- clock and reset (IP user_clk, user_reset) ----------------
  input  wire logic                 clk,
  input  wire logic                 rst,

  // ---------------- CQ: requests from the link ----------------
  input  wire logic [127:0]         s_axis_cq_tdata,
  input  wire logic [3:0]           s_axis_cq_tkeep,
  input  wire logic                 s_axis_cq_tlast,
  input  wire logic [CQ_USER_W-1:0] s_axis_cq_tuser,
  input  wire logic                 s_axis_cq_tvalid,
  output      logic                 s_axis_cq_tready,
  output      logic [1:0]           pcie_cq_np_req,

  // ---------------- CC: completions to the link ----------------
  output      logic [127:0]         m_axis_cc_tdata,
  output      logic [3:0]           m_axis_cc_tkeep,
  output      logic                 m_axis_cc_tlast,
  output      logic [CC_USER_W-1:0] m_axis_cc_tuser,
  output      logic                 m_axis_cc_tvalid,
  input  wire logic                 m_axis_cc_tready,

  // ---------------- RQ: requests to the link ----------------
  output      logic [127:0]         m_axis_rq_tdata,
  output      logic [3:0]           m_axis_rq_tkeep,
  output      logic                 m_axis_rq_tlast,
  output      logic [RQ_USER_W-1:0] m_axis_rq_tuser,
  output      logic                 m_axis_rq_tvalid,
  input  wire logic                 m_axis_rq_tready,
  input  wire logic [5:0]           pcie_rq_seq_num0,
  input  wire logic                 pcie_rq_seq_num_vld0,
  input  wire logic [5:0]           pcie_rq_seq_num1,
  input  wire logic                 pcie_rq_seq_num_vld1,

  // ---------------- RC: completions from the link ----------------
  input  wire logic [127:0]         s_axis_rc_tdata,
  input  wire logic [3:0]           s_axis_rc_tkeep,
  input  wire logic                 s_axis_rc_tlast,
  input  wire logic [RC_USER_W-1:0] s_axis_rc_tuser,
  input  wire logic                 s_axis_rc_tvalid,
  output      logic                 s_axis_rc_tready,

  // ---------------- configuration status of the IP ----------------
  input  wire logic [7:0]           cfg_bus_number,
  input  wire logic [15:0]          cfg_function_status,   // function 0: [0] IO, [1] Mem, [2] BME, [3] INTx disable
  input  wire logic [1:0]           cfg_max_payload,       // 0: 128 B .. 3: 1024 B
  input  wire logic [2:0]           cfg_max_read_req,
  input  wire logic [11:0]          cfg_function_power_state, // function 0: [2:0], 3 = D3hot

  // ---------------- MSI-X interface of the IP ----------------
  input  wire logic [3:0]           cfg_interrupt_msix_enable,
  input  wire logic [3:0]           cfg_interrupt_msix_mask,
  output      logic [63:0]          cfg_interrupt_msix_address,
  output      logic [31:0]          cfg_interrupt_msix_data,
  output      logic                 cfg_interrupt_msix_int,
  input  wire logic                 cfg_interrupt_msix_sent,
  input  wire logic                 cfg_interrupt_msix_fail,
  output      logic [7:0]           cfg_interrupt_msi_function_number,

  // ---------------- TLPs into the NIC ----------------
  `TLP_M_PORTS(m_tlp),
  output      logic [2:0]           m_tlp_bar_id,          // with the header beat
  output      logic [5:0]           m_tlp_bar_aperture,

  // ---------------- TLPs from the NIC ----------------
  `TLP_S_PORTS(s_tlp),

  // ---------------- PCIe state for the NIC ----------------
  output      logic [15:0]          cpl_id,                // {bus, device 0, function 0}
  output      logic                 mem_en,
  output      logic                 bus_master,
  output      logic                 intx_disable,
  output      logic [2:0]           dev_mps,
  output      logic [2:0]           dev_mrrs,
  output      logic                 d3hot,

  // ---------------- interrupt ----------------
  input  wire logic                 irq,                   // an enabled cause is pending
  input  wire logic [63:0]          msix_addr,             // MSI-X table entry 0 (BAR0)
  input  wire logic [31:0]          msix_data,
  input  wire logic                 msix_mask,
  output      logic                 msix_en,
  output      logic                 msix_pending,
  output      logic                 ev_msix,               // pulse: a message was sent
  output      logic [6:0]           rq_out,                // requests not yet on the link
  output      logic [5:0]           np_open,               // non-posted requests in the NIC, not yet answered
  output      logic                 ev_rc_err              // pulse: RC packet with an error code dropped
);

  `TLP_WIRES(cpl);
  `TLP_WIRES(req);
  logic order_ok;

  // ------------------------------------------------------------------
  // Receive: CQ and RC merged a TLP at a time, BAR ID and aperture as
  // extra data bits [136:128] of the merge
  // ------------------------------------------------------------------
  localparam int MW = pcie_tlp_pkg::TLP_DATA_W + 9;
  `TLP_WIRES(cq);
  `TLP_WIRES(rc);
  logic              np_in;
  logic              cc_in_pkt_q;               // a CC packet is in progress (next beat is not its first)
  logic [2:0]        cq_bar_id;
  logic [5:0]        cq_bar_aperture;
  logic [2*MW-1:0]   mx_data;
  logic [7:0]        mx_keep;
  logic [1:0]        mx_sop, mx_eop, mx_valid, mx_ready;
  logic [MW-1:0]     mo_data;

  pcie_usp_cq #(.CQ_USER_W (CQ_USER_W)) u_cq (
    .clk, .rst,
    .s_axis_cq_tdata, .s_axis_cq_tkeep, .s_axis_cq_tlast, .s_axis_cq_tuser,
    .s_axis_cq_tvalid, .s_axis_cq_tready, .np_in,
    `TLP_CONNECT(m_tlp, cq),
    .m_tlp_bar_id (cq_bar_id), .m_tlp_bar_aperture (cq_bar_aperture)
  );

  pcie_usp_rc #(.RC_USER_W (RC_USER_W)) u_rc (
    .clk, .rst,
    .s_axis_rc_tdata, .s_axis_rc_tkeep, .s_axis_rc_tlast, .s_axis_rc_tuser,
    .s_axis_rc_tvalid, .s_axis_rc_tready,
    `TLP_CONNECT(m_tlp, rc),
    .ev_err (ev_rc_err)
  );

  assign mx_data  = {{3'd7, 6'd0, rc_data}, {cq_bar_id, cq_bar_aperture, cq_data}};
  assign mx_keep  = {rc_keep, cq_keep};
  assign mx_sop   = {rc_sop, cq_sop};
  assign mx_eop   = {rc_eop, cq_eop};
  assign mx_valid = {rc_valid, cq_valid};
  assign cq_ready = mx_ready[0];
  assign rc_ready = mx_ready[1];

  pcie_tlp_arb #(.N (2), .DATA_W (MW), .KEEP_W (4)) u_rx_merge (
    .clk, .rst,
    .s_data (mx_data), .s_keep (mx_keep), .s_sop (mx_sop), .s_eop (mx_eop),
    .s_valid (mx_valid), .s_ready (mx_ready),
    .m_data (mo_data), .m_keep (m_tlp_keep), .m_sop (m_tlp_sop), .m_eop (m_tlp_eop),
    .m_valid (m_tlp_valid), .m_ready (m_tlp_ready)
  );
  assign m_tlp_data         = mo_data[pcie_tlp_pkg::TLP_DATA_W-1:0];
  assign m_tlp_bar_aperture = mo_data[pcie_tlp_pkg::TLP_DATA_W +: 6];
  assign m_tlp_bar_id       = mo_data[pcie_tlp_pkg::TLP_DATA_W + 6 +: 3];

  pcie_usp_tx u_tx (
    .clk, .rst,
    `TLP_CONNECT(s_tlp, s_tlp),
    `TLP_CONNECT(m_cpl, cpl),
    `TLP_CONNECT(m_req, req),
    .pcie_rq_seq_num_vld0, .pcie_rq_seq_num_vld1,
    .order_ok, .rq_out
  );

  pcie_usp_cc #(.CC_USER_W (CC_USER_W)) u_cc (
    .clk, .rst,
    `TLP_CONNECT(s_tlp, cpl),
    .m_axis_cc_tdata, .m_axis_cc_tkeep, .m_axis_cc_tlast, .m_axis_cc_tuser,
    .m_axis_cc_tvalid, .m_axis_cc_tready
  );

  // ------------------------------------------------------------------
  // Non-posted flow control: credits for at most NP_MAX requests inside
  // ------------------------------------------------------------------
  always_ff @(posedge clk) begin
    if (rst) begin
      cc_in_pkt_q <= 1'b0;
    end else if (m_axis_cc_tvalid && m_axis_cc_tready) begin
      cc_in_pkt_q <= !m_axis_cc_tlast;
    end
  end

  pcie_usp_np_fc #(.NP_MAX (NP_MAX)) u_np (
    .clk, .rst,
    .np_in,
    .cc_desc  (m_axis_cc_tdata[95:0]),
    .cc_first (!cc_in_pkt_q),
    .cc_fire  (m_axis_cc_tvalid && m_axis_cc_tready),
    .pcie_cq_np_req,
    .np_open
  );

  pcie_usp_rq #(.RQ_USER_W (RQ_USER_W)) u_rq (
    .clk, .rst,
    `TLP_CONNECT(s_tlp, req),
    .m_axis_rq_tdata, .m_axis_rq_tkeep, .m_axis_rq_tlast, .m_axis_rq_tuser,
    .m_axis_rq_tvalid, .m_axis_rq_tready
  );

  pcie_usp_msix u_msix (
    .clk, .rst,
    .irq, .bus_master,
    .vec_addr (msix_addr[63:2]),
    .vec_data (msix_data),
    .vec_mask (msix_mask),
    .order_ok,
    .pending  (msix_pending),
    .msix_en,
    .ev_msg   (ev_msix),
    .cfg_interrupt_msix_enable, .cfg_interrupt_msix_mask,
    .cfg_interrupt_msix_address, .cfg_interrupt_msix_data, .cfg_interrupt_msix_int,
    .cfg_interrupt_msix_sent, .cfg_interrupt_msix_fail
  );
  assign cfg_interrupt_msi_function_number = 8'd0;

  // configuration state: the IP's status ports
  assign cpl_id       = {cfg_bus_number, 5'd0, 3'd0};
  assign mem_en       = cfg_function_status[1];
  assign bus_master   = cfg_function_status[2];
  assign intx_disable = cfg_function_status[3];
  assign dev_mps      = {1'b0, cfg_max_payload};
  assign dev_mrrs     = cfg_max_read_req;
  assign d3hot        = cfg_function_power_state[2:0] == 3'd3;

  logic unused;
  assign unused = ^{pcie_rq_seq_num0, pcie_rq_seq_num1, cfg_function_status[15:4], cfg_function_status[0],
                    cfg_function_power_state[11:3], msix_addr[1:0]};

endmodule

`default_nettype wire
