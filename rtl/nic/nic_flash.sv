// SPDX-License-Identifier: Apache-2.0
//
// nic_flash: the configuration flash controller behind the register block
// `flash` (docs/flash.md "Controller"): a SPI x1 master, mode 0 (sck idles
// low, dq0 changes while sck is low, dq1 is sampled on the rising edge).
//
//   command   GO starts: cs_n low, opcode, alen address bytes (most
//             significant first), len data bytes from the page buffer
//             (rd = 0) or into it (rd = 1), cs_n high. With poll, then the
//             flag status register (0x70) is read until its ready bit (7) is
//             set: status.fsr, status.polls, status.fsr_err (bits 5, 4, 1).
//             GO while busy or with len > 256 is refused (status.error).
//   JEDEC ID  after reset READ ID (0x9F) runs once: jedec.id, jedec.valid
//   buffer    data0..31 of the register block: byte i of a transfer is byte
//             i % 8 of data(i / 8); incoming bytes are written one at a time
//             through the fields' hardware write enables
//   reload    reload.go pulses reload_req with reload.addr (registered)
//   boot      boot.slot shows the boot_slot strap (the harness's choice);
//             with boot_slot != 0, boot_version/boot_build become
//             info.version/info.build (id_* to nic_reg_map)
//
// The register block is the generated one: this unit reads the full hwif_out
// and drives the flash fields of flash_hwif (every other field 0), which
// nic_reg_map takes over (the struct type names of a block carry hashes; the
// member names do not). Synchronous to clk, reset rst (sync, high).

`default_nettype none

module nic_flash (
  // ---------------- clock and reset ----------------
  input  wire logic                              clk,
  input  wire logic                              rst,          // synchronous, active high

  // ---------------- register file ----------------
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire extoll_regs_pkg::extoll_nic__out_t hwif_out,     // only the flash fields are used
  /* verilator lint_on UNUSEDSIGNAL */
  output      extoll_regs_pkg::extoll_nic__in_t  flash_hwif,   // the flash fields; the rest 0

  // ---------------- flash pins (SPI x1) ----------------
  output      logic                              flash_sck,
  output      logic                              flash_cs_n,
  output      logic                              flash_dq0,    // to the part (its DQ0/DI), a register bit
  input  wire logic                              flash_dq1,    // from the part (its DQ1/DO)

  // ---------------- reconfiguration ----------------
  output      logic                              reload_req,   // one-cycle pulse
  output      logic [31:0]                       reload_addr,  // valid with reload_req
  input  wire logic [1:0]                        boot_slot,    // 0 build-time, 1 fallback, 2 update (static)
  input  wire logic [47:0]                       boot_version, // the booted image's identity (static)
  input  wire logic [63:0]                       boot_build,

  // ---------------- identity to info.version / info.build (registered straps) ----------------
  output      logic                              id_boot,      // boot_slot != 0: use the two below
  output      logic [47:0]                       id_version,
  output      logic [63:0]                       id_build
);

  localparam logic [7:0] OP_RDID  = 8'h9F;
  localparam logic [7:0] OP_RDFSR = 8'h70;

  typedef enum logic [2:0] { S_IDLE, S_LO, S_HI, S_HOLD, S_GAP } state_e;
  typedef enum logic [1:0] { K_CMD, K_POLL, K_ID } kind_e;

  // ------------------------------------------------------------------
  // Register fields
  // ------------------------------------------------------------------
  logic [31:0][63:0] buf_q;        // data0..31
  logic [7:0]        cmd_op;
  logic [2:0]        cmd_alen;
  logic              cmd_rd, cmd_poll, cmd_go;
  logic [8:0]        cmd_len;
  logic [31:0]       cmd_addr;
  logic [7:0]        half;

`define NIC_FLASH_BUF(i) buf_q[i] = hwif_out.flash.data``i.data.value;
  always_comb begin
    `NIC_FLASH_BUF(0)  `NIC_FLASH_BUF(1)  `NIC_FLASH_BUF(2)  `NIC_FLASH_BUF(3)
    `NIC_FLASH_BUF(4)  `NIC_FLASH_BUF(5)  `NIC_FLASH_BUF(6)  `NIC_FLASH_BUF(7)
    `NIC_FLASH_BUF(8)  `NIC_FLASH_BUF(9)  `NIC_FLASH_BUF(10) `NIC_FLASH_BUF(11)
    `NIC_FLASH_BUF(12) `NIC_FLASH_BUF(13) `NIC_FLASH_BUF(14) `NIC_FLASH_BUF(15)
    `NIC_FLASH_BUF(16) `NIC_FLASH_BUF(17) `NIC_FLASH_BUF(18) `NIC_FLASH_BUF(19)
    `NIC_FLASH_BUF(20) `NIC_FLASH_BUF(21) `NIC_FLASH_BUF(22) `NIC_FLASH_BUF(23)
    `NIC_FLASH_BUF(24) `NIC_FLASH_BUF(25) `NIC_FLASH_BUF(26) `NIC_FLASH_BUF(27)
    `NIC_FLASH_BUF(28) `NIC_FLASH_BUF(29) `NIC_FLASH_BUF(30) `NIC_FLASH_BUF(31)
  end
