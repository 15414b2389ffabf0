// SPDX-License-Identifier: Apache-2.0
//
// epf_test_dma: the working part of the endpoint test function
// (epf_test_top, docs/epf-test.md): it takes the COMMAND the host wrote
// into BAR0 and does what Linux's pci-epf-test does for it
// (drivers/pci/endpoint/functions/pci-epf-test.c, cmd_handler):
//
//   COMMAND_RAISE_LEGACY_IRQ  STATUS := IRQ_RAISED, INTx asserted (level:
//                             while STATUS.IRQ_RAISED, until the host's
//                             handler writes the bit back to 0)
//   COMMAND_RAISE_MSI_IRQ     if IRQ_NUMBER <= vectors enabled: STATUS :=
//                             IRQ_RAISED, MSI vector IRQ_NUMBER - 1
//   COMMAND_RAISE_MSIX_IRQ    same with MSI-X entry IRQ_NUMBER - 1
//   COMMAND_READ              read SIZE bytes from host SRC_ADDR, CRC-32 them,
//                             READ_SUCCESS if equal to CHECKSUM, else READ_FAIL
//   COMMAND_WRITE             write SIZE pseudo-random bytes to host DST_ADDR,
//                             CHECKSUM := their CRC-32, WRITE_SUCCESS
//   COMMAND_COPY              copy SIZE bytes from SRC_ADDR to DST_ADDR
// then, for the transfers, STATUS |= IRQ_RAISED and the interrupt of
// IRQ_TYPE (0 INTx, 1 MSI, 2 MSI-X) number IRQ_NUMBER. CRC-32 as Linux's
// crc32_le(~0, buf, size): reflected 0xEDB88320, init ~0, no final inversion.
//
// Transfers are byte-granular (any address, any size) and move through a
// 4 KiB buffer, one chunk at a time: a memory read of the chunk (at most
// Max_Read_Request_Size as Device Control holds it, 128..4096 B, never
// crossing an MRRS-aligned boundary, so never a 4 KiB one; completions are
// accepted split at any RCB, in address order as PCIe returns them for one
// request), then memory writes of at most Max_Payload_Size, never crossing an
// MPS-aligned boundary. FLAGS.USE_DMA clear stands for pci-epf-test's CPU
// copy through the outbound window: the same engine with 64-byte requests.
// One read request outstanding (tag 0); completion timeout 2**TIMEOUT_LOG2
// cycles. UR/CA completions, a timeout or Bus Master Enable clear fail the
// transfer (STATUS *_FAIL). Messages (MSI, MSI-X) need Bus Master Enable;
// a masked MSI vector or MSI-X entry sets its pending bit and the message is
// sent when it is unmasked.

