// SPDX-License-Identifier: Apache-2.0
//
// link_phy_cdc: the clock-domain crossing of one link port between the NIC
// core clock (core_clk: link_tx, link_rx, the router) and the link's PHY: its
// transmit user clock (tx_clk) and its receive clock (rx_clk, recovered from
// the far side's transmit clock), all unrelated (docs/network.md "Link
// clocking"). The symbols are net_node's (128 data, 16 framing, 32 CRC bits
// per cycle and direction: docs/network.md "Link layer").
//
//   core_clk                 |  tx_clk / rx_clk
//   s_core_* (link_tx) --> drop IDLE --> async_fifo --> m_tx_* (IDLE when empty)
//   m_core_* (link_rx) <-- IDLE when empty <-- async_fifo <-- drop IDLE <-- s_rx_*
//
// Rate matching: only IDLE symbols are deleted or inserted. A symbol is IDLE
// only if all of its 176 bits are the IDLE symbol's (all zero, CRC
// LINK_IDLE_CRC); anything else (data, control words, and a corrupted symbol,
// which link_rx must see to ask for a replay) crosses, in order, each once.
// Each FIFO is written with the non-IDLE symbols only and read whenever it
// holds one; its reader sends IDLE in a cycle it is empty. So the reader
// inserts what the clocks' difference needs, and the writer deletes every
// IDLE (IDLEs carry nothing: link_rx does nothing on them). Nothing is lost
// as long as the non-IDLE symbols never arrive faster than the reader's clock
// takes them, over any stretch of time:
//   transmit: the core's link_tx sends at most IDLE_GAP - 1 non-IDLE symbols
//             in IDLE_GAP consecutive cycles (net_node LINK_IDLE_GAP), so
//             f_tx >= f_core * (1 - 1 / IDLE_GAP) suffices (the usual PHY
//             clock is faster than the core's: it inserts, never waits);
//   receive:  the far core sends at most f_far_core * (1 - 1 / IDLE_GAP)
//             non-IDLE symbols a second, whatever its PHY clock, so
//             f_core >= f_far_core * (1 - 1 / IDLE_GAP) suffices: the two
//             nodes' core clocks may differ by up to 1 / IDLE_GAP (IDLE_GAP
//             256: 3900 ppm; crystals are within +-100 ppm).
// A FIFO that overflows anyway (clocks out of that range) drops the symbol and
// sets its sticky flag (m_tx_ovf, m_rx_ovf) and, in simulation, an $error: the
// link layer then sees a sequence gap and replays, and the test fails.
//
// Latency: a symbol written at a writer edge is seen by the reader after
// SYNC_STAGES reader edges (SYNC_STAGES + 1 when the synchroniser's first
// flip-flop resolves late) and leaves on the next; with each side's register
// that is SYNC_STAGES + 2..3 cycles per direction (docs/network.md "Link
// clocking" has the measured figures).
//
// FIFO depth (DEPTH_LOG2): the writer sees the FIFO as full as the symbols it
// wrote during a pointer round trip: SYNC_STAGES + 2 reader edges until the
// reader has read a symbol (above), then SYNC_STAGES + 1 writer edges until
// the writer sees that read, plus one writer cycle of phase; and the backlog
// the rate difference builds within the ranges above: at most one symbol per
// IDLE_GAP window on transmit, on receive the far side's transmit FIFO
// draining a backlog of up to its true fill at a PHY clock a few % faster
// than this core (the 161.13 / 156.25 MHz pair, 3 %). For SYNC_STAGES 2 and
// clocks within 4 % of each other (SYNC_STAGES + 2) * 1.04 + (SYNC_STAGES
// + 1) + 1 + 1 = 9.2: at most 9 entries in use as the writer sees it, 10 for
// SYNC_STAGES 3. So 16 entries (DEPTH_LOG2 4), the next power of two: a
// writer that finds the FIFO full has lost a symbol (m_*_ovf), it cannot
// wait. tb_lclk measured 9 (writer's view; 6 really unread) with SYNC_STAGES 2
// and the synchronisers' jitter; 8 entries (DEPTH_LOG2 3) overflow there.
//
// Resets (each synchronous to its clock, active high, of any length):
// core_rst, tx_rst (the PHY's transmit side not ready), rx_rst (receive side
// not locked). Both sides of an async_fifo must restart together: a side
// still running while the other's pointer returns to 0 sees a false fill
// level (a reader replays stale entries, a writer sees the FIFO full). So
// each FIFO's reset is the OR of its two domains' resets, asserted into both
// domains asynchronously (sync_reset: each side is in reset from its next
// edge, before a pointer synchroniser of SYNC_STAGES >= 2 flip-flops can carry
// the other side's reset pointer to it) and released RST_STAGES = SYNC_STAGES
// + 3 edges after the source falls. By then the other side has been in reset
// since its first edge after the rise, and its reset pointer has crossed
// (SYNC_STAGES + 1 edges with the late resolution) if the slower clock's
// period is at most twice the faster one's; a side released first is safe
// (the reader in reset does not move, the writer's view of it is 0). The
// combinational OR into sync_reset's asynchronous set is the only path
// between the domains (false path in the constraints). While the receive
// side is in reset link_rx gets all-zero symbols (a dead wire: bad symbols,
// the link retrains as on a cut cable); while the transmit side is, the far
// side gets all-zero symbols.