`undef NIC_FLASH_BUF

  assign cmd_op   = hwif_out.flash.cmd.opcode.value;
  assign cmd_alen = hwif_out.flash.cmd.alen.value;
  assign cmd_rd   = hwif_out.flash.cmd.rd.value;
  assign cmd_poll = hwif_out.flash.cmd.poll.value;
  assign cmd_len  = hwif_out.flash.cmd.len.value;
  assign cmd_go   = hwif_out.flash.cmd.go.value;
  assign cmd_addr = hwif_out.flash.addr.addr.value;
  assign half     = hwif_out.flash.div.half.value;

  // ------------------------------------------------------------------
  // The transfer in progress
  // ------------------------------------------------------------------
  state_e      state;
  kind_e       kind;
  logic [7:0]  op;
  logic [2:0]  alen;           // 0, 3 or 4
  logic        rd, poll;
  logic [8:0]  len;
  logic [31:0] addr;
  logic [9:0]  bi;             // byte index on the wire: opcode, address, data
  logic [2:0]  bit_n;          // bit of the byte (7 first)
  logic [7:0]  cnt;            // cycles left in this half period
  logic [7:0]  tx, rx;         // outgoing byte (flash_dq0 = tx[7]), incoming shift register
  logic        boot_id;        // the JEDEC ID read after reset is owed

  // status
  logic        busy, done, error, fsr_err;
  logic [7:0]  fsr;
  logic [31:0] polls;
  logic [23:0] jedec;
  logic        jedec_valid;

  // buffer write port (one byte a cycle)
  logic        bw_en;
  logic [4:0]  bw_word;
  logic [63:0] bw_val;

  // The byte at wire index i of the current transfer.
  function automatic logic [7:0] wire_byte(input logic [9:0] i);
    logic [7:0] d;               // data byte index
    wire_byte = 8'h00;
    d = 8'(i - 10'd1 - 10'(alen));
    if (i == 10'd0) wire_byte = op;
    else if (i <= 10'(alen)) wire_byte = addr[8 * (int'(alen) - int'(i)) +: 8];
    else if (!rd) wire_byte = buf_q[d[7:3]][8 * d[2:0] +: 8];
  endfunction

  logic [9:0] last_bi;
  assign last_bi = 10'(alen) + 10'(len);   // 1 + alen + len bytes

  logic [2:0] go_alen;
  assign go_alen = (cmd_alen == 3'd0 || cmd_alen == 3'd3) ? cmd_alen : 3'd4;

  // Incoming data byte index (valid while bi > alen)
  logic [7:0] rd_d;
  assign rd_d = 8'(bi - 10'd1 - 10'(alen));

  logic [7:0] next_byte;         // the byte after the current one
  assign next_byte = wire_byte(bi + 10'd1);

  assign flash_dq0 = tx[7];

  always_ff @(posedge clk) begin
    bw_en <= 1'b0;
    if (rst) begin
      state       <= S_IDLE;
      kind        <= K_ID;
      flash_sck   <= 1'b0;
      flash_cs_n  <= 1'b1;
      busy        <= 1'b1;
      done        <= 1'b0;
      error       <= 1'b0;
      fsr_err     <= 1'b0;
      fsr         <= 8'h00;
      polls       <= '0;
      jedec       <= '0;
      jedec_valid <= 1'b0;
      boot_id     <= 1'b1;
      op <= 8'h00; alen <= 3'd0; rd <= 1'b0; poll <= 1'b0; len <= '0; addr <= '0;
      bi <= '0; bit_n <= 3'd7; cnt <= '0; tx <= '0; rx <= '0;
    end else begin
      // a GO while busy, or with a bad length, is refused
      if (cmd_go && (state != S_IDLE || boot_id || cmd_len > 9'd256)) error <= 1'b1;

      case (state)
        S_IDLE: begin
          flash_cs_n <= 1'b1;
          flash_sck  <= 1'b0;
          if (boot_id) begin
            kind <= K_ID; op <= OP_RDID; alen <= 3'd0; rd <= 1'b1; poll <= 1'b0; len <= 9'd3;
            state <= S_LO; cnt <= half; bi <= '0; bit_n <= 3'd7;
            tx <= OP_RDID; flash_cs_n <= 1'b0; busy <= 1'b1;
          end else if (cmd_go && cmd_len <= 9'd256) begin
            kind <= K_CMD; op <= cmd_op; alen <= go_alen; rd <= cmd_rd; poll <= cmd_poll;
            len <= cmd_len; addr <= cmd_addr;
            state <= S_LO; cnt <= half; bi <= '0; bit_n <= 3'd7;
            tx <= cmd_op; flash_cs_n <= 1'b0;
            busy <= 1'b1; done <= 1'b0; error <= 1'b0;
            if (cmd_poll) begin
              fsr_err <= 1'b0;
              polls   <= '0;
            end
          end else begin
            busy <= 1'b0;
          end
        end

        S_LO: begin                                  // sck low: dq0 holds the bit
          if (cnt != 8'd0) cnt <= cnt - 8'd1;
          else begin
            flash_sck <= 1'b1;                       // rising edge: sample dq1
            rx        <= {rx[6:0], flash_dq1};
            state     <= S_HI;
            cnt       <= half;
          end
        end

        S_HI: begin
          if (cnt != 8'd0) cnt <= cnt - 8'd1;
          else begin
            flash_sck <= 1'b0;                       // falling edge: next bit
            cnt       <= half;
            if (bit_n != 3'd0) begin
              bit_n     <= bit_n - 3'd1;
              tx        <= {tx[6:0], 1'b0};
              state     <= S_LO;
            end else begin
              // a byte is complete: store what came in
              if (rd && bi > 10'(alen)) begin
                case (kind)
                  K_CMD: begin
                    bw_en   <= 1'b1;
                    bw_word <= rd_d[7:3];
                    bw_val  <= buf_q[rd_d[7:3]];
                    bw_val[8 * rd_d[2:0] +: 8] <= rx;
                  end
                  K_POLL:  fsr <= rx;
                  default: jedec <= {jedec[15:0], rx};
                endcase
              end
              if (bi == last_bi) begin
                state <= S_HOLD;
              end else begin
                bi        <= bi + 10'd1;
                bit_n     <= 3'd7;
                tx        <= next_byte;
                state     <= S_LO;
              end
            end
          end
        end

        S_HOLD: begin                                // sck low, cs_n still low
          if (cnt != 8'd0) cnt <= cnt - 8'd1;
          else begin
            flash_cs_n <= 1'b1;
            tx         <= 8'h00;
            state      <= S_GAP;
            cnt        <= half;
          end
        end

        default: begin                               // S_GAP: cs_n high, then the next step
          if (cnt != 8'd0) cnt <= cnt - 8'd1;
          else if ((kind == K_CMD && poll) || (kind == K_POLL && !fsr[7])) begin
            if (kind == K_POLL && polls != '1) polls <= polls + 32'd1;
            kind <= K_POLL; op <= OP_RDFSR; alen <= 3'd0; rd <= 1'b1; len <= 9'd1;
            state <= S_LO; cnt <= half; bi <= '0; bit_n <= 3'd7;
            tx <= OP_RDFSR; flash_cs_n <= 1'b0;
          end else begin
            if (kind == K_POLL) begin
              if (polls != '1) polls <= polls + 32'd1;
              fsr_err <= |(fsr & 8'h32);
            end
            if (kind == K_ID) begin
              jedec_valid <= 1'b1;
              boot_id     <= 1'b0;
            end else begin
              done <= 1'b1;
            end
            state <= S_IDLE;
          end
        end
      endcase
    end
  end

  // ------------------------------------------------------------------
  // Boot identity: static straps, registered once (as nic_reg_hw does with
  // the node id) so the register file does not depend on top-level inputs
  // ------------------------------------------------------------------
  logic [1:0] slot_q;
  always_ff @(posedge clk) begin
    slot_q     <= boot_slot;
    id_boot    <= boot_slot != 2'd0;
    id_version <= boot_version;
    id_build   <= boot_build;
  end

  // ------------------------------------------------------------------
  // Reconfiguration request
  // ------------------------------------------------------------------
  always_ff @(posedge clk) begin
    if (rst) begin
      reload_req  <= 1'b0;
      reload_addr <= '0;
    end else begin
      reload_req  <= hwif_out.flash.reload.go.value;
      if (hwif_out.flash.reload.go.value) reload_addr <= hwif_out.flash.reload.addr.value;
    end
  end

  // ------------------------------------------------------------------
  // Fields back to the register file
  // ------------------------------------------------------------------
`define NIC_FLASH_BW(i) \
    flash_hwif.flash.data``i.data.next = bw_val; \
    flash_hwif.flash.data``i.data.we   = bw_en && bw_word == 5'(i);
  always_comb begin
    flash_hwif = '0;
    flash_hwif.flash.status.busy.next    = busy;
    flash_hwif.flash.status.done.next    = done;
    flash_hwif.flash.status.error.next   = error;
    flash_hwif.flash.status.fsr_err.next = fsr_err;
    flash_hwif.flash.status.fsr.next     = fsr;
    flash_hwif.flash.status.polls.next   = polls;
    flash_hwif.flash.jedec.id.next       = jedec;
    flash_hwif.flash.jedec.valid.next    = jedec_valid;
    flash_hwif.flash.boot.slot.next      = slot_q;
    `NIC_FLASH_BW(0)  `NIC_FLASH_BW(1)  `NIC_FLASH_BW(2)  `NIC_FLASH_BW(3)
    `NIC_FLASH_BW(4)  `NIC_FLASH_BW(5)  `NIC_FLASH_BW(6)  `NIC_FLASH_BW(7)
    `NIC_FLASH_BW(8)  `NIC_FLASH_BW(9)  `NIC_FLASH_BW(10) `NIC_FLASH_BW(11)
    `NIC_FLASH_BW(12) `NIC_FLASH_BW(13) `NIC_FLASH_BW(14) `NIC_FLASH_BW(15)
    `NIC_FLASH_BW(16) `NIC_FLASH_BW(17) `NIC_FLASH_BW(18) `NIC_FLASH_BW(19)
    `NIC_FLASH_BW(20) `NIC_FLASH_BW(21) `NIC_FLASH_BW(22) `NIC_FLASH_BW(23)
    `NIC_FLASH_BW(24) `NIC_FLASH_BW(25) `NIC_FLASH_BW(26) `NIC_FLASH_BW(27)
    `NIC_FLASH_BW(28) `NIC_FLASH_BW(29) `NIC_FLASH_BW(30) `NIC_FLASH_BW(31)
  end
`undef NIC_FLASH_BW

endmodule

`default_nettype wire