`default_nettype none

module epf_test_dma
#(
  // ------------------------------------------------------------------------
  // Parameters
  // ------------------------------------------------------------------------
  parameter int MSIX_VECTORS = 2048,   // MSI-X table entries (power of two)
  parameter int TIMEOUT_LOG2 = 20,     // read completion timeout, log2 cycles
  localparam int VW = $clog2(MSIX_VECTORS)
) (
  // ---------------- clock and reset (synchronous, active high) ----------------
  input  wire logic              clk,
  input  wire logic              rst,

  // ---------------- test registers (epf_test_space) ----------------
  input  wire logic [31:0]       command,
  /* verilator lint_off UNUSEDSIGNAL */  // STATUS.IRQ_RAISED, FLAGS.USE_DMA, entry fields used
  input  wire logic [31:0]       status,
  input  wire logic [63:0]       src_addr,
  input  wire logic [63:0]       dst_addr,
  input  wire logic [31:0]       size,
  input  wire logic [31:0]       checksum,
  input  wire logic [31:0]       irq_type,
  input  wire logic [31:0]       irq_number,
  input  wire logic [31:0]       flags,
  /* verilator lint_on UNUSEDSIGNAL */
  output      logic              cmd_take,
  output      logic [31:0]       status_set,
  output      logic              csum_wr,
  output      logic [31:0]       csum_data,

  // ---------------- MSI-X table and pending bits (epf_test_space) ----------------
  output      logic              tbl_rd,
  output      logic [VW-1:0]     tbl_vec,
  /* verilator lint_off UNUSEDSIGNAL */  // control bits 31:1, address bits 1:0
  input  wire logic [127:0]      tbl_entry,
  /* verilator lint_on UNUSEDSIGNAL */
  output      logic              pba_set,
  output      logic              pba_clr,
  output      logic [VW-1:0]     pba_vec,
  input  wire logic              retry_valid,
  input  wire logic [VW-1:0]     retry_vec,
  output      logic              retry_take,

  // ---------------- configuration state (pcie_cfg_func, accel_target) ----------------
  input  wire logic              bus_master,
  input  wire logic [15:0]       my_id,
  input  wire logic [2:0]        max_payload,
  input  wire logic [2:0]        max_read_req,
  input  wire logic              msi_enable,
  input  wire logic [2:0]        msi_mme,
  input  wire logic [63:0]       msi_addr,
  input  wire logic [15:0]       msi_data,
  input  wire logic [31:0]       msi_mask,
  output      logic [31:0]       msi_pending,
  input  wire logic              msix_enable,
  input  wire logic              msix_fmask,
  output      logic              master_abort,  // pulse: a UR completion arrived
  output      logic              intx_level,    // legacy interrupt requested
  output      logic              busy,

  // ---------------- completions for our reads (never stalled) ----------------
  input  wire logic              c_valid,
  input  wire logic [127:0]      c_data,
  input  wire logic [3:0]        c_keep,
  input  wire logic              c_sop,
  input  wire logic              c_eop,

  // ---------------- requests out: memory reads and writes, MSI/MSI-X messages ----------------
  output      logic              m_valid,
  output      accel_pkg::beat_t  m_beat,
  input  wire logic              m_ready
);

  `include "pcie_tlp_func.svh"
  `include "accel_func.svh"

  localparam logic [31:0] ST_READ_OK   = 32'h001;
  localparam logic [31:0] ST_READ_FAIL = 32'h002;
  localparam logic [31:0] ST_WRITE_OK  = 32'h004;
  localparam logic [31:0] ST_WRITE_FAIL = 32'h008;
  localparam logic [31:0] ST_COPY_OK   = 32'h010;
  localparam logic [31:0] ST_COPY_FAIL = 32'h020;
  localparam logic [31:0] ST_IRQ       = 32'h040;

  localparam int BUF = 4096;   // chunk buffer, bytes (the largest MRRS)

  typedef enum logic [4:0] {
    S_IDLE, S_DECODE, S_CHUNK, S_FETCH_REQ, S_FETCH_WAIT, S_FILL, S_CRC, S_STORE_HDR,
    S_STORE_DATA, S_NEXT, S_FINISH, S_IRQ, S_MSIX_RD, S_MSIX_WAIT, S_MSG_HDR, S_MSG_DATA
  } state_t;
  typedef enum logic [1:0] {OP_READ, OP_WRITE, OP_COPY} op_t;

  state_t       state;
  op_t          op;
  logic         err, use_dma, intx_active, intx_armed;
  logic [5:0]   cmd;                 // the COMMAND taken
  logic [31:0]  rem;                 // bytes left of the transfer
  logic [63:0]  sa, da;              // next source / destination byte address
  logic [12:0]  clen;                // bytes of the current chunk (1..4096)
  logic [12:0]  ci;                  // chunk bytes fetched so far
  logic [12:0]  bo;                  // chunk bytes stored so far
  logic [12:0]  pl;                  // bytes of the current write
  logic [10:0]  pdw, k;              // its dwords, the next payload dword
  logic [12:0]  p;                   // fill / CRC position in the chunk
  logic [31:0]  crc;
  logic [1:0]   irq_t;
  logic [11:0]  irq_n;               // 1-based
  logic [63:0]  msg_addr;
  logic [31:0]  msg_data;
  logic [TIMEOUT_LOG2:0] tmo;
  logic [31:0]  rng;
  logic [31:0]  msi_pend;
  // completion being received
  logic         c_act;               // a completion of ours is in progress
  logic signed [14:0] c_base;         // chunk index of byte 0 of the next payload beat

  logic [7:0]   buff [BUF];

  assign msi_pending = msi_pend;
  assign intx_level  = intx_active && status[6];
  assign busy        = state != S_IDLE || m_valid;   // including a beat not yet taken

  // ------------------------------------------------------------------------
  // Limits from Device Control (encodings 0..5 = 128..4096 B; 6, 7 are
  // reserved and taken as 4096) and the chunk/write sizes they give
  // ------------------------------------------------------------------------
  logic [12:0] mrrs_b, mps_b, lim_rd, lim_wr, rd_len, wr_len;
  /* verilator lint_off UNUSEDSIGNAL */  // at most 4096
  logic [31:0] chunk_rd, chunk_wr;
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    mrrs_b = 13'd128 << ((max_read_req > 3'd5) ? 3'd5 : max_read_req);
    mps_b  = 13'd128 << ((max_payload > 3'd5) ? 3'd5 : max_payload);
    lim_rd = use_dma ? mrrs_b : 13'd64;
    lim_wr = use_dma ? mps_b : 13'd64;
    // up to the next lim-aligned address: Length * 4 <= MRRS (MPS), no 4 KiB crossing
    rd_len = lim_rd - (sa[12:0] & (lim_rd - 13'd1));
    wr_len = lim_wr - (da[12:0] & (lim_wr - 13'd1));
    chunk_rd = (rem < 32'(rd_len)) ? rem : 32'(rd_len);
    chunk_wr = (rem < 32'(BUF)) ? rem : 32'(BUF);
  end

  // byte enables of the dword at dword index f_k of a request of f_len bytes
  // starting at byte offset f_a (0..3) in its first dword
  function automatic logic [3:0] req_be(input logic [1:0] f_a, input logic [12:0] f_len,
                                        input logic [10:0] f_k);
    logic [3:0] f_be;
    for (int f_b = 0; f_b < 4; f_b++) begin
      int f_x;
      f_x = 4 * int'(f_k) + f_b - int'(f_a);
      f_be[f_b] = f_x >= 0 && f_x < int'(f_len);
    end
    req_be = f_be;
  endfunction

  function automatic logic [10:0] req_dw(input logic [1:0] f_a, input logic [12:0] f_len);
    req_dw = 11'((14'(f_a) + 14'(f_len) + 14'd3) >> 2);
  endfunction

  // header beat of a memory request (f_wr: MWr, else MRd) of f_len bytes at f_addr,
  // with its first and last dword byte enables
  function automatic logic [127:0] req_hdr(input logic f_wr, input logic [63:0] f_addr,
                                           input logic [12:0] f_len, input logic [15:0] f_id);
    logic [10:0] f_dw;
    f_dw = req_dw(f_addr[1:0], f_len);
    req_hdr = tlp_mem_hdr(f_wr, f_addr, 10'(f_dw), f_id, 8'd0, req_be(f_addr[1:0], f_len, 11'd0),
                          (f_dw == 11'd1) ? 4'h0 : req_be(f_addr[1:0], f_len, f_dw - 11'd1));
  endfunction

  // ------------------------------------------------------------------------
  // Data of the next write beat and the next CRC line, from the buffer
  // ------------------------------------------------------------------------
  logic [127:0] wr_beat, crc_line, rnd_line;
  logic [15:0]  crc_be;
  logic [31:0]  crc_next, rng_next;
  always_comb begin
    for (int i = 0; i < 4; i++) begin
      for (int b = 0; b < 4; b++) begin
        int x;
        x = 4 * (int'(k) + i) + b - int'(da[1:0]);
        wr_beat[32*i+8*b +: 8] = (x >= 0 && x < int'(pl)) ? buff[12'(int'(bo) + x)] : 8'h00;
      end
    end
    for (int j = 0; j < 16; j++) begin
      crc_be[j]          = int'(p) + j < int'(clen);
      crc_line[8*j +: 8] = buff[12'(int'(p) + j)];
    end
    crc_next = crc32_line(crc, crc_line, crc_be);
    // xorshift32, four words a cycle
    rng_next = rng;
    for (int i = 0; i < 4; i++) begin
      rng_next = rng_next ^ (rng_next << 13);
      rng_next = rng_next ^ (rng_next >> 17);
      rng_next = rng_next ^ (rng_next << 5);
      rnd_line[32*i +: 32] = rng_next;
    end
  end

  // ------------------------------------------------------------------------
  // Output register (valid/ready)
  // ------------------------------------------------------------------------
  logic adv;
  assign adv     = !m_valid || m_ready;

  // completion header fields
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] cd0, cd1, cd2;
  /* verilator lint_on UNUSEDSIGNAL */
  assign cd0 = c_data[31:0];
  assign cd1 = c_data[63:32];
  assign cd2 = c_data[95:64];

  // chunk index just past the last payload dword of the beat
  int c_end;
  always_comb begin
    c_end = int'(c_base) + 4 * (c_keep[3] ? 4 : c_keep[2] ? 3 : c_keep[1] ? 2 : 1);
  end

  always_ff @(posedge clk) begin
    cmd_take     <= 1'b0;
    status_set   <= 32'd0;
    csum_wr      <= 1'b0;
    tbl_rd       <= 1'b0;
    pba_set      <= 1'b0;
    pba_clr      <= 1'b0;
    retry_take   <= 1'b0;
    master_abort <= 1'b0;
    if (m_valid && m_ready) m_valid <= 1'b0;
    if (rst) begin
      state       <= S_IDLE;
      m_valid     <= 1'b0;
      intx_active <= 1'b0;
      intx_armed  <= 1'b0;
      msi_pend    <= 32'd0;
      c_act       <= 1'b0;
      rng         <= 32'h2545_f491;
    end else begin
      // the level follows STATUS.IRQ_RAISED once the set has landed there
      if (intx_active && status[6]) intx_armed <= 1'b1;
      if (intx_active && intx_armed && !status[6]) begin
        intx_active <= 1'b0;
        intx_armed  <= 1'b0;
      end

      // ---------------- completions for the outstanding read ----------------
      if (c_valid) begin
        if (c_sop) begin
          c_act <= 1'b0;
          if (state == S_FETCH_WAIT && cd2[15:8] == 8'd0 && cd0[28:25] == 4'b0101) begin
            if (cd1[15:13] != pcie_tlp_pkg::CPL_SC || !cd0[30]) begin
              err          <= 1'b1;
              master_abort <= cd1[15:13] == pcie_tlp_pkg::CPL_UR;
              state        <= S_FINISH;
            end else begin
              c_act  <= !c_eop;
              // payload dword 0 holds the byte at chunk index ci
              c_base <= $signed({2'b00, ci}) - $signed({13'd0, 2'(sa[1:0] + ci[1:0])});
            end
          end
        end else if (c_act) begin
          for (int i = 0; i < 4; i++) begin
            for (int b = 0; b < 4; b++) begin
              int x;
              x = int'(c_base) + 4 * i + b;
              if (c_keep[i] && x >= int'(ci) && x < int'(clen)) buff[12'(x)] <= c_data[32*i+8*b +: 8];
            end
          end
          c_base <= c_base + 15'sd16;
          if (c_eop) begin
            c_act <= 1'b0;
            // the completion ends with its last dword: the next one starts there
            if (c_end >= int'(clen)) begin
              ci    <= clen;
              state <= (op == OP_READ) ? S_CRC : S_STORE_HDR;
              p     <= 13'd0;
              bo    <= 13'd0;
            end else begin
              ci <= 13'(c_end);
            end
          end
        end
      end
      if (state == S_FETCH_WAIT) begin
        tmo <= tmo + 1'b1;
        if (tmo[TIMEOUT_LOG2]) begin
          err   <= 1'b1;
          state <= S_FINISH;
        end
      end

      case (state)
        // ------------------------------------------------------------------
        S_IDLE: begin
          if (msi_enable && bus_master && (msi_pend & ~msi_mask) != 32'd0) begin
            // a pending MSI vector was unmasked: the lowest one
            for (int v = 31; v >= 0; v--) begin
              if (msi_pend[v] && !msi_mask[v]) irq_n <= 12'(v + 1);
            end
            irq_t <= 2'd1;
            state <= S_IRQ;
          end else if (retry_valid) begin
            retry_take <= 1'b1;
            irq_t      <= 2'd2;
            irq_n      <= 12'(retry_vec) + 12'd1;
            state      <= S_IRQ;
          end else if (command != 32'd0) begin
            cmd_take <= 1'b1;
            cmd      <= command[5:0];
            state    <= S_DECODE;
          end
        end
        // ------------------------------------------------------------------
        // pci-epf-test's cmd_handler, in its order of precedence
        S_DECODE: begin
          use_dma <= flags[0];
          irq_t   <= irq_type[1:0];
          irq_n   <= (irq_number > 32'd4095) ? 12'd0 : irq_number[11:0];
          err     <= 1'b0;
          rem     <= size;
          sa      <= src_addr;
          da      <= dst_addr;
          crc     <= 32'hffff_ffff;
          state   <= S_IDLE;
          if (irq_type <= 32'd2) begin
            if (cmd[0]) begin
              status_set  <= ST_IRQ;
              intx_active <= 1'b1;
              intx_armed  <= 1'b0;
            end else if (cmd[4]) begin
              op    <= OP_WRITE;
              state <= S_CHUNK;
            end else if (cmd[3]) begin
              op    <= OP_READ;
              state <= S_CHUNK;
            end else if (cmd[5]) begin
              op    <= OP_COPY;
              state <= S_CHUNK;
            end else if (cmd[1]) begin
              if (msi_enable && irq_number != 32'd0 &&
                  irq_number <= (32'd1 << msi_mme)) begin
                status_set <= ST_IRQ;
                irq_t      <= 2'd1;
                state      <= S_IRQ;
              end
            end else if (cmd[2]) begin
              if (msix_enable && irq_number != 32'd0 && irq_number <= 32'(MSIX_VECTORS)) begin
                status_set <= ST_IRQ;
                irq_t      <= 2'd2;
                state      <= S_IRQ;
              end
            end
          end
        end
        // ------------------------------------------------------------------
        S_CHUNK: begin
          p  <= 13'd0;
          ci <= 13'd0;
          bo <= 13'd0;
          if (rem == 32'd0) state <= S_FINISH;
          else if (op == OP_WRITE) begin
            clen  <= 13'(chunk_wr);
            state <= S_FILL;
          end else begin
            clen  <= 13'(chunk_rd);
            state <= S_FETCH_REQ;
          end
        end
        // ------------------------------------------------------------------
        S_FETCH_REQ: if (!bus_master) begin
          err   <= 1'b1;
          state <= S_FINISH;
        end else if (adv) begin
          m_valid      <= 1'b1;
          m_beat.sop   <= 1'b1;
          m_beat.eop   <= 1'b1;
          m_beat.keep  <= tlp_mem_hdr_keep(sa);
          m_beat.data  <= req_hdr(1'b0, sa, clen, my_id);
          tmo          <= '0;
          state        <= S_FETCH_WAIT;
        end
        // ------------------------------------------------------------------
        S_FETCH_WAIT: ;   // completions above
        // ------------------------------------------------------------------
        S_FILL: begin
          for (int j = 0; j < 16; j++) begin
            if (int'(p) + j < BUF) buff[12'(int'(p) + j)] <= rnd_line[8*j +: 8];
          end
          rng <= rng_next;
          p   <= p + 13'd16;
          if (p + 13'd16 >= clen) begin
            p     <= 13'd0;
            state <= S_CRC;
          end
        end
        // ------------------------------------------------------------------
        S_CRC: begin
          crc <= crc_next;
          p   <= p + 13'd16;
          if (p + 13'd16 >= clen) state <= (op == OP_READ) ? S_NEXT : S_STORE_HDR;
        end
        // ------------------------------------------------------------------
        S_STORE_HDR: if (!bus_master) begin
          err   <= 1'b1;
          state <= S_FINISH;
        end else if (adv) begin
          logic [12:0] n;
          n = (clen - bo < wr_len) ? clen - bo : wr_len;
          pl          <= n;
          pdw         <= req_dw(da[1:0], n);
          k           <= 11'd0;
          m_valid     <= 1'b1;
          m_beat.sop  <= 1'b1;
          m_beat.eop  <= 1'b0;
          m_beat.keep <= tlp_mem_hdr_keep(da);
          m_beat.data <= req_hdr(1'b1, da, n, my_id);
          state       <= S_STORE_DATA;
        end
        // ------------------------------------------------------------------
        S_STORE_DATA: if (adv) begin
          m_valid     <= 1'b1;
          m_beat.sop  <= 1'b0;
          m_beat.eop  <= k + 11'd4 >= pdw;
          m_beat.keep <= (pdw - k >= 11'd4) ? 4'hf : tlp_keep(3'(pdw - k));
          m_beat.data <= wr_beat;
          k           <= k + 11'd4;
          if (k + 11'd4 >= pdw) begin
            bo <= bo + pl;
            da <= da + 64'(pl);
            state <= (bo + pl >= clen) ? S_NEXT : S_STORE_HDR;
          end
        end
        // ------------------------------------------------------------------
        S_NEXT: begin
          rem   <= rem - 32'(clen);
          sa    <= sa + 64'(clen);
          state <= S_CHUNK;
        end
        // ------------------------------------------------------------------
        S_FINISH: begin
          case (op)
            OP_READ:  status_set <= ST_IRQ | ((!err && crc == checksum) ? ST_READ_OK : ST_READ_FAIL);
            OP_WRITE: status_set <= ST_IRQ | (!err ? ST_WRITE_OK : ST_WRITE_FAIL);
            default:  status_set <= ST_IRQ | (!err ? ST_COPY_OK : ST_COPY_FAIL);
          endcase
          if (op == OP_WRITE) begin
            csum_wr   <= 1'b1;
            csum_data <= crc;
          end
          if (irq_t == 2'd0) begin
            intx_active <= 1'b1;
            intx_armed  <= 1'b0;
          end
          state <= (irq_t == 2'd0) ? S_IDLE : S_IRQ;
        end
        // ------------------------------------------------------------------
        // a message for vector irq_n of type irq_t (1 MSI, 2 MSI-X)
        S_IRQ: begin
          state    <= S_IDLE;
          if (irq_t == 2'd1 && msi_enable && irq_n != 12'd0 &&
              32'(irq_n) <= (32'd1 << msi_mme)) begin
            if (msi_mask[5'(irq_n - 12'd1)] || !bus_master) begin
              msi_pend[5'(irq_n - 12'd1)] <= 1'b1;
            end else begin
              msi_pend[5'(irq_n - 12'd1)] <= 1'b0;
              msg_addr <= msi_addr;
              // the vector replaces the low MME bits of the data
              msg_data <= {16'd0, (msi_data & ~16'((16'd1 << msi_mme) - 16'd1)) |
                                  ({4'd0, 12'(irq_n - 12'd1)} & 16'((16'd1 << msi_mme) - 16'd1))};
              state    <= S_MSG_HDR;
            end
          end else if (irq_t == 2'd2 && msix_enable && irq_n != 12'd0 &&
                       32'(irq_n) <= 32'(MSIX_VECTORS)) begin
            tbl_rd  <= 1'b1;
            tbl_vec <= VW'(irq_n - 12'd1);
            state   <= S_MSIX_RD;
          end
        end
        S_MSIX_RD: state <= S_MSIX_WAIT;   // table read latency
        S_MSIX_WAIT: begin
          pba_vec <= tbl_vec;
          if (msix_fmask || tbl_entry[96] || !bus_master) begin
            pba_set <= 1'b1;
            state   <= S_IDLE;
          end else begin
            pba_clr  <= 1'b1;
            msg_addr <= {tbl_entry[63:32], tbl_entry[31:2], 2'b00};
            msg_data <= tbl_entry[95:64];
            state    <= S_MSG_HDR;
          end
        end
        // ------------------------------------------------------------------
        S_MSG_HDR: if (adv) begin
          m_valid     <= 1'b1;
          m_beat.sop  <= 1'b1;
          m_beat.eop  <= 1'b0;
          m_beat.keep <= tlp_mem_hdr_keep(msg_addr);
          m_beat.data <= tlp_mem_hdr(1'b1, msg_addr, 10'd1, my_id, 8'd0, 4'hf, 4'h0);
          state       <= S_MSG_DATA;
        end
        S_MSG_DATA: if (adv) begin
          m_valid     <= 1'b1;
          m_beat.sop  <= 1'b0;
          m_beat.eop  <= 1'b1;
          m_beat.keep <= 4'b0001;
          m_beat.data <= {96'd0, msg_data};
          state       <= S_IDLE;
        end
        default: state <= S_IDLE;
      endcase
    end
  end

endmodule

`default_nettype wire
