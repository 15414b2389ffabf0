// SPDX-License-Identifier: Apache-2.0
//
// accel_regs: BAR0 control registers of the sample accelerator (4 KiB).
//
// Identity, scratch, cycle counter, interrupt status/enable, the job
// descriptor (host address, device offset, length, opcode/start; for RMA send
// the NAA window, own node, destination node and cookie, record addresses), job status,
// completion counter and result, the MSI-X table (0x800) and PBA (0xC00).
// docs/accel-registers.md has the map; offsets and layouts come from the
// generated accel_regs_pkg (hw/regs/sample_accel.rdl). Reads have no
// side effects. Reads return four consecutive dwords (any dword alignment) one
// cycle after rd_en, so accel_target serves multi-dword reads like memory;
// writes come one dword at a time with byte enables.

`default_nettype none

// Package items are referenced by qualified name (accel_pkg::...): Yosys reads
// no package imports inside modules.

module accel_regs
#(
  // ------------------------------------------------------------------------
  // Parameters (reported in CAPS)
  // ------------------------------------------------------------------------
  parameter int DEVMEM_LOG2      = 26,   // BAR2 size, log2 bytes
  parameter int DEVMEM_IMPL_LOG2 = 22,   // backed device memory, log2 bytes
  parameter int NTAGS            = 8     // DMA read tags
) (
  // ---------------- clock and reset (synchronous, active high) ----------------
  input  wire logic         clk,
  input  wire logic         rst,

  // ---------------- register access from accel_target (dword addresses within BAR0) ----------------
  input  wire logic         rd_en,
  input  wire logic [9:0]   rd_addr,
  output      logic [127:0] rd_data,     // dwords rd_addr..rd_addr+3, next cycle
  input  wire logic         wr_en,
  input  wire logic [9:0]   wr_addr,
  input  wire logic [31:0]  wr_data,
  input  wire logic [3:0]   wr_be,

  // ---------------- job descriptor to / status from accel_job ----------------
  output      logic         job_go,      // a start is pending; held until job_ack
  input  wire logic         job_ack,
  output      logic [3:0]   job_op,
  output      logic [63:0]  job_host,
  output      logic [31:0]  job_dev_off,
  output      logic [31:0]  job_len,
  input  wire logic         job_busy,
  input  wire logic         job_fin,     // pulse: job finished (status visible next cycle)
  input  wire logic [3:0]   job_err,     // with job_fin: ERR_* code
  input  wire logic [63:0]  job_result,  // with job_fin
  input  wire logic [31:0]  job_cycles,  // with job_fin

  // ---------------- RMA send parameters to accel_job (op OP_RMA) ----------------
  output      logic [63:0]  rma_win,     // bus address of the NAA's rma.win window
  output      logic [15:0]  rma_node,    // this device's NAA node (descriptor source node)
  output      logic [15:0]  job_dst_node,
  output      logic [15:0]  job_cookie,
  output      logic [31:0]  job_rnoti,   // device-memory offset of the requester record
  output      logic [63:0]  job_cnoti,   // completer record address at the destination (0: none)

  // ---------------- interrupt control ----------------
  output      logic [1:0]   irq_status,  // [0] job done, [1] job error (RW1C)
  output      logic [1:0]   irq_enable,
  output      logic [1:0]   irq_vector,  // MSI / MSI-X vector of job interrupts

  // ---------------- MSI-X table and pending bits ----------------
  output      logic [accel_regs_pkg::MSIX_VECTORS-1:0][63:0] msix_addr,
  output      logic [accel_regs_pkg::MSIX_VECTORS-1:0][31:0] msix_data,
  output      logic [accel_regs_pkg::MSIX_VECTORS-1:0]       msix_mask,
  input  wire logic [accel_regs_pkg::MSIX_VECTORS-1:0]       msix_pba
);


  localparam logic [9:0] TBL_DW = accel_regs_pkg::R_MSIX_TABLE[11:2];
  localparam logic [9:0] PBA_DW = accel_regs_pkg::R_MSIX_PBA[11:2];

  // ------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------
  logic [63:0] scratch, cycles, result;
  logic        st_done, st_err;
  logic [3:0]  st_code, st_op;
  logic [31:0] job_count, last_cycles;

  // ------------------------------------------------------------------------
  // Read
  // ------------------------------------------------------------------------
  accel_regs_pkg::caps_t       caps;
  accel_regs_pkg::job_status_t job_status;
  always_comb begin
    caps              = '0;
    caps.devmem_log2  = 8'(DEVMEM_LOG2);
    caps.impl_log2    = 8'(DEVMEM_IMPL_LOG2);
    caps.ntags        = 8'(NTAGS);
    caps.msix_vectors = 8'(accel_regs_pkg::MSIX_VECTORS);
    job_status          = '0;
    job_status.busy     = job_go | job_busy;
    job_status.done     = st_done;
    job_status.error    = st_err;
    job_status.err_code = st_code;
    job_status.last_op  = st_op;
  end

  function automatic logic [31:0] rdw(input logic [9:0] a);
    logic [31:0] v;
    v = 32'h0;
    case ({a, 2'b00})
      accel_regs_pkg::R_ID:          v = accel_regs_pkg::ACCEL_MAGIC;
      accel_regs_pkg::R_VERSION:     v = accel_regs_pkg::ACCEL_VERSION;
      accel_regs_pkg::R_CAPS:        v = caps;
      accel_regs_pkg::R_SCRATCH_LO:  v = scratch[31:0];
      accel_regs_pkg::R_SCRATCH_HI:  v = scratch[63:32];
      accel_regs_pkg::R_CYCLES_LO:   v = cycles[31:0];
      accel_regs_pkg::R_CYCLES_HI:   v = cycles[63:32];
      accel_regs_pkg::R_IRQ_STATUS:  v = {30'h0, irq_status};
      accel_regs_pkg::R_IRQ_ENABLE:  v = {30'h0, irq_enable};
      accel_regs_pkg::R_IRQ_VECTOR:  v = {30'h0, irq_vector};
      accel_regs_pkg::R_JOB_HOST_LO: v = job_host[31:0];
      accel_regs_pkg::R_JOB_HOST_HI: v = job_host[63:32];
      accel_regs_pkg::R_JOB_DEV_OFF: v = job_dev_off;
      accel_regs_pkg::R_JOB_LEN:     v = job_len;
      accel_regs_pkg::R_JOB_CTRL:    v = {28'h0, job_op};
      accel_regs_pkg::R_JOB_STATUS:  v = job_status;
      accel_regs_pkg::R_JOB_COUNT:   v = job_count;
      accel_regs_pkg::R_JOB_CYCLES:  v = last_cycles;
      accel_regs_pkg::R_RESULT_LO:   v = result[31:0];
      accel_regs_pkg::R_RESULT_HI:   v = result[63:32];
      accel_regs_pkg::R_RMA_WIN_LO:  v = rma_win[31:0];
      accel_regs_pkg::R_RMA_WIN_HI:  v = rma_win[63:32];
      accel_regs_pkg::R_RMA_NODE:    v = {16'h0, rma_node};
      accel_regs_pkg::R_JOB_RMA:     v = {job_cookie, job_dst_node};
      accel_regs_pkg::R_JOB_RNOTI:   v = job_rnoti;
      accel_regs_pkg::R_JOB_CNOTI_LO: v = job_cnoti[31:0];
      accel_regs_pkg::R_JOB_CNOTI_HI: v = job_cnoti[63:32];
      default: begin
        if (a[9:4] == TBL_DW[9:4] && int'(a[3:2]) < accel_regs_pkg::MSIX_VECTORS) begin
          case (a[1:0])
            2'd0: v = msix_addr[a[3:2]][31:0];
            2'd1: v = msix_addr[a[3:2]][63:32];
            2'd2: v = msix_data[a[3:2]];
            default: v = {31'h0, msix_mask[a[3:2]]};
          endcase
        end else if (a == PBA_DW) begin
          v = 32'(msix_pba);
        end
      end
    endcase
    rdw = v;
  endfunction

  always_ff @(posedge clk) begin
    if (rd_en) begin
      for (int i = 0; i < 4; i++) rd_data[32*i +: 32] <= rdw(rd_addr + 10'(i));
    end
  end

  // ------------------------------------------------------------------------
  // Write
  // ------------------------------------------------------------------------
  logic [31:0] bm;
  /* verilator lint_off UNUSEDSIGNAL */
  accel_regs_pkg::job_ctrl_t wr_ctrl;  // reserved bits unused
  /* verilator lint_on UNUSEDSIGNAL */
  assign wr_ctrl = accel_regs_pkg::job_ctrl_t'(wr_data);
  always_comb begin
    for (int i = 0; i < 4; i++) bm[8*i +: 8] = {8{wr_be[i]}};
  end

  function automatic logic [31:0] upd(input logic [31:0] old, input logic [31:0] d,
                                      input logic [31:0] bmask);
    upd = (old & ~bmask) | (d & bmask);
  endfunction

  always_ff @(posedge clk) begin
    if (rst) begin
      scratch     <= 64'h0;
      cycles      <= 64'h0;
      irq_status  <= 2'b00;
      irq_enable  <= 2'b00;
      irq_vector  <= 2'd0;
      job_go      <= 1'b0;
      job_op      <= 4'd0;
      job_host    <= 64'h0;
      job_dev_off <= 32'h0;
      job_len     <= 32'h0;
      rma_win     <= 64'h0;
      rma_node    <= 16'h0;
      job_dst_node <= 16'h0;
      job_cookie  <= 16'h0;
      job_rnoti   <= 32'h0;
      job_cnoti   <= 64'h0;
      st_done     <= 1'b0;
      st_err      <= 1'b0;
      st_code     <= 4'd0;
      st_op       <= 4'd0;
      job_count   <= 32'h0;
      last_cycles <= 32'h0;
      result      <= 64'h0;
      for (int v = 0; v < accel_regs_pkg::MSIX_VECTORS; v++) begin
        msix_addr[v] <= 64'h0;
        msix_data[v] <= 32'h0;
        msix_mask[v] <= 1'b1;     // vectors come out of reset masked
      end
    end else begin
      cycles <= cycles + 64'd1;
      if (job_ack) job_go <= 1'b0;
      if (job_fin) begin
        st_done     <= 1'b1;
        st_err      <= job_err != accel_regs_pkg::ERR_NONE;
        st_code     <= job_err;
        job_count   <= job_count + 32'd1;
        last_cycles <= job_cycles;
        result      <= job_result;
        irq_status  <= irq_status | {job_err != accel_regs_pkg::ERR_NONE, 1'b1};
      end
      if (wr_en) begin
        case ({wr_addr, 2'b00})
          accel_regs_pkg::R_SCRATCH_LO:  scratch[31:0]  <= upd(scratch[31:0], wr_data, bm);
          accel_regs_pkg::R_SCRATCH_HI:  scratch[63:32] <= upd(scratch[63:32], wr_data, bm);
          accel_regs_pkg::R_IRQ_STATUS:  if (wr_be[0]) irq_status <= irq_status & ~wr_data[1:0];
          accel_regs_pkg::R_IRQ_ENABLE:  if (wr_be[0]) irq_enable <= wr_data[1:0];
          accel_regs_pkg::R_IRQ_VECTOR:  if (wr_be[0]) irq_vector <= wr_data[1:0];
          accel_regs_pkg::R_JOB_HOST_LO: job_host[31:0]  <= upd(job_host[31:0], wr_data, bm);
          accel_regs_pkg::R_JOB_HOST_HI: job_host[63:32] <= upd(job_host[63:32], wr_data, bm);
          accel_regs_pkg::R_JOB_DEV_OFF: job_dev_off <= upd(job_dev_off, wr_data, bm);
          accel_regs_pkg::R_JOB_LEN:     job_len <= upd(job_len, wr_data, bm);
          accel_regs_pkg::R_RMA_WIN_LO:  rma_win[31:0]  <= upd(rma_win[31:0], wr_data, bm);
          accel_regs_pkg::R_RMA_WIN_HI:  rma_win[63:32] <= upd(rma_win[63:32], wr_data, bm);
          accel_regs_pkg::R_RMA_NODE:    rma_node <= 16'(upd({16'h0, rma_node}, wr_data, bm));
          accel_regs_pkg::R_JOB_RMA:     {job_cookie, job_dst_node} <=
                                           upd({job_cookie, job_dst_node}, wr_data, bm);
          accel_regs_pkg::R_JOB_RNOTI:   job_rnoti <= upd(job_rnoti, wr_data, bm);
          accel_regs_pkg::R_JOB_CNOTI_LO: job_cnoti[31:0]  <= upd(job_cnoti[31:0], wr_data, bm);
          accel_regs_pkg::R_JOB_CNOTI_HI: job_cnoti[63:32] <= upd(job_cnoti[63:32], wr_data, bm);
          accel_regs_pkg::R_JOB_CTRL: begin
            if (wr_be[0]) job_op <= wr_ctrl.op;
            // START is ignored while a job is pending or running
            if (wr_be[3] && wr_ctrl.start && !job_go && !job_busy) begin
              job_go  <= 1'b1;
              st_done <= 1'b0;
              st_err  <= 1'b0;
              st_code <= accel_regs_pkg::ERR_NONE;
              st_op   <= wr_be[0] ? wr_ctrl.op : job_op;
            end
          end
          default: begin
            if (wr_addr[9:4] == TBL_DW[9:4] && int'(wr_addr[3:2]) < accel_regs_pkg::MSIX_VECTORS) begin
              case (wr_addr[1:0])
                2'd0: msix_addr[wr_addr[3:2]][31:0] <=
                        upd(msix_addr[wr_addr[3:2]][31:0], wr_data, bm) & 32'hffff_fffc;
                2'd1: msix_addr[wr_addr[3:2]][63:32] <=
                        upd(msix_addr[wr_addr[3:2]][63:32], wr_data, bm);
                2'd2: msix_data[wr_addr[3:2]] <= upd(msix_data[wr_addr[3:2]], wr_data, bm);
                default: if (wr_be[0]) msix_mask[wr_addr[3:2]] <= wr_data[0];
              endcase
            end
          end
        endcase
      end
    end
  end

endmodule
