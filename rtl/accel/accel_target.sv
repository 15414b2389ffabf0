// SPDX-License-Identifier: Apache-2.0
//
// accel_target: the accelerator's completer. Serves the requests arriving
// from upstream strictly in order, one at a time, so a read is never passed by
// a later write and every non-posted request gets exactly one completion
// sequence:
//   CfgRd0/CfgWr0 (function 0)   config space (pcie_cfg_func); CfgWr0 captures the
//                                 bus/device number used as completer and
//                                 requester ID
//   MRd/MWr hitting BAR0         control registers (accel_regs)
//   MRd/MWr hitting BAR2         device memory port A (accel_devmem)
//   MRd outside the BARs, CfgRd0/CfgWr0 to another function, CfgRd1/CfgWr1,
//   IO, locked reads, atomics    Cpl with Unsupported Request
//   MWr outside the BARs, Msg    dropped (UR Detected is set)
// Read data leaves as CplD split at Max_Payload_Size-aligned boundaries (a
// multiple of any Read Completion Boundary), with byte count and lower
// address per the PCIe Base Specification. Completions go through a small
// FIFO to the transmit arbiter.

`default_nettype none
`include "tlp_stream.svh"

// Package items are referenced by qualified name (accel_pkg::...): Yosys reads
// no package imports inside modules.

