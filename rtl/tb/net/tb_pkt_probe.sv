// SPDX-License-Identifier: Apache-2.0
//
// tb_pkt_probe: decodes a flit through the net_pkg structs (and folds its
// CRC-32C) so tb_pkt.cpp can compare with hw/include/net_packet.h, and
// decodes it as the host-memory records (cmp_rec_t, nq_ent_t, rma_noti_t) to compare with
// hw/include/extoll_records.h.

`default_nettype none

module tb_pkt_probe (
  // ---- flit under test
  input  wire logic [127:0] s_flit,
  input  wire logic [31:0]  s_crc,
  // ---- header fields
  output logic [15:0]       m_dst,
  output logic [15:0]       m_src,
  output logic [3:0]        m_ptype,
  output logic              m_vc,
  output logic              m_rmode,
  output logic [4:0]        m_plen,
  output logic [20:0]       m_route,
  output logic [63:0]       m_cmd,
  // ---- cmd word decoded as SMFU request and as completion
  output logic [35:0]       m_smfu_off,
  output logic [5:0]        m_smfu_ivl,
  output logic [3:0]        m_smfu_fbe,
  output logic [3:0]        m_smfu_lbe,
  output logic [5:0]        m_smfu_len,
  output logic [7:0]        m_smfu_tag,
  output logic [7:0]        m_cpl_tag,
  output logic [2:0]        m_cpl_status,
  output logic              m_cpl_last,
  output logic [5:0]        m_cpl_len,
  output logic [6:0]        m_cpl_la,
  output logic [12:0]       m_cpl_bc,
  output logic [15:0]       m_tlp_seq,
  output logic              m_tlp_dir,
  output logic [31:0]       m_intr_data,
  output logic [15:0]       m_intr_rid,
  // ---- payload flit decoded as RRA payload with response aux
  output logic [63:0]       m_rra_data,
  output logic [55:0]       m_rsp_addr,
  output logic [7:0]        m_rsp_status,
  // ---- low 6 bits as a table entry
  output logic [2:0]        m_tbl_port,
  output logic [1:0]        m_tbl_vcrule,
  output logic              m_tbl_valid,
  // ---- the flit as a completion record and as a notification-queue entry
  output logic [63:0]       m_rec_data,
  output logic [15:0]       m_rec_seq,
  output logic [7:0]        m_rec_status,
  output logic [2:0]        m_rec_cpl,
  output logic [15:0]       m_rec_node,
  output logic              m_rec_valid,
  output logic [31:0]       m_nq_data,
  output logic [31:0]       m_nq_offset,
  output logic [15:0]       m_nq_node,
  output logic              m_nq_phase,
  output logic [15:0]       m_rn_cookie,     // ... and as an RMA notification record
  output logic [7:0]        m_rn_status,
  output logic              m_rn_kind,
  output logic [31:0]       m_rn_len,
  output logic [15:0]       m_rn_req_node,
  output logic [15:0]       m_rn_src_node,
  output logic [15:0]       m_rn_dst_node,
  output logic              m_rn_valid,
  // ---- CRC fold
  output logic [31:0]       m_crc
);
  net_pkg::net_hdr_t       h;
  net_pkg::net_cmd_smfu_t  cs;
  net_pkg::net_cmd_cpl_t   cc;
  net_pkg::net_cmd_tlp_t   ct;
  net_pkg::net_cmd_intr_t  ci;
  net_pkg::net_rra_pl_t    pl;
  net_pkg::net_rsp_aux_t   ra;
  net_pkg::net_tbl_entry_t te;
  net_pkg::cmp_rec_t       rc;
  net_pkg::nq_ent_t        nq;
  net_pkg::rma_noti_t      rn;

  always_comb begin
    h  = net_pkg::net_hdr_t'(s_flit);
    cs = net_pkg::net_cmd_smfu_t'(h.cmd);
    cc = net_pkg::net_cmd_cpl_t'(h.cmd);
    ct = net_pkg::net_cmd_tlp_t'(h.cmd);
    ci = net_pkg::net_cmd_intr_t'(h.cmd);
    pl = net_pkg::net_rra_pl_t'(s_flit);
    ra = net_pkg::net_rsp_aux_t'(pl.aux);
    te = net_pkg::net_tbl_entry_t'(s_flit[5:0]);
    m_dst = h.dst; m_src = h.src; m_ptype = h.ptype; m_vc = h.vc; m_rmode = h.rmode;
    m_plen = h.plen; m_route = h.route; m_cmd = h.cmd;
    m_smfu_off = cs.off_dw; m_smfu_ivl = cs.ivl; m_smfu_fbe = cs.fbe; m_smfu_lbe = cs.lbe;
    m_smfu_len = cs.len_m1; m_smfu_tag = cs.tag;
    m_cpl_tag = cc.tag; m_cpl_status = cc.status; m_cpl_last = cc.last; m_cpl_len = cc.len_m1;
    m_cpl_la = cc.lower_addr; m_cpl_bc = cc.byte_count;
    m_tlp_seq = ct.seq; m_tlp_dir = ct.dir;
    m_intr_data = ci.data; m_intr_rid = ci.req_id;
    m_rra_data = pl.data; m_rsp_addr = ra.addr; m_rsp_status = ra.status;
    m_tbl_port = te.port; m_tbl_vcrule = te.vcrule; m_tbl_valid = te.valid;
    rc = net_pkg::cmp_rec_t'(s_flit);
    nq = net_pkg::nq_ent_t'(s_flit);
    m_rec_data = rc.data; m_rec_seq = rc.seq; m_rec_status = rc.status; m_rec_cpl = rc.cpl;
    m_rec_node = rc.node; m_rec_valid = rc.valid;
    m_nq_data = nq.data; m_nq_offset = nq.offset; m_nq_node = nq.node; m_nq_phase = nq.phase;
    rn = net_pkg::rma_noti_t'(s_flit);
    m_rn_cookie = rn.cookie; m_rn_status = rn.status; m_rn_kind = rn.kind; m_rn_len = rn.len;
    m_rn_req_node = rn.req_node; m_rn_src_node = rn.src_node; m_rn_dst_node = rn.dst_node;
    m_rn_valid = rn.valid;
    m_crc = net_pkg::crc32c_flit(s_crc, s_flit);
  end

  // Reserved bits are not decoded; the C side covers them by round trips.
  wire unused = ^{cs, cc, ct, ci, ra, te, pl.aux, rc, nq, rn};

endmodule

`default_nettype wire
