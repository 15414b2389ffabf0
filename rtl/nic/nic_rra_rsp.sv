// SPDX-License-Identifier: Apache-2.0
//
// nic_rra_rsp: the RRA responder (every NIC). Executes RRA_RD / RRA_WR
// packets from the network on the NIC's own register file through the
// network master port of nic_cpuif_arb, and answers with RRA_RSP:
//
//   RRA_RSP  dst = request src, cmd (net_cmd_rra_t) {seq, answer address[47:0]}
//            (both from the request), payload (net_rra_pl_t) {aux
//            (net_rsp_aux_t) = {status, register address}, data = read data
//            (0 for writes and errors)}
//
// status 1 (ERR) without any register access when the address is not a
// register of the file (beyond EXTOLL_REGS_SIZE, or not 8-byte aligned);
// status 1 also when the register block reports an error. Status 3 (DENIED)
// without any register access for a write while the node is held (own block)
// by another node than the request's source, except a write of own.claim
// (CLAIM_ADDR), which nic_own decides (docs/security.md); ev_denied pulses.
// With a management node configured (own.mgmt valid), also a write to a
// free node from another node than the management node (own.claim still
// excepted: anyone may claim a free node), and a write of own.mgmt itself
// (MGMT_ADDR) from another node than the management node, held or not. A write whose
// answer address is 0 gets no answer (docs/packets.md). A source-routed
// request is answered source-routed on the reversed hop list the routers
// recorded in it, so discovery works before any table exists; a table-routed
// one by the tables. Requests are served one at a time, in arrival order;
// ev_served pulses once per executed request.

