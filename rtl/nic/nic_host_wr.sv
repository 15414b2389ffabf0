// SPDX-License-Identifier: Apache-2.0
//
// nic_host_wr: writes RRA completion records into host memory
// (docs/remote-access.md, "Completion record"). Takes the answers that come
// back from the network, RRA_RSP and TLP_RAW (direction extract), and sends
// one 16-byte MWr per answer on its TLP stream (merged into m_tlp):
//
//   RRA_RSP         address {cmd[47:0]}, qword 0 = read data,
//                   status = aux.status (0 ok, 1 register error)
//   TLP_RAW extract address {cmd.rec, 4'b0}, qword 0 = the completion's
//                   payload dwords 0-1 (0 if none), completion status from the
//                   header (dword 1 bits 15:13): status 2 when not SC
//   qword 1 = seq, status, PCIe completion status, node that answered
//             (packet src), valid: net_pkg::cmp_rec_t (hw/gen/gen_net.py)
//
// The MWr uses a 3-DW header below 4 GiB, else 4-DW; requester ID = the
// NIC's captured bus/device, tag 0, byte enables all set. A record is
// dropped (ev_drop, rra.dropped) when Command.BusMasterEnable is clear, when
// the NIC is not in the endpoint role (no host above it), or when its address
// is not rec_addr (rra.cmp_addr, the one record the host set up): the address
// travels in the packets, and a forged or stale answer must not make the NIC
// write anywhere else in host memory (docs/security.md).

`default_nettype none
`include "tlp_stream.svh"

module nic_host_wr (
  // ---------------- clock and reset ----------------
  input  wire logic          clk,
  input  wire logic          rst,          // synchronous, active high

  // ---------------- configuration ----------------
  input  wire logic          enable,       // endpoint role
  input  wire logic          bus_master,   // Command.BusMasterEnable
  input  wire logic [15:0]   req_id,       // requester ID (captured bus/dev)
  input  wire logic [63:0]   rec_addr,     // rra.cmp_addr: the only address a record goes to

  // ---------------- answer packet (RRA_RSP or TLP_RAW extract) ----------------
  input  wire logic          s_valid,
  output      logic          s_ready,
  input  wire logic [127:0]  s_f0,
  input  wire logic [127:0]  s_f1,
  input  wire logic [127:0]  s_f2,

  // ---------------- MWr TLP (docs/tlp-interface.md) ----------------
  `TLP_M_PORTS(m_tlp),

  // ---------------- events ----------------
  output      logic          ev_done,      // record written (rra.completed)
  output      logic          ev_drop       // record dropped (rra.dropped)
);

  net_pkg::net_hdr_t h;
  assign h = net_pkg::net_hdr_t'(s_f0);

  // record (net_pkg::cmp_rec_t) and address of the offered packet
  net_pkg::net_cmd_rra_t c_rra;
  net_pkg::net_cmd_tlp_t c_tlp;
  net_pkg::net_rra_pl_t  pl;
  net_pkg::net_rsp_aux_t aux;
  net_pkg::cmp_rec_t     rec;
  logic [63:0]  addr;
  assign c_rra = net_pkg::net_cmd_rra_t'(h.cmd);
  assign c_tlp = net_pkg::net_cmd_tlp_t'(h.cmd);
  assign pl    = net_pkg::net_rra_pl_t'(s_f1);
  assign aux   = net_pkg::net_rsp_aux_t'(pl.aux);
  always_comb begin
    rec       = '0;
    rec.valid = 1'b1;
    rec.node  = h.src;
    if (h.ptype == net_pkg::NET_TYPE_RRA_RSP) begin
      addr       = {16'd0, c_rra.addr};
      rec.data   = pl.data;
      rec.status = net_pkg::cmp_status_e'(aux.status);
      rec.seq    = c_rra.seq;
    end else begin
      addr       = {16'd0, c_tlp.rec, 4'd0};
      rec.data   = (c_tlp.ndw == 2'd0) ? 64'd0 : s_f2[63:0];
      rec.cpl    = s_f1[47:45];                 // header dword 1 bits 15:13
      rec.status = (rec.cpl != 3'd0) ? net_pkg::CMP_CPL_ERR : net_pkg::CMP_OK;
      rec.seq    = c_tlp.seq;
    end
  end

  logic [31:0] dw0, dw1;
  logic        a64;
  assign a64 = (addr[63:32] != 32'd0);
  assign dw0 = {a64 ? pcie_tlp_pkg::FMT_4DW_DATA : pcie_tlp_pkg::FMT_3DW_DATA, pcie_tlp_pkg::TYPE_MEM,
                14'd0, 10'd4};
  assign dw1 = {req_id, 8'd0, 4'hf, 4'hf};

  // a record is written only where the host asked for it
  logic take;
  assign take = enable && bus_master && (addr == rec_addr);

  typedef enum logic [1:0] { T_IDLE, T_HDR, T_DATA } state_e;
  state_e       state_q;
  logic [127:0] hdr_q, pl_q;
  logic         a64_q;

  assign s_ready = (state_q == T_IDLE);

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q <= T_IDLE;
    end else begin
      case (state_q)
        T_IDLE:  if (s_valid && take) state_q <= T_HDR;
        T_HDR:   if (m_tlp_ready) state_q <= T_DATA;
        T_DATA:  if (m_tlp_ready) state_q <= T_IDLE;
        default: state_q <= T_IDLE;
      endcase
    end
  end

  always_ff @(posedge clk) begin
    if (state_q == T_IDLE && s_valid) begin
      a64_q <= a64;
      hdr_q <= a64 ? {addr[31:2], 2'b00, addr[63:32], dw1, dw0}
                   : {32'd0, addr[31:2], 2'b00, dw1, dw0};
      pl_q  <= rec;
    end
  end

  assign m_tlp_valid = (state_q != T_IDLE);
  assign m_tlp_sop   = (state_q == T_HDR);
  assign m_tlp_eop   = (state_q == T_DATA);
  assign m_tlp_data  = (state_q == T_DATA) ? pl_q : hdr_q;
  assign m_tlp_keep  = (state_q == T_DATA || a64_q) ? 4'b1111 : 4'b0111;

  logic unused;
  assign unused = ^{aux.addr, s_f2[127:64], h[63:36], h[15:0], addr[1:0], c_tlp.dir, c_tlp.rsvd0};

  assign ev_done = (state_q == T_DATA) && m_tlp_ready;
  assign ev_drop = (state_q == T_IDLE) && s_valid && !take;

endmodule

`default_nettype wire
