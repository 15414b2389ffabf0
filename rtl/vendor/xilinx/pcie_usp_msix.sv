// SPDX-License-Identifier: Apache-2.0
//
// pcie_usp_msix: the one MSI-X vector of the NIC through the MSI-X
// interface of a Xilinx UltraScale+ PCIe (PCIE4) hard IP
// (cfg_interrupt_msix_*, PG213; docs/hard-ip.md). The IP owns the MSI-X
// capability (Enable, Function Mask: cfg_interrupt_msix_enable/_mask); the
// table entry (address, data, Vector Control mask) stays in the NIC's BAR0
// (register block msix, the IP configured with the table in BAR0 at 0x1000,
// PBA at 0x1800), so the NIC hands address and data to the IP with each
// request. Same rules as pcie_msix (the NIC's own MSI-X engine):
//   * a rising edge of irq while MSI-X is enabled owes one message (also a
//     cause already pending when MSI-X gets enabled);
//   * an owed message is requested when neither the Function Mask nor the
//     vector's mask is set and Bus Master Enable is set; while masked it is
//     the vector's Pending bit;
//   * if the cause goes away while the message is owed, nothing is sent.
// Ordering: the request also waits for order_ok (pcie_usp_tx: every request
// the NIC sent before is on the link), so the message follows the data it
// announces. cfg_interrupt_msix_int is a one-cycle pulse; address and data
// stay stable until the IP answers with _sent or _fail. Synchronous to clk, rst.

`default_nettype none

module pcie_usp_msix (
  // ---------------- clock and reset ----------------
  input  wire logic        clk,
  input  wire logic        rst,                    // synchronous, active high

  // ---------------- the NIC ----------------
  input  wire logic        irq,                    // level: an enabled interrupt cause is pending
  input  wire logic        bus_master,             // Command: Bus Master Enable (from the IP)
  input  wire logic [63:2] vec_addr,               // table entry: message address
  input  wire logic [31:0] vec_data,               // table entry: message data
  input  wire logic        vec_mask,               // table entry: Vector Control mask
  input  wire logic        order_ok,               // pcie_usp_tx: earlier requests are on the link
  output      logic        pending,                // PBA bit of the vector
  output      logic        msix_en,                // MSI-X Enable (from the IP)
  output      logic        ev_msg,                 // pulse: the IP sent a message

  // ---------------- MSI-X interface of the hard IP ----------------
  input  wire logic [3:0]  cfg_interrupt_msix_enable,  // per function: MSI-X Enable
  input  wire logic [3:0]  cfg_interrupt_msix_mask,    // per function: Function Mask
  output      logic [63:0] cfg_interrupt_msix_address,
  output      logic [31:0] cfg_interrupt_msix_data,
  output      logic        cfg_interrupt_msix_int,     // pulse: send the message
  input  wire logic        cfg_interrupt_msix_sent,
  input  wire logic        cfg_interrupt_msix_fail
);

  typedef enum logic [1:0] { M_IDLE, M_REQ, M_WAIT } mstate_e;

  mstate_e     state_q;
  logic        irq_q, owe_q, fmask, send;
  logic [63:0] addr_q;
  logic [31:0] data_q;

  assign msix_en = cfg_interrupt_msix_enable[0];
  assign fmask   = cfg_interrupt_msix_mask[0];
  assign send    = owe_q && irq && msix_en && !fmask && !vec_mask && bus_master && order_ok &&
                   state_q == M_IDLE;

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q <= M_IDLE;
      irq_q   <= 1'b0;
      owe_q   <= 1'b0;
      addr_q  <= '0;
      data_q  <= '0;
    end else begin
      irq_q <= irq && msix_en;
      if (!msix_en || !irq) begin
        owe_q <= 1'b0;                             // disabled, or the cause was served
      end else if (irq && !irq_q) begin
        owe_q <= 1'b1;                             // a new cause
      end
      case (state_q)
        M_IDLE: if (send) begin
          owe_q   <= 1'b0;
          addr_q  <= {vec_addr, 2'b00};
          data_q  <= vec_data;
          state_q <= M_REQ;
        end
        M_REQ:  state_q <= M_WAIT;
        M_WAIT: if (cfg_interrupt_msix_sent || cfg_interrupt_msix_fail) state_q <= M_IDLE;
        default: state_q <= M_IDLE;
      endcase
    end
  end

  assign cfg_interrupt_msix_int     = state_q == M_REQ;
  assign cfg_interrupt_msix_address = addr_q;
  assign cfg_interrupt_msix_data    = data_q;
  assign pending                    = owe_q && irq;
  assign ev_msg                     = state_q == M_WAIT && cfg_interrupt_msix_sent;

  logic unused;
  assign unused = ^{cfg_interrupt_msix_enable[3:1], cfg_interrupt_msix_mask[3:1]};

endmodule

`default_nettype wire