`default_nettype none
`include "nic_pkt_port.svh"
`include "cpuif_port.svh"

module nic_rra_rsp #(
  parameter int          ADDR_W     = 12,       // register block address width
  parameter int          REGS_BYTES = 'h1000,   // size of the register file in bytes
  parameter logic [47:0] CLAIM_ADDR = 48'(extoll_addr_pkg::OWN_CLAIM), // own.claim: the write every node may send
  parameter logic [47:0] MGMT_ADDR  = 48'(extoll_addr_pkg::OWN_MGMT)   // own.mgmt: only the management node, once set
) (
  // ---------------- clock and reset ----------------
  input  wire logic               clk,
  input  wire logic               rst,          // synchronous, active high

  // ---------------- configuration ----------------
  input  wire logic [15:0]        my_node,
  input  wire logic               own_held,     // own.owner.held: writes only from own_owner
  input  wire logic [15:0]        own_owner,
  input  wire logic               mgmt_valid,   // own.mgmt: a management node is configured
  input  wire logic [15:0]        mgmt_node,

  // ---------------- request packet (RRA_RD / RRA_WR) ----------------
  input  wire logic               s_valid,
  output      logic               s_ready,
  input  wire logic [127:0]       s_f0,
  input  wire logic [127:0]       s_f1,

  // ---------------- register block (cpuif master) ----------------
  `CPUIF_M_PORTS(cpuif, ADDR_W),
  output      logic [15:0]        cpuif_src,    // source node of the request being served (own block)

  // ---------------- response packet to the transmit mux ----------------
  `NIC_PKT_M_PORTS(m),             // two flits: m_f2 is 0

  // ---------------- events ----------------
  output      logic               ev_served,
  output      logic               ev_denied     // a write refused (another node holds this one)
);

  typedef enum logic [1:0] { S_IDLE, S_ACCESS, S_WAIT, S_RSP } state_e;
  state_e            state_q;

  net_pkg::net_hdr_t rq_q;         // request header
  logic [63:0]       wdata_q;      // RRA_WR data
  logic [63:0]       ans_q;        // answer address (payload aux)
  logic              is_wr_q, bad_q, deny_q;

  net_pkg::net_hdr_t     sh;
  net_pkg::net_cmd_rra_t sc, rq_c;          // cmd of the arriving / the held request
  logic [47:0]           saddr;
  assign sh    = net_pkg::net_hdr_t'(s_f0);
  assign sc    = net_pkg::net_cmd_rra_t'(sh.cmd);
  assign rq_c  = net_pkg::net_cmd_rra_t'(rq_q.cmd);
  assign saddr = sc.addr;

  logic ack, err;
  assign ack = is_wr_q ? cpuif_wr_ack : cpuif_rd_ack;
  assign err = is_wr_q ? cpuif_wr_err : cpuif_rd_err;

  assign s_ready         = (state_q == S_IDLE);
  assign cpuif_req       = (state_q == S_ACCESS) && !bad_q && !deny_q;
  assign cpuif_req_is_wr = is_wr_q;
  assign cpuif_addr      = rq_c.addr[ADDR_W-1:0];
  assign cpuif_wr_data   = wdata_q;
  assign cpuif_wr_biten  = '1;
  assign cpuif_src       = rq_q.src;

  // reversed hop list (group reversal, as net_route_reverse() in hw/include/net_packet.h)
  logic [20:0] rev;
  always_comb begin
    for (int i = 0; i < 7; i++) begin
      rev[3*i +: 3] = rq_q.route[3*(6-i) +: 3];
    end
  end

  // response under construction
  logic        done;                   // access finished (or skipped) this cycle
  logic [7:0]  st;
  logic [63:0] rdat;
  always_comb begin
    done = 1'b0;
    st   = 8'd0;
    rdat = 64'd0;
    if (state_q == S_ACCESS && (bad_q || deny_q)) begin
      done = 1'b1;
      st   = bad_q ? net_pkg::NET_RSP_ERR : net_pkg::NET_RSP_DENIED;
    end else if ((state_q == S_ACCESS && !cpuif_stall && ack) || (state_q == S_WAIT && ack)) begin
      done = 1'b1;
      st   = err ? net_pkg::NET_RSP_ERR : net_pkg::NET_RSP_OK;
      rdat = (is_wr_q || err) ? 64'd0 : cpuif_rd_data;
    end
  end

  net_pkg::net_hdr_t     rsp_h;
  net_pkg::net_cmd_rra_t rsp_c;
  net_pkg::net_rra_pl_t  rsp_pl;
  net_pkg::net_rsp_aux_t rsp_aux;
  always_comb begin
    rsp_c        = '0;
    rsp_c.seq    = rq_c.seq;
    rsp_c.addr   = ans_q[47:0];
    rsp_aux      = '0;
    rsp_aux.status = net_pkg::net_rsp_status_e'(st);
    rsp_aux.addr = 56'(rq_c.addr);
    rsp_pl       = '0;
    rsp_pl.aux   = rsp_aux;
    rsp_pl.data  = rdat;
    rsp_h       = '0;
    rsp_h.dst   = rq_q.src;
    rsp_h.src   = my_node;
    rsp_h.ptype = net_pkg::NET_TYPE_RRA_RSP;
    rsp_h.rmode = rq_q.rmode;
    rsp_h.plen  = 5'd1;
    rsp_h.route = (rq_q.rmode == net_pkg::NET_RMODE_SOURCE) ? rev : 21'd0;
    rsp_h.cmd   = rsp_c;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q <= S_IDLE;
      m_valid <= 1'b0;
    end else begin
      case (state_q)
        S_IDLE: begin
          if (s_valid) state_q <= S_ACCESS;
        end
        S_ACCESS, S_WAIT: begin
          if (done) begin
            if (is_wr_q && ans_q == 64'd0) begin
              state_q <= S_IDLE;
            end else begin
              state_q <= S_RSP;
              m_valid <= 1'b1;
            end
          end else if (state_q == S_ACCESS && !cpuif_stall) begin
            state_q <= S_WAIT;
          end
        end
        S_RSP: begin
          if (m_ready) begin
            m_valid <= 1'b0;
            state_q <= S_IDLE;
          end
        end
        default: state_q <= S_IDLE;
      endcase
    end
  end

  always_ff @(posedge clk) begin
    if (state_q == S_IDLE && s_valid) begin
      rq_q    <= sh;
      wdata_q <= s_f1[63:0];
      ans_q   <= s_f1[127:64];
      is_wr_q <= (sh.ptype == net_pkg::NET_TYPE_RRA_WR);
      bad_q   <= (saddr >= 48'(REGS_BYTES)) || (saddr[2:0] != 3'd0);
      deny_q  <= (sh.ptype == net_pkg::NET_TYPE_RRA_WR) && saddr != CLAIM_ADDR &&
                 ((own_held && sh.src != own_owner) ||
                  (mgmt_valid && sh.src != mgmt_node && (!own_held || saddr == MGMT_ADDR)));
    end
    if (done) begin
      m_f0 <= rsp_h;
      m_f1 <= rsp_pl;
    end
  end

  assign m_nflit   = 2'd2;
  assign m_f2      = '0;

  logic unused;
  assign unused = ^{rq_q[42:38], rq_q[36:32], rq_q[15:0], sc.seq};
  assign ev_served = done;
  assign ev_denied = done && deny_q && !bad_q;

endmodule

`default_nettype wire
