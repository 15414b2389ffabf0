// SPDX-License-Identifier: Apache-2.0
//
// accel_job: the accelerator's job engine (a bus master). Runs one job at a
// time from the BAR0 descriptor (accel_regs):
//   OP_H2D  DMA host -> device: tagged MRd requests of up to
//           min(256 B, Max_Read_Request_Size), never crossing their own size
//           boundary (so never 4 KiB), up to NTAGS outstanding; completions
//           are matched by tag and their payload written straight into device
//           memory (port B) at the offset given by byte count, so
//           completions of different tags may interleave and split anywhere
//   OP_D2H  DMA device -> host: MWr of up to Max_Payload_Size, aligned to it
//   OP_CRC  CRC-32 (zlib crc32()) of a device-memory range, 16 bytes/cycle
//   OP_RMA  RMA send (docs/accelerator.md "RMA send"): clears the 16-byte
//           requester record at device offset rnoti, writes one RMA
//           descriptor (d_src .. post of the NIC's rma block, 48 bytes, one
//           MWr) into the NAA's descriptor window rma_win: source {rma_node,
//           device memory's bus address + dev_off}, destination {dst_node,
//           host_addr}, len, cookie, requester record at device memory +
//           rnoti, completer record at cnoti (none if 0); then polls the
//           record in device memory (port B) until its valid bit is set with
//           this job's cookie and kind REQ. The record's status becomes the
//           job's error code (ERR_RMA_RD / _BAD / _WR); no record within
//           2^RMA_WAIT_LOG2 cycles: ERR_RMA_TMO.
// All lengths/offsets/addresses are multiples of 4 bytes and the device range
// must lie inside the backed memory (else ERR_PARAM). A job finishes only
// after its last write has left the device (output FIFO empty), so a status
// read that sees DONE is ordered after the data; then the job interrupt is
// raised: an MSI-X message if MSI-X is enabled, else MSI, else INTx (INTx
// is the level of IRQ_STATUS & IRQ_ENABLE, see accel_top). Masked MSI-X/MSI
// vectors set their pending bit and are sent when unmasked. H2D completions
// are always accepted (device memory is the receive buffer), so the engine
// never back-pressures the completion stream.

