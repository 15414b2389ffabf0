// SPDX-License-Identifier: Apache-2.0
//
// rma_sbuf: the RMA unit's read-slot data buffer (docs/rma.md). One slot per
// outstanding source read of at most 64 dwords (256 B), 16 rows of four
// dwords each; row r of a slot holds dwords 4r .. 4r + 3 of the chunk, so
// the writer reads one payload flit of an SMFU_WR per row with no shifting.
//
// A completion's data may start at any dword of the chunk (a completer
// splits its completions at RCB boundaries of the source address, so the
// second piece of a chunk starts wherever the first one ended). The buffer
// is four banks of one dword each (bank j = dword lane j of a row): a flit
// whose dword 0 belongs at chunk dword p is rotated by p mod 4 and written
// into up to two rows at once, bank j at row p / 4 (+ 1 for the lanes below
// p mod 4). Only the dwords the packet still carries (s_left) are written.
//
// Write port: one flit per cycle. Read port: combinational (one row of the
// slot the writer is on). Synchronous to clk; no reset (data only).

`default_nettype none

module rma_sbuf #(
  parameter int NSLOT = 8                    // slots (power of two)
) (
  input  wire logic                     clk,

  // ---------------- write: one completion payload flit ----------------
  input  wire logic                     s_we,
  input  wire logic [$clog2(NSLOT)-1:0] s_slot,
  input  wire logic [5:0]               s_pos,    // chunk dword of the flit's dword 0
  input  wire logic [6:0]               s_left,   // dwords the packet still carries (>= 1)
  input  wire logic [127:0]             s_data,

  // ---------------- read: one row ----------------
  input  wire logic [$clog2(NSLOT)-1:0] r_slot,
  input  wire logic [3:0]               r_row,
  output      logic [127:0]             r_data
);

  localparam int SW = $clog2(NSLOT);
  localparam int AW = SW + 4;

  logic [31:0]   mem0 [NSLOT * 16];
  logic [31:0]   mem1 [NSLOT * 16];
  logic [31:0]   mem2 [NSLOT * 16];
  logic [31:0]   mem3 [NSLOT * 16];

  logic [1:0]    rot;
  logic [3:0]    row0;
  logic [3:0]    we;
  logic [3:0][AW-1:0] wa;
  logic [3:0][31:0]   wd;
  logic [3:0][1:0]    k;

  always_comb begin
    rot  = s_pos[1:0];
    row0 = s_pos[5:2];
    for (int j = 0; j < 4; j++) begin
      // lane j takes flit dword k = (j - rot) mod 4, at row row0 (+1 below rot)
      k[j]  = 2'(j) - rot;
      wd[j] = s_data[32*k[j] +: 32];
      wa[j] = {s_slot, row0 + ((2'(j) < rot) ? 4'd1 : 4'd0)};
      we[j] = s_we && ({5'd0, k[j]} < s_left);
    end
  end

  always_ff @(posedge clk) begin
    if (we[0]) mem0[wa[0]] <= wd[0];
    if (we[1]) mem1[wa[1]] <= wd[1];
    if (we[2]) mem2[wa[2]] <= wd[2];
    if (we[3]) mem3[wa[3]] <= wd[3];
  end

  logic [AW-1:0] ra;
  assign ra     = {r_slot, r_row};
  assign r_data = {mem3[ra], mem2[ra], mem1[ra], mem0[ra]};

endmodule

`default_nettype wire