module accel_target
#(
  // ------------------------------------------------------------------------
  // Parameters
  // ------------------------------------------------------------------------
  parameter int DEVMEM_LOG2      = 26,   // BAR2 size, log2 bytes (<= 34)
  parameter int DEVMEM_IMPL_LOG2 = 22,   // backed device memory, log2 bytes
  localparam int AW = DEVMEM_IMPL_LOG2 - 2
) (
  // ---------------- clock and reset (synchronous, active high) ----------------
  input  wire logic          clk,
  input  wire logic          rst,

  // ---------------- request stream in (TLP stream beats of requests only) ----------------
  `TLP_S_PORTS(s),

  // ---------------- completion stream out (to the transmit arbiter) ----------------
  output      logic          m_valid,
  output      accel_pkg::beat_t         m_beat,
  input  wire logic          m_ready,

  // ---------------- config space access and state ----------------
  output      logic          cfg_rd_en,
  output      logic          cfg_wr_en,
  output      logic [9:0]    cfg_addr,
  output      logic [31:0]   cfg_wr_data,
  output      logic [3:0]    cfg_wr_be,
  input  wire logic [31:0]   cfg_rd_data,
  input  wire logic          mem_enable,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [63:0]   bar0_base,    // bits below the BAR size are not used
  input  wire logic [63:0]   bar2_base,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic [2:0]    max_payload,
  output      logic [15:0]   my_id,        // captured bus/device, function 0
  output      logic          ur_detected,  // pulse

  // ---------------- BAR0 register access (accel_regs) ----------------
  output      logic          reg_rd_en,
  output      logic [9:0]    reg_rd_addr,
  input  wire logic [127:0]  reg_rd_data,
  output      logic          reg_wr_en,
  output      logic [9:0]    reg_wr_addr,
  output      logic [31:0]   reg_wr_data,
  output      logic [3:0]    reg_wr_be,

  // ---------------- device memory port A ----------------
  output      logic          mem_en,
  output      logic [AW-1:0] mem_addr,
  output      logic [15:0]   mem_wstrb,
  output      logic [127:0]  mem_wdata,
  input  wire logic [127:0]  mem_rdata
);

  `include "pcie_tlp_func.svh"
  `include "accel_func.svh"


  typedef enum logic [2:0] {S_IDLE, S_WMEM, S_WREG, S_CFGWR, S_DROP, S_CPL, S_RD} state_t;
  typedef enum logic [1:0] {SRC_CFG, SRC_REG, SRC_MEM} src_t;

  state_t      state;
  src_t        src;
  logic [2:0]  tc;
  logic [1:0]  attr;
  logic [15:0] req_id;
  logic [7:0]  tag;
  logic [3:0]  fbe, lbe;
  logic [10:0] len;        // request length in dwords (1..1024)
  logic [31:0] cur;        // current dword address (address bits 33:2)
  logic [10:0] rem;        // dwords left to read
  logic [10:0] idx;        // payload dword index of the current beat (writes)
  logic [1:0]  sub;        // dword within the beat (register writes)
  logic [11:0] bc;         // byte count of the next completion
  logic        first;      // next completion is the first of the request
  logic        in_chunk;   // payload beats of a completion are being issued
  logic [6:0]  chunk_rem;  // dwords left in the current completion
  logic        np;         // the dropped request still needs a completion
  logic [2:0]  cpl_status;
  logic [11:0] cpl_bc;
  logic [6:0]  cpl_la;

  // Output stage: one beat per cycle into the FIFO, data one cycle after the read
  logic         st_v, st_hdr, st_sop, st_eop;
  logic [3:0]   st_keep;
  logic [127:0] st_data;
  src_t         st_src;
  logic         credit;
  /* verilator lint_off UNUSEDSIGNAL */
  logic         fifo_empty;    // completions need no drain
  /* verilator lint_on UNUSEDSIGNAL */
  accel_pkg::beat_t        push_beat;

  always_comb begin
    push_beat.sop  = st_sop;
    push_beat.eop  = st_eop;
    push_beat.keep = st_keep;
    if (st_hdr) push_beat.data = st_data;
    else begin
      case (st_src)
        SRC_CFG: push_beat.data = {96'h0, cfg_rd_data};
        SRC_REG: push_beat.data = reg_rd_data;
        default: push_beat.data = mem_rdata;
      endcase
    end
  end

  accel_beat_fifo u_fifo (
    .clk, .rst,
    .s_valid(st_v), .s_beat(push_beat), .credit, .empty(fifo_empty),
    .m_valid, .m_beat, .m_ready
  );

  // ------------------------------------------------------------------------
  // Header decode (beat 0)
  // ------------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] d0, d1, d2, d3;
  logic [63:0] h_addr;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [2:0]  h_fmt;
  logic [4:0]  h_type;
  logic [10:0] h_len;
  logic        h_data, h_mem, h_cfg0, h_msg, h_hit0, h_hit2, h_fn0;
  logic [11:0] h_bc;

  always_comb begin
    {d3, d2, d1, d0} = s_data;
    h_fmt  = d0[31:29];
    h_type = d0[28:24];
    h_len  = (d0[9:0] == 10'd0) ? 11'd1024 : {1'b0, d0[9:0]};
    h_data = h_fmt[1];
    h_addr = h_fmt[0] ? {d2, d3} : {32'h0, d2};
    h_mem  = h_type == accel_pkg::TYPE_MEM && !h_fmt[2];
    h_cfg0 = h_type == accel_pkg::TYPE_CFG0 && h_fmt[2] == 1'b0 && h_fmt[0] == 1'b0;
    h_msg  = h_type[4:3] == 2'b10;
    h_fn0  = d2[18:16] == 3'd0;
    h_hit0 = mem_enable && h_addr[63:12] == bar0_base[63:12];
    h_hit2 = mem_enable && h_addr[63:DEVMEM_LOG2] == bar2_base[63:DEVMEM_LOG2];
    h_bc   = tlp_mrd_byte_count(h_len, d1[3:0], d1[7:4]);
  end

  // ------------------------------------------------------------------------
  // Datapath per state
  // ------------------------------------------------------------------------
  logic [6:0]  mps_dw, chunk_dw;
  logic [2:0]  n_dw;          // dwords in the next payload beat of a read
  logic        issue;         // a read beat is issued this cycle
  logic [15:0] wstrb;
  logic [4:0]  keep5;
  logic        last_in_beat;
  logic [3:0]  sub_be;
  logic [10:0] sub_k;

  always_comb begin
    // Max_Payload_Size: 128 B, or 256 B for any larger setting
    mps_dw   = (max_payload == 3'd0) ? 7'd32 : 7'd64;
    // a completion ends at the next Max_Payload_Size-aligned address
    chunk_dw = mps_dw - ((max_payload == 3'd0) ? {2'b00, cur[4:0]} : {1'b0, cur[5:0]});
    if (src == SRC_CFG) chunk_dw = 7'd1;
    else if ({4'd0, chunk_dw} > rem) chunk_dw = rem[6:0];
    n_dw  = (chunk_rem > 7'd4) ? 3'd4 : chunk_rem[2:0];
    issue = state == S_RD && in_chunk && credit;

    for (int i = 0; i < 4; i++) begin
      wstrb[4*i +: 4] = (s_keep[i] && (idx + 11'(i)) < len) ? dw_be(idx + 11'(i), len, fbe, lbe)
                                                            : 4'h0;
    end
    keep5        = {1'b0, s_keep};
    last_in_beat = sub == 2'd3 || !keep5[sub + 3'd1];
    sub_k        = idx + 11'(sub);
    sub_be       = (s_keep[sub] && sub_k < len) ? dw_be(sub_k, len, fbe, lbe) : 4'h0;

    s_ready = 1'b0;
    case (state)
      S_IDLE, S_WMEM, S_CFGWR, S_DROP: s_ready = 1'b1;
      S_WREG:  s_ready = last_in_beat;
      default: s_ready = 1'b0;
    endcase

    mem_en    = (state == S_WMEM && s_valid) || (issue && src == SRC_MEM);
    mem_addr  = cur[AW-1:0];
    mem_wstrb = (state == S_WMEM) ? wstrb : 16'h0;
    mem_wdata = s_data;

    reg_rd_en   = issue && src == SRC_REG;
    reg_rd_addr = cur[9:0];
    reg_wr_en   = state == S_WREG && s_valid && sub_be != 4'h0;
    reg_wr_addr = cur[9:0] + 10'(sub);
    reg_wr_data = s_data[32*sub +: 32];
    reg_wr_be   = sub_be;

    cfg_rd_en   = issue && src == SRC_CFG;
    cfg_wr_en   = state == S_CFGWR && s_valid;
    cfg_addr    = cur[9:0];
    cfg_wr_data = s_data[31:0];
    cfg_wr_be   = fbe;
  end

  // ------------------------------------------------------------------------
  // State machine
  // ------------------------------------------------------------------------
  always_ff @(posedge clk) begin
    ur_detected <= 1'b0;
    st_v        <= 1'b0;
    if (rst) begin
      state    <= S_IDLE;
      my_id    <= 16'h0;
      in_chunk <= 1'b0;
      sub      <= 2'd0;
    end else begin
      case (state)
        // ------------------------------------------------------------------
        S_IDLE: if (s_valid && s_sop) begin
          tc       <= d0[22:20];
          attr     <= d0[13:12];
          req_id   <= d1[31:16];
          tag      <= d1[15:8];
          fbe      <= d1[3:0];
          lbe      <= d1[7:4];
          len      <= h_len;
          cur      <= h_addr[33:2];
          idx      <= 11'd0;
          sub      <= 2'd0;
          rem      <= h_len;
          bc       <= h_bc;
          first    <= 1'b1;
          in_chunk <= 1'b0;
          np       <= 1'b0;
          cpl_bc   <= 12'd4;
          cpl_la   <= 7'd0;
          cpl_status <= accel_pkg::CPL_SC;
          if (h_mem && !h_data) begin
            // ---- memory read
            if (h_hit0 || h_hit2) begin
              src   <= h_hit0 ? SRC_REG : SRC_MEM;
              state <= S_RD;
            end else begin
              ur_detected <= 1'b1;
              cpl_status  <= accel_pkg::CPL_UR;
              cpl_bc      <= h_bc;
              cpl_la      <= tlp_mrd_lower_addr(h_addr[6:2], d1[3:0]);
              np          <= 1'b1;
              state       <= s_eop ? S_CPL : S_DROP;
            end
          end else if (h_mem) begin
            // ---- memory write (posted)
            if (s_eop) state <= S_IDLE;
            else if (h_hit0) state <= S_WREG;
            else if (h_hit2) state <= S_WMEM;
            else begin
              ur_detected <= 1'b1;
              state       <= S_DROP;
            end
          end else if (h_cfg0 && h_fn0) begin
            // ---- configuration request to us
            cur <= {22'h0, d2[11:2]};
            if (!h_data) begin
              src   <= SRC_CFG;
              rem   <= 11'd1;
              bc    <= 12'd4;
              state <= S_RD;
            end else begin
              my_id <= {d2[31:19], 3'b000};
              np    <= 1'b1;
              state <= s_eop ? S_CPL : S_CFGWR;
            end
          end else if (h_msg || (h_data && h_mem) || h_fmt[2]) begin
            // ---- messages and anything posted we do not support
            state <= s_eop ? S_IDLE : S_DROP;
          end else begin
            // ---- other non-posted requests: Unsupported Request
            ur_detected <= 1'b1;
            cpl_status  <= accel_pkg::CPL_UR;
            np          <= 1'b1;
            state       <= s_eop ? S_CPL : S_DROP;
          end
        end
        // ------------------------------------------------------------------
        S_WMEM: if (s_valid) begin
          cur <= cur + 32'd4;
          idx <= idx + 11'd4;
          if (s_eop) state <= S_IDLE;
        end
        // ------------------------------------------------------------------
        S_WREG: if (s_valid) begin
          if (last_in_beat) begin
            sub <= 2'd0;
            cur <= cur + 32'd4;
            idx <= idx + 11'd4;
            if (s_eop) state <= S_IDLE;
          end else begin
            sub <= sub + 2'd1;
          end
        end
        // ------------------------------------------------------------------
        S_CFGWR: if (s_valid) state <= s_eop ? S_CPL : S_DROP;
        // ------------------------------------------------------------------
        S_DROP: if (s_valid && s_eop) state <= np ? S_CPL : S_IDLE;
        // ------------------------------------------------------------------
        S_CPL: if (credit) begin
          st_v    <= 1'b1;
          st_hdr  <= 1'b1;
          st_sop  <= 1'b1;
          st_eop  <= 1'b1;
          st_keep <= 4'b0111;
          st_data <= tlp_cpl_hdr(1'b0, 10'd0, my_id, cpl_status, cpl_bc, req_id, tag, cpl_la,
                                 tc, {1'b0, attr});
          state   <= S_IDLE;
        end
        // ------------------------------------------------------------------
        S_RD: if (credit) begin
          st_v   <= 1'b1;
          st_src <= src;
          if (!in_chunk) begin
            st_hdr  <= 1'b1;
            st_sop  <= 1'b1;
            st_eop  <= 1'b0;
            st_keep <= 4'b0111;
            st_data <= tlp_cpl_hdr(1'b1, {3'b000, chunk_dw}, my_id, accel_pkg::CPL_SC, bc, req_id, tag,
                                   (src == SRC_CFG) ? 7'd0 : {cur[4:0], first ? tlp_be_lead(fbe) : 2'd0},
                                   tc, {1'b0, attr});
            bc        <= bc - {3'b000, chunk_dw, 2'b00} + (first ? 12'(tlp_be_lead(fbe)) : 12'd0);
            first     <= 1'b0;
            in_chunk  <= 1'b1;
            chunk_rem <= chunk_dw;
          end else begin
            st_hdr    <= 1'b0;
            st_sop    <= 1'b0;
            st_eop    <= chunk_rem <= 7'd4;
            st_keep   <= tlp_keep(n_dw);
            cur       <= cur + 32'(n_dw);
            rem       <= rem - 11'(n_dw);
            chunk_rem <= chunk_rem - 7'(n_dw);
            if (chunk_rem <= 7'd4) begin
              in_chunk <= 1'b0;
              if (rem == 11'(n_dw)) state <= S_IDLE;
            end
          end
        end
        default: state <= S_IDLE;
      endcase
    end
  end

endmodule
