// SPDX-License-Identifier: Apache-2.0
//
// naa_intx: forwards the legacy interrupt (INTx) of the device below an NAA's
// root port to the owner host (docs/epf-test.md "INTx forwarding").
//
// PCIe carries INTx as Assert_INTx / Deassert_INTx messages, which a root port
// turns into its platform's interrupt (PCIe Base Spec. 2.2.8.1: virtual wires,
// the level is the state of the last message). The NAA has no platform: this
// unit turns every edge of the device's INTA# level into a posted memory write
// upstream, into the host NIC's interrupt window, which the pass-through
// carries to the host like an MSI (the notification queue, docs/smfu.md):
//
//   address  ADDR (default: the window's reset base 0xFD_0000_0000 + 1 MiB - 16,
//            an offset no MSI slot uses)
//   data     {1'b1, 28'd0, pin (0 = INTA), level}: bit 31 marks INTx (MSI
//            slots are below 4096), level 1 = Assert_INTA, 0 = Deassert_INTA
//
// naa_bus (kernel/naa_bus/intx.c) keeps the level per pin and gives the child
// a level-triggered interrupt. Every assertion reaches the host: a pulse
// shorter than a message slot is sent as Assert then Deassert.
//
// The message enters the device's upstream TLP stream between whole TLPs, only
// when the device presents no beat, so it stays behind every posted write the
// device sent before the level changed (the order Assert_INTx would have had
// in the device's own stream). Requester ID 0 (the root port, bus 0).

`default_nettype none
`include "tlp_stream.svh"

module naa_intx
#(
  // message address: notify.win_base's reset value + the window's INTx offset
  // (net_pkg::NQ_WIN_INTX_OFF, the layout table NQ_WIN of hw/gen/gen_net.py)
  parameter logic [63:0] ADDR = 64'h0000_00fd_0000_0000 + 64'(net_pkg::NQ_WIN_INTX_OFF)
) (
  input  wire logic         clk,
  input  wire logic         rst,
  // ------------------------------------------------------------------------
  // The device's INTA# level
  // ------------------------------------------------------------------------
  input  wire logic         intx,
  // ------------------------------------------------------------------------
  // Upstream TLP stream from the device (in) and to the NIC (out)
  // ------------------------------------------------------------------------
  `TLP_S_PORTS(s_tlp),
  `TLP_M_PORTS(m_tlp),
  // ------------------------------------------------------------------------
  // Status
  // ------------------------------------------------------------------------
  output      logic         sent_level    // the level the host was last told
);

  `include "pcie_tlp_func.svh"

  logic in_tlp;        // the device is inside a TLP (its sop was taken)
  logic rose;          // an assertion not yet sent (pulse while a message waited)
  logic msg_busy;      // sending the message: 0 header, 1 payload
  logic msg_beat;
  logic msg_level;
  logic want;          // a message is due
  logic want_level;

  always_comb begin
    want       = rose || intx != sent_level;
    want_level = (rose && !sent_level) ? 1'b1 : intx;
  end

  // the message owns the output while msg_busy
  always_comb begin
    if (msg_busy) begin
      m_tlp_valid = 1'b1;
      m_tlp_sop   = !msg_beat;
      m_tlp_eop   = msg_beat;
      m_tlp_keep  = msg_beat ? 4'b0001 : tlp_mem_hdr_keep(ADDR);
      m_tlp_data  = msg_beat ? {96'd0, net_pkg::NQ_WIN_INTX_MSG | 32'(msg_level)}
                             : tlp_mem_hdr(1'b1, ADDR, 10'd1, 16'h0000, 8'd0, 4'hf, 4'h0);
      s_tlp_ready = 1'b0;
    end else begin
      m_tlp_valid = s_tlp_valid;
      m_tlp_sop   = s_tlp_sop;
      m_tlp_eop   = s_tlp_eop;
      m_tlp_keep  = s_tlp_keep;
      m_tlp_data  = s_tlp_data;
      s_tlp_ready = m_tlp_ready;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      in_tlp     <= 1'b0;
      rose       <= 1'b0;
      msg_busy   <= 1'b0;
      msg_beat   <= 1'b0;
      msg_level  <= 1'b0;
      sent_level <= 1'b0;
    end else begin
      if (!msg_busy && s_tlp_valid && m_tlp_ready) in_tlp <= !s_tlp_eop;
      // an assertion while the host still thinks the line is low and a
      // message cannot go yet: remember it (sent even if the level drops)
      if (intx && !sent_level) rose <= 1'b1;
      if (msg_busy) begin
        if (m_tlp_ready) begin
          msg_beat <= !msg_beat;
          if (msg_beat) msg_busy <= 1'b0;
        end
      end else if (want && !in_tlp && !s_tlp_valid) begin
        msg_busy   <= 1'b1;
        msg_beat   <= 1'b0;
        msg_level  <= want_level;
        sent_level <= want_level;
        if (want_level) rose <= 1'b0;
      end
    end
  end

endmodule

`default_nettype wire