`default_nettype none

// Package items are referenced by qualified name (accel_pkg::...): Yosys reads
// no package imports inside modules.

module accel_job
#(
  // ------------------------------------------------------------------------
  // Parameters
  // ------------------------------------------------------------------------
  parameter int DEVMEM_IMPL_LOG2 = 22,   // backed device memory, log2 bytes
  parameter int NTAGS            = 8,    // outstanding DMA reads, 2..32
  parameter int TIMEOUT_LOG2     = 20,   // completion timeout: 2**TIMEOUT_LOG2 idle cycles
  parameter int RMA_WAIT_LOG2    = 24,   // RMA send: wait for the requester record, log2 cycles
  localparam int AW = DEVMEM_IMPL_LOG2 - 2
) (
  // ---------------- clock and reset (synchronous, active high) ----------------
  input  wire logic          clk,
  input  wire logic          rst,

  // ---------------- job descriptor and status (accel_regs) ----------------
  input  wire logic          go,
  output      logic          ack,
  input  wire logic [3:0]    op,
  input  wire logic [63:0]   host_addr,
  input  wire logic [31:0]   dev_off,
  input  wire logic [31:0]   len,
  input  wire logic [63:0]   rma_win,        // OP_RMA: bus address of the NAA's rma.win
  input  wire logic [15:0]   rma_node,       // OP_RMA: this device's NAA node (source node)
  input  wire logic [15:0]   dst_node,       // OP_RMA: destination node
  input  wire logic [15:0]   cookie,         // OP_RMA: descriptor cookie
  input  wire logic [31:0]   rnoti,          // OP_RMA: device offset of the requester record
  input  wire logic [63:0]   cnoti,          // OP_RMA: completer record at the destination, 0: none
  input  wire logic [63:0]   devmem_base,    // bus address of device memory (BAR2 base)
  output      logic          busy,
  output      logic          fin,
  output      logic [3:0]    fin_err,
  output      logic [63:0]   fin_result,
  output      logic [31:0]   fin_cycles,

  // ---------------- interrupt configuration and pending bits ----------------
  input  wire logic [1:0]    irq_enable,
  input  wire logic [1:0]    irq_vector,
  input  wire logic          msix_enable,
  input  wire logic          msix_fmask,
  input  wire logic [accel_regs_pkg::MSIX_VECTORS-1:0][63:0] msix_addr,
  input  wire logic [accel_regs_pkg::MSIX_VECTORS-1:0][31:0] msix_data,
  input  wire logic [accel_regs_pkg::MSIX_VECTORS-1:0]       msix_mask,
  output      logic [accel_regs_pkg::MSIX_VECTORS-1:0]       msix_pba,
  input  wire logic          msi_enable,
  input  wire logic [2:0]    msi_mme,
  input  wire logic [63:0]   msi_addr,
  input  wire logic [15:0]   msi_data,
  input  wire logic [3:0]    msi_mask,
  output      logic [3:0]    msi_pending,

  // ---------------- config state ----------------
  input  wire logic          bus_master,
  input  wire logic [15:0]   my_id,
  input  wire logic [2:0]    max_payload,
  input  wire logic [2:0]    max_read_req,
  output      logic          master_abort,   // pulse: a UR completion was received

  // ---------------- completion stream in (always accepted) ----------------
  input  wire logic          c_valid,
  input  wire logic [127:0]  c_data,
  input  wire logic [3:0]    c_keep,
  input  wire logic          c_sop,
  input  wire logic          c_eop,

  // ---------------- request stream out (to the transmit arbiter) ----------------
  output      logic          m_valid,
  output      accel_pkg::beat_t         m_beat,
  input  wire logic          m_ready,

  // ---------------- device memory port B ----------------
  output      logic          mem_en,
  output      logic [AW-1:0] mem_addr,
  output      logic [15:0]   mem_wstrb,
  output      logic [127:0]  mem_wdata,
  input  wire logic [127:0]  mem_rdata
);

  `include "pcie_tlp_func.svh"
  `include "accel_func.svh"

  localparam int TW = $clog2(NTAGS);

  typedef enum logic [3:0] {J_IDLE, J_H2D, J_D2H, J_CRC, J_DRAIN, J_FIN, J_MSG0, J_MSG1,
                            J_RMA_CLR, J_RMA_DESC, J_RMA_WAIT} state_t;

  // The descriptor write covers d_src .. post (consecutive 64-bit registers)
  localparam logic [9:0] RMA_DESC_DW = 10'((32'(accel_regs_pkg::NIC_RMA_POST) -
                                            32'(accel_regs_pkg::NIC_RMA_D_SRC)) / 4 + 2);

  state_t      state;
  logic [3:0]  err_q;
  logic [63:0] host_q, result_q;
  logic [AW-1:0] dev_q;
  logic [29:0] rem;          // dwords left to request / send / checksum
  logic        in_chunk;
  logic [6:0]  chunk_rem;
  logic [31:0] cyc;
  logic [31:0] crc_q;
  logic        crc_v;
  logic [15:0] crc_be;
  logic [63:0] msg_addr;
  logic [31:0] msg_data;

  // RMA send: the descriptor (payload beats 1..3), window, cookie, record poll
  logic [2:0][127:0] desc_q;
  logic [63:0]       win_q;
  logic [15:0]       cookie_q;
  logic [1:0]        desc_k;      // payload beat being sent
  logic              poll_v;      // mem_rdata holds the record (read last cycle)
  logic [RMA_WAIT_LOG2-1:0] wait_q;

  // Tags of outstanding reads
  logic [NTAGS-1:0] tag_v;
  logic [AW-1:0]    tag_dev [NTAGS];
  logic [8:0]       tag_bytes [NTAGS];
  logic             cw_active;     // payload beats of a matched completion follow
  logic [AW-1:0]    cw_addr;
  logic [TIMEOUT_LOG2-1:0] tmo;

  // Output stage and FIFO
  logic         st_v, st_hdr, st_sop, st_eop;
  logic [3:0]   st_keep;
  logic [127:0] st_data;
  logic         credit, fifo_empty;
  accel_pkg::beat_t        push_beat;

  always_comb begin
    push_beat.sop  = st_sop;
    push_beat.eop  = st_eop;
    push_beat.keep = st_keep;
    push_beat.data = st_hdr ? st_data : mem_rdata;
  end

  accel_beat_fifo u_fifo (
    .clk, .rst,
    .s_valid(st_v), .s_beat(push_beat), .credit, .empty(fifo_empty),
    .m_valid, .m_beat, .m_ready
  );

  // ------------------------------------------------------------------------
  // Completion decode
  // ------------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] c0, c1, c2, c3;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [2:0]    c_status;
  logic [11:0]   c_bc;
  logic [TW-1:0] c_tag;
  logic          c_hit, c_last, cw_we;
  logic [10:0]   c_len;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [8:0]    c_done;
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    {c3, c2, c1, c0} = c_data;
    c_status = c1[15:13];
    c_bc     = c1[11:0];
    c_tag    = c2[8 +: TW];
    c_len    = (c0[9:0] == 10'd0) ? 11'd1024 : {1'b0, c0[9:0]};
    c_hit    = c_valid && c_sop && c0[28:24] == accel_pkg::TYPE_CPL && 32'(c2[15:8]) < NTAGS && tag_v[c_tag];
    c_last   = {1'b0, c_bc} == {c_len, 2'b00};
    cw_we    = c_valid && !c_sop && cw_active;
    c_done   = tag_bytes[c_tag] - c_bc[8:0];   // bytes of the request already received
  end

  // ------------------------------------------------------------------------
  // Request sizing, tag allocation, interrupt selection
  // ------------------------------------------------------------------------
  logic [6:0]    rs_dw, mps_dw, req_dw, wr_dw;
  logic [2:0]    n_dw;
  logic          free_ok;
  logic [TW-1:0] free_tag;
  logic          rd_issue, h2d_issue;
  logic [32:0]   end_off;
  logic          par_bad;
  logic          rma_bad, clr_we;
  logic [32:0]   rn_end;
  logic [5:0][63:0] desc_d;
  logic [1:0]    desc_i;
  /* verilator lint_off UNUSEDSIGNAL */
  net_pkg::rma_noti_t rec;       // the record's nodes are not checked
  /* verilator lint_on UNUSEDSIGNAL */
  logic [accel_regs_pkg::MSIX_VECTORS-1:0] x_ready;
  logic [3:0]    m_ready_v, msi_m;
  logic          x_send, m_send;
  logic [1:0]    x_vec, m_vec;
  logic [1:0]    fire_vec;

  function automatic logic [6:0] min_dw(input logic [6:0] a, input logic [29:0] b);
    min_dw = ({23'h0, a} > b) ? b[6:0] : a;
  endfunction

  always_comb begin
    rs_dw  = (max_read_req == 3'd0) ? 7'd32 : 7'd64;
    mps_dw = (max_payload == 3'd0) ? 7'd32 : 7'd64;
    req_dw = min_dw(rs_dw - ((rs_dw == 7'd32) ? {2'b0, host_q[6:2]} : {1'b0, host_q[7:2]}), rem);
    wr_dw  = min_dw(mps_dw - ((mps_dw == 7'd32) ? {2'b0, host_q[6:2]} : {1'b0, host_q[7:2]}), rem);
    n_dw   = (chunk_rem > 7'd4) ? 3'd4 : chunk_rem[2:0];

    free_ok  = 1'b0;
    free_tag = '0;
    for (int t = NTAGS - 1; t >= 0; t--) begin
      if (!tag_v[t]) begin
        free_ok  = 1'b1;
        free_tag = TW'(t);
      end
    end

    h2d_issue = state == J_H2D && rem != 30'd0 && err_q == accel_regs_pkg::ERR_NONE && free_ok && credit;
    rd_issue  = (state == J_D2H && in_chunk && credit) || (state == J_CRC && rem != 30'd0) ||
                state == J_RMA_WAIT;

    end_off = {1'b0, dev_off} + {1'b0, len};
    par_bad = len == 32'd0 || len[1:0] != 2'd0 || dev_off[1:0] != 2'd0 ||
              end_off > (33'd1 << DEVMEM_IMPL_LOG2) ||
              (op != accel_regs_pkg::OP_CRC && host_addr[1:0] != 2'd0);

    // RMA send: more checks, and the descriptor as the NIC's staging registers
    rn_end  = {1'b0, rnoti} + 33'd16;
    rma_bad = len > 32'(accel_regs_pkg::NIC_RMA_MAX_LEN) || rnoti[3:0] != 4'h0 ||
              rn_end > (33'd1 << DEVMEM_IMPL_LOG2) ||
              (rnoti < end_off[31:0] && rn_end > {1'b0, dev_off}) ||
              cnoti[3:0] != 4'h0 || rma_win == 64'h0;
    desc_d[0] = (64'(rma_node) << accel_regs_pkg::NIC_RMA_NODE_LSB) |
                ((devmem_base + {32'h0, dev_off}) & ((64'd1 << accel_regs_pkg::NIC_RMA_ADDR_W) - 64'd1));
    desc_d[1] = (64'(dst_node) << accel_regs_pkg::NIC_RMA_NODE_LSB) |
                (host_addr & ((64'd1 << accel_regs_pkg::NIC_RMA_ADDR_W) - 64'd1));
    desc_d[2] = 64'(len[accel_regs_pkg::NIC_RMA_LEN_W-1:0]) |
                (64'(cookie) << accel_regs_pkg::NIC_RMA_COOKIE_LSB) |
                (64'd1 << accel_regs_pkg::NIC_RMA_NOTI_REQ) |
                (64'(cnoti != 64'h0) << accel_regs_pkg::NIC_RMA_NOTI_CMP);
    desc_d[3] = devmem_base + {32'h0, rnoti};
    desc_d[4] = cnoti;
    desc_d[5] = 64'd1 << accel_regs_pkg::NIC_RMA_GO;
    rec       = net_pkg::rma_noti_t'(mem_rdata);
    desc_i    = desc_k - 2'd1;
    clr_we    = state == J_RMA_CLR;

    // Interrupt messages ready to send (lowest vector first)
    x_ready = msix_pba & ~msix_mask;
    x_send  = msix_enable && !msix_fmask && bus_master && x_ready != '0;
    x_vec   = 2'd0;
    for (int v = accel_regs_pkg::MSIX_VECTORS - 1; v >= 0; v--) if (x_ready[v]) x_vec = 2'(v);
    msi_m     = 4'((5'd1 << msi_mme) - 5'd1);   // vectors granted - 1
    m_ready_v = msi_pending & ~msi_mask;
    m_send    = !msix_enable && msi_enable && bus_master && m_ready_v != 4'h0;
    m_vec     = 2'd0;
    for (int v = 3; v >= 0; v--) if (m_ready_v[v]) m_vec = 2'(v);
    fire_vec  = msix_enable ? irq_vector : (irq_vector & msi_m[1:0]);

    ack  = state == J_IDLE && go && !x_send && !m_send;
    busy = state == J_H2D || state == J_D2H || state == J_CRC || state == J_DRAIN ||
           state == J_FIN || state == J_RMA_CLR || state == J_RMA_DESC || state == J_RMA_WAIT;
    fin        = state == J_FIN;
    fin_err    = err_q;
    fin_result = (err_q == accel_regs_pkg::ERR_NONE) ? result_q : 64'h0;
    fin_cycles = cyc;

    // Device memory port B: completion payload writes, the RMA record's
    // clearing, or reads for D2H / CRC / the RMA record poll
    mem_en    = cw_we || rd_issue || clr_we;
    mem_addr  = cw_we ? cw_addr : dev_q;
    mem_wdata = clr_we ? 128'h0 : c_data;
    for (int i = 0; i < 4; i++) mem_wstrb[4*i +: 4] = {4{(cw_we && c_keep[i]) || clr_we}};
  end

  // ------------------------------------------------------------------------
  // State machine
  // ------------------------------------------------------------------------
  always_ff @(posedge clk) begin
    st_v         <= 1'b0;
    master_abort <= 1'b0;
    if (rst) begin
      state     <= J_IDLE;
      err_q     <= accel_regs_pkg::ERR_NONE;
      tag_v     <= '0;
      cw_active <= 1'b0;
      in_chunk  <= 1'b0;
      crc_v     <= 1'b0;
      msix_pba  <= '0;
      msi_pending <= 4'h0;
      rem       <= 30'd0;
      tmo       <= '0;
      result_q  <= 64'h0;
      poll_v    <= 1'b0;
    end else begin
      if (busy) cyc <= cyc + 32'd1;

      // ---- completions for our reads (any state)
      if (c_hit) begin
        tmo <= '0;
        if (c_status != accel_pkg::CPL_SC) begin
          tag_v[c_tag] <= 1'b0;
          if (err_q == accel_regs_pkg::ERR_NONE) err_q <= accel_regs_pkg::ERR_CPL;
          if (c_status == accel_pkg::CPL_UR) master_abort <= 1'b1;
        end else begin
          cw_addr   <= tag_dev[c_tag] + AW'(c_done[8:2]);
          cw_active <= !c_eop;
          if (c_last) tag_v[c_tag] <= 1'b0;
        end
      end else if (cw_we) begin
        cw_addr <= cw_addr + AW'(4);
        if (c_eop) cw_active <= 1'b0;
      end

      // ---- the RMA record read last cycle
      poll_v <= state == J_RMA_WAIT;

      // ---- read data into the CRC
      crc_v <= 1'b0;
      if (crc_v) crc_q <= crc32_line(crc_q, mem_rdata, crc_be);

      case (state)
        // ------------------------------------------------------------------
        J_IDLE: begin
          if (x_send) begin
            msg_addr        <= msix_addr[x_vec];
            msg_data        <= msix_data[x_vec];
            msix_pba[x_vec] <= 1'b0;
            state           <= J_MSG0;
          end else if (m_send) begin
            msg_addr    <= msi_addr;
            msg_data    <= {16'h0, (msi_data & ~{12'h0, msi_m}) | {14'h0, m_vec & msi_m[1:0]}};
            msi_pending[m_vec] <= 1'b0;
            state       <= J_MSG0;
          end else if (go) begin
            host_q   <= host_addr;
            dev_q    <= dev_off[AW+1:2];
            rem      <= len[31:2];
            in_chunk <= 1'b0;
            cyc      <= 32'd0;
            crc_q    <= 32'hffff_ffff;
            tmo      <= '0;
            result_q <= 64'h0;
            err_q    <= accel_regs_pkg::ERR_NONE;
            if (op != accel_regs_pkg::OP_H2D && op != accel_regs_pkg::OP_D2H && op != accel_regs_pkg::OP_CRC &&
                op != accel_regs_pkg::OP_RMA) begin
              err_q <= accel_regs_pkg::ERR_OPCODE;
              state <= J_FIN;
            end else if (par_bad || (op == accel_regs_pkg::OP_RMA && rma_bad)) begin
              err_q <= accel_regs_pkg::ERR_PARAM;
              state <= J_FIN;
            end else if (op != accel_regs_pkg::OP_CRC && !bus_master) begin
              err_q <= accel_regs_pkg::ERR_NO_BME;
              state <= J_FIN;
            end else if (op == accel_regs_pkg::OP_RMA) begin
              dev_q    <= rnoti[AW+1:2];
              desc_q   <= {desc_d[5], desc_d[4], desc_d[3], desc_d[2], desc_d[1], desc_d[0]};
              win_q    <= {rma_win[63:12], 12'h0} + 64'(accel_regs_pkg::NIC_RMA_D_SRC);
              cookie_q <= cookie;
              desc_k   <= 2'd0;
              state    <= J_RMA_CLR;
            end else begin
              if (op != accel_regs_pkg::OP_CRC) result_q <= {32'h0, len};
              state <= (op == accel_regs_pkg::OP_H2D) ? J_H2D : (op == accel_regs_pkg::OP_D2H) ? J_D2H : J_CRC;
            end
          end
        end
        // ------------------------------------------------------------------
        J_H2D: begin
          if (h2d_issue) begin
            st_v    <= 1'b1;
            st_hdr  <= 1'b1;
            st_sop  <= 1'b1;
            st_eop  <= 1'b1;
            {st_keep, st_data} <= mem_hdr(1'b0, host_q, {3'b000, req_dw}, my_id, 8'(free_tag));
            tag_v[free_tag]     <= 1'b1;
            tag_dev[free_tag]   <= dev_q;
            tag_bytes[free_tag] <= {req_dw, 2'b00};
            host_q <= host_q + {55'h0, req_dw, 2'b00};
            dev_q  <= dev_q + AW'(req_dw);
            rem    <= rem - {23'h0, req_dw};
          end
          if (tag_v != '0) begin
            if (!c_hit) tmo <= tmo + 1'b1;
            if (&tmo) begin
              if (err_q == accel_regs_pkg::ERR_NONE) err_q <= accel_regs_pkg::ERR_TIMEOUT;
              tag_v     <= '0;
              cw_active <= 1'b0;
            end
          end
          if ((rem == 30'd0 || err_q != accel_regs_pkg::ERR_NONE) && tag_v == '0 && !cw_active) state <= J_DRAIN;
        end
        // ------------------------------------------------------------------
        J_D2H: if (credit) begin
          if (!in_chunk) begin
            if (rem == 30'd0) state <= J_DRAIN;
            else begin
              st_v      <= 1'b1;
              st_hdr    <= 1'b1;
              st_sop    <= 1'b1;
              st_eop    <= 1'b0;
              {st_keep, st_data} <= mem_hdr(1'b1, host_q, {3'b000, wr_dw}, my_id, 8'h00);
              host_q    <= host_q + {55'h0, wr_dw, 2'b00};
              in_chunk  <= 1'b1;
              chunk_rem <= wr_dw;
            end
          end else begin
            st_v      <= 1'b1;
            st_hdr    <= 1'b0;
            st_sop    <= 1'b0;
            st_eop    <= chunk_rem <= 7'd4;
            st_keep   <= tlp_keep(n_dw);
            dev_q     <= dev_q + AW'(n_dw);
            rem       <= rem - 30'(n_dw);
            chunk_rem <= chunk_rem - 7'(n_dw);
            if (chunk_rem <= 7'd4) in_chunk <= 1'b0;
          end
        end
        // ------------------------------------------------------------------
        J_CRC: begin
          if (rem != 30'd0) begin
            crc_v  <= 1'b1;
            crc_be <= (rem >= 30'd4) ? 16'hffff : {4'h0, {4{rem >= 30'd3}}, {4{rem >= 30'd2}}, 4'hf};
            dev_q  <= dev_q + ((rem >= 30'd4) ? AW'(4) : AW'(rem[1:0]));
            rem    <= (rem >= 30'd4) ? rem - 30'd4 : 30'd0;
          end else if (!crc_v) begin
            result_q <= {32'h0, ~crc_q};
            state    <= J_DRAIN;
          end
        end
        // ------------------------------------------------------------------
        // RMA send: the record cleared (port B, this cycle), then the
        // descriptor: header, three payload beats of d_src .. post
        J_RMA_CLR: state <= J_RMA_DESC;
        // ------------------------------------------------------------------
        J_RMA_DESC: if (credit) begin
          st_v   <= 1'b1;
          st_hdr <= 1'b1;
          if (desc_k == 2'd0) begin
            st_sop <= 1'b1;
            st_eop <= 1'b0;
            {st_keep, st_data} <= mem_hdr(1'b1, win_q, RMA_DESC_DW, my_id, 8'h00);
            desc_k <= 2'd1;
          end else begin
            st_sop  <= 1'b0;
            st_eop  <= desc_k == 2'd3;
            st_keep <= 4'hf;
            st_data <= desc_q[desc_i];
            desc_k  <= desc_k + 2'd1;
            if (desc_k == 2'd3) begin
              wait_q <= '0;
              state  <= J_RMA_WAIT;
            end
          end
        end
        // ------------------------------------------------------------------
        // Poll the requester record (read every cycle, data the next)
        J_RMA_WAIT: begin
          wait_q <= wait_q + 1'b1;
          if (poll_v && rec.valid && rec.cookie == cookie_q && rec.kind == net_pkg::RMA_KIND_REQ) begin
            case (rec.status)
              net_pkg::RMA_ST_OK:       result_q <= {32'h0, rec.len};
              net_pkg::RMA_ST_RD_ERR:   err_q <= accel_regs_pkg::ERR_RMA_RD;
              net_pkg::RMA_ST_BAD_DESC: err_q <= accel_regs_pkg::ERR_RMA_BAD;
              default:                  err_q <= accel_regs_pkg::ERR_RMA_WR;
            endcase
            state <= J_DRAIN;
          end else if (&wait_q) begin
            err_q <= accel_regs_pkg::ERR_RMA_TMO;
            state <= J_DRAIN;
          end
        end
        // ------------------------------------------------------------------
        J_DRAIN: if (fifo_empty && !st_v && tag_v == '0 && !cw_active) state <= J_FIN;
        // ------------------------------------------------------------------
        J_FIN: begin
          if ((irq_enable & {err_q != accel_regs_pkg::ERR_NONE, 1'b1}) != 2'b00) begin
            if (msix_enable) msix_pba[fire_vec] <= 1'b1;
            else if (msi_enable) msi_pending[fire_vec] <= 1'b1;
          end
          state <= J_IDLE;
        end
        // ------------------------------------------------------------------
        J_MSG0: if (credit) begin
          st_v   <= 1'b1;
          st_hdr <= 1'b1;
          st_sop <= 1'b1;
          st_eop <= 1'b0;
          {st_keep, st_data} <= mem_hdr(1'b1, msg_addr, 10'd1, my_id, 8'h00);
          state  <= J_MSG1;
        end
        // ------------------------------------------------------------------
        J_MSG1: if (credit) begin
          st_v    <= 1'b1;
          st_hdr  <= 1'b1;
          st_sop  <= 1'b0;
          st_eop  <= 1'b1;
          st_keep <= 4'b0001;
          st_data <= {96'h0, msg_data};
          state   <= J_IDLE;
        end
        default: state <= J_IDLE;
      endcase
    end
  end

endmodule
