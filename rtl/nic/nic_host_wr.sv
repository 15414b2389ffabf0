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
//   qword 1 = {valid 1, 15'b0, node that answered (packet src)[15:0],
//              5'b0, PCIe completion status[2:0], status[7:0], seq[15:0]}
//
// The MWr uses a 3-DW header below 4 GiB, else 4-DW; requester ID = the
// NIC's captured bus/device, tag 0, byte enables all set. A record is
// dropped (ev_drop, rra.dropped) when Command.BusMasterEnable is clear or the
// NIC is not in the endpoint role (no host above it).

`default_nettype none

module nic_host_wr (
    // ---------------- clock and reset ----------------
    input  wire logic          clk,
    input  wire logic          rst,          // synchronous, active high

    // ---------------- configuration ----------------
    input  wire logic          enable,       // endpoint role
    input  wire logic          bus_master,   // Command.BusMasterEnable
    input  wire logic [15:0]   req_id,       // requester ID (captured bus/dev)

    // ---------------- answer packet (RRA_RSP or TLP_RAW extract) ----------------
    input  wire logic          s_valid,
    output      logic          s_ready,
    input  wire logic [127:0]  s_f0,
    input  wire logic [127:0]  s_f1,
    input  wire logic [127:0]  s_f2,

    // ---------------- MWr TLP (docs/tlp-interface.md) ----------------
    output      logic [127:0]  m_tlp_data,
    output      logic [3:0]    m_tlp_keep,
    output      logic          m_tlp_sop,
    output      logic          m_tlp_eop,
    output      logic          m_tlp_valid,
    input  wire logic          m_tlp_ready,

    // ---------------- events ----------------
    output      logic          ev_done,      // record written (rra.completed)
    output      logic          ev_drop       // record dropped (rra.dropped)
);

    net_pkg::net_hdr_t h;
    assign h = net_pkg::net_hdr_t'(s_f0);

    // record and address of the offered packet
    logic [63:0]  addr, q0, q1;
    logic [2:0]   cst;
    logic [7:0]   st;
    logic [15:0]  seq;
    always_comb begin
        if (h.ptype == net_pkg::NET_TYPE_RRA_RSP) begin
            addr = {16'd0, h.cmd[47:0]};
            q0   = s_f1[63:0];
            st   = s_f1[127:120];
            cst  = 3'd0;
            seq  = h.cmd[63:48];
        end else begin
            addr = {16'd0, h.cmd[63:20], 4'd0};
            q0   = (h.cmd[18:17] == 2'd0) ? 64'd0 : s_f2[63:0];
            cst  = s_f1[47:45];                       // header dword 1 bits 15:13
            st   = (cst != 3'd0) ? 8'd2 : 8'd0;
            seq  = h.cmd[15:0];
        end
        q1 = {1'b1, 15'd0, h.src, 5'd0, cst, st, seq};
    end

    logic [31:0] dw0, dw1;
    logic        a64;
    assign a64 = (addr[63:32] != 32'd0);
    assign dw0 = {a64 ? pcie_tlp_pkg::FMT_4DW_DATA : pcie_tlp_pkg::FMT_3DW_DATA, pcie_tlp_pkg::TYPE_MEM,
                  14'd0, 10'd4};
    assign dw1 = {req_id, 8'd0, 4'hf, 4'hf};

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
                T_IDLE:  if (s_valid && enable && bus_master) state_q <= T_HDR;
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
            pl_q  <= {q1, q0};
        end
    end

    assign m_tlp_valid = (state_q != T_IDLE);
    assign m_tlp_sop   = (state_q == T_HDR);
    assign m_tlp_eop   = (state_q == T_DATA);
    assign m_tlp_data  = (state_q == T_DATA) ? pl_q : hdr_q;
    assign m_tlp_keep  = (state_q == T_DATA || a64_q) ? 4'b1111 : 4'b0111;

    logic unused;
    assign unused = ^{s_f1[119:64], s_f2[127:64], h[63:36], h[15:0], addr[1:0]};

    assign ev_done = (state_q == T_DATA) && m_tlp_ready;
    assign ev_drop = (state_q == T_IDLE) && s_valid && !(enable && bus_master);

endmodule

`default_nettype wire