`default_nettype none

module link_phy_cdc #(
  // --------------------------------------------------------------------------
  // Parameters
  // --------------------------------------------------------------------------
  parameter int DEPTH_LOG2  = 4,                 // entries per FIFO, log2
  parameter int SYNC_STAGES = 2,                 // flip-flops per synchroniser
  localparam int FW         = net_pkg::FLIT_W,
  localparam int SW         = FW + 16 + 32       // one symbol: {crc, frm, data}
) (
  // --------------------------------------------------------------------------
  // Core clock and reset (link_tx, link_rx)
  // --------------------------------------------------------------------------
  input  wire logic          core_clk,
  input  wire logic          core_rst,
  // --------------------------------------------------------------------------
  // Core side: symbols from link_tx (net_node m_phy_*), one per core cycle
  // --------------------------------------------------------------------------
  input  wire logic [FW-1:0] s_core_data,
  input  wire logic [15:0]   s_core_frm,
  input  wire logic [31:0]   s_core_crc,
  // --------------------------------------------------------------------------
  // Core side: symbols to link_rx (net_node s_phy_*), one per core cycle
  // --------------------------------------------------------------------------
  output      logic [FW-1:0] m_core_data,
  output      logic [15:0]   m_core_frm,
  output      logic [31:0]   m_core_crc,
  // --------------------------------------------------------------------------
  // PHY transmit side: one symbol per tx_clk cycle (registered)
  // --------------------------------------------------------------------------
  input  wire logic          tx_clk,
  input  wire logic          tx_rst,
  output      logic [FW-1:0] m_tx_data,
  output      logic [15:0]   m_tx_frm,
  output      logic [31:0]   m_tx_crc,
  // --------------------------------------------------------------------------
  // PHY receive side: one symbol per rx_clk cycle
  // --------------------------------------------------------------------------
  input  wire logic          rx_clk,
  input  wire logic          rx_rst,
  input  wire logic [FW-1:0] s_rx_data,
  input  wire logic [15:0]   s_rx_frm,
  input  wire logic [31:0]   s_rx_crc,
  // --------------------------------------------------------------------------
  // Status (core domain, sticky until core_rst)
  // --------------------------------------------------------------------------
  output      logic          m_tx_ovf,         // a symbol was lost: transmit FIFO full
  output      logic          m_rx_ovf          // a symbol was lost: receive FIFO full
);

  localparam logic [SW-1:0] IDLE = {net_pkg::LINK_IDLE_CRC, 16'd0, FW'(0)};

  // ------------------------------------------------------------------
  // Resets across the domains
  // ------------------------------------------------------------------
  // Each FIFO's reset source is the OR of its two domains' resets, taken
  // into each of them by a sync_reset: asserted asynchronously (both sides
  // are in reset from their next edge, before either can see the other's
  // pointer return to 0 through a SYNC_STAGES synchroniser), released
  // RST_STAGES edges after the source falls, by when the pointer
  // synchronisers hold the other side's reset pointer (see the header).
  localparam int RST_STAGES = SYNC_STAGES + 3;

  logic tx_arst, rx_arst;                        // asynchronous: two domains' resets
  logic tx_w_rst, tx_r_rst, rx_w_rst, rx_r_rst;  // the FIFO sides' resets
  logic core_rst_c, core_rst_r;                  // core_rst for the sticky flags, core / rx domain

  assign tx_arst = core_rst || tx_rst;
  assign rx_arst = core_rst || rx_rst;

  sync_reset #(.STAGES (RST_STAGES)) u_tx_w_rst (.clk (core_clk), .s_arst (tx_arst), .m_rst (tx_w_rst));
  sync_reset #(.STAGES (RST_STAGES)) u_tx_r_rst (.clk (tx_clk), .s_arst (tx_arst), .m_rst (tx_r_rst));
  sync_reset #(.STAGES (RST_STAGES)) u_rx_w_rst (.clk (rx_clk), .s_arst (rx_arst), .m_rst (rx_w_rst));
  sync_reset #(.STAGES (RST_STAGES)) u_rx_r_rst (.clk (core_clk), .s_arst (rx_arst), .m_rst (rx_r_rst));
  // core_rst itself only feeds asynchronous sets here (a net flopped both
  // ways is a lint error), also for the core domain's flag
  sync_reset #(.STAGES (RST_STAGES)) u_core_rst_c (.clk (core_clk), .s_arst (core_rst), .m_rst (core_rst_c));
  sync_reset #(.STAGES (RST_STAGES)) u_core_rst_r (.clk (rx_clk), .s_arst (core_rst), .m_rst (core_rst_r));

  // ------------------------------------------------------------------
  // Transmit: core -> tx_clk
  // ------------------------------------------------------------------
  logic [SW-1:0] tx_sym, txf_data, tx_q;
  logic          tx_wr, tx_ready, txf_valid, tx_idle_unused;

  assign tx_sym = {s_core_crc, s_core_frm, s_core_data};
  assign tx_wr  = !tx_w_rst && tx_sym != IDLE;   // IDLEs deleted

  async_fifo #(.W (SW), .DEPTH_LOG2 (DEPTH_LOG2), .SYNC_STAGES (SYNC_STAGES)) u_tx_fifo (
    .s_clk (core_clk), .s_rst (tx_w_rst),
    .s_data (tx_sym), .s_valid (tx_wr), .s_ready (tx_ready), .s_idle (tx_idle_unused),
    .m_clk (tx_clk), .m_rst (tx_r_rst),
    .m_data (txf_data), .m_valid (txf_valid), .m_ready (1'b1)
  );

  always_ff @(posedge core_clk) begin
    if (core_rst_c)              m_tx_ovf <= 1'b0;
    else if (tx_wr && !tx_ready) m_tx_ovf <= 1'b1;
  end

  // an IDLE inserted whenever the FIFO is empty
  always_ff @(posedge tx_clk) begin
    if (tx_r_rst)       tx_q <= '0;
    else if (txf_valid) tx_q <= txf_data;
    else                tx_q <= IDLE;
  end

  assign {m_tx_crc, m_tx_frm, m_tx_data} = tx_q;

  // ------------------------------------------------------------------
  // Receive: rx_clk -> core
  // ------------------------------------------------------------------
  logic [SW-1:0] rx_in_q, rxf_data, rx_q;
  logic          rx_wr, rx_ready, rxf_valid, rx_ovf_q, rx_idle_unused;

  always_ff @(posedge rx_clk) rx_in_q <= {s_rx_crc, s_rx_frm, s_rx_data};

  assign rx_wr = !rx_w_rst && rx_in_q != IDLE;   // IDLEs deleted

  async_fifo #(.W (SW), .DEPTH_LOG2 (DEPTH_LOG2), .SYNC_STAGES (SYNC_STAGES)) u_rx_fifo (
    .s_clk (rx_clk), .s_rst (rx_w_rst),
    .s_data (rx_in_q), .s_valid (rx_wr), .s_ready (rx_ready), .s_idle (rx_idle_unused),
    .m_clk (core_clk), .m_rst (rx_r_rst),
    .m_data (rxf_data), .m_valid (rxf_valid), .m_ready (1'b1)
  );

  always_ff @(posedge rx_clk) begin
    if (core_rst_r)              rx_ovf_q <= 1'b0;
    else if (rx_wr && !rx_ready) rx_ovf_q <= 1'b1;
  end

  sync_bit #(.WIDTH (1), .STAGES (SYNC_STAGES)) u_rx_ovf_c (
    .clk (core_clk), .s_async (rx_ovf_q), .m_sync (m_rx_ovf)
  );

  // an IDLE inserted whenever the FIFO is empty; a dead wire in reset
  always_ff @(posedge core_clk) begin
    if (rx_r_rst)       rx_q <= '0;
    else if (rxf_valid) rx_q <= rxf_data;
    else                rx_q <= IDLE;
  end

  assign {m_core_crc, m_core_frm, m_core_data} = rx_q;

`ifndef SYNTHESIS
  always_ff @(posedge core_clk) begin
    if (tx_wr && !tx_ready) $error("link_phy_cdc: transmit FIFO overflow (tx_clk too slow for the core)");
  end
  always_ff @(posedge rx_clk) begin
    if (rx_wr && !rx_ready) $error("link_phy_cdc: receive FIFO overflow (far core faster than this one)");
  end
`endif

endmodule

`default_nettype wire
