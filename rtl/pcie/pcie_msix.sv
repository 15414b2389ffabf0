// SPDX-License-Identifier: Apache-2.0
//
// pcie_msix: the message engine of a one-vector MSI-X function (PCIe Base
// Spec. 6.1.4 MSI and MSI-X operation, 7.7.2 MSI-X capability). The table
// entry (message address, data, Vector Control mask) lives in the caller's
// BAR (for the NIC: the register file, hw/regs/extoll_nic.rdl block msix);
// this module turns the level of the function's interrupt cause into
// messages:
//   * a rising edge of irq while MSI-X is enabled owes one message (also a
//     cause already pending when MSI-X gets enabled);
//   * an owed message is sent (a 1-DW MWr of the entry's data to its
//     address) when neither the Function Mask nor the vector's mask is set
//     and Bus Master Enable is set (7.5.1.1.3: no MSI/MSI-X without it);
//     while masked it shows as the vector's Pending bit (6.1.4.5);
//   * if the cause goes away while the message is still owed, the Pending
//     bit is cleared and nothing is sent (6.1.4.5: no spurious message);
//   * with MSI-X enabled the function must not use INTx (6.1.4.3): intx_en
//     tells the caller to hold its INTx level low.
// Requester ID = the function's completer ID (cpl_id), tag 0, TC 0: the
// message is a posted write and takes the caller's posted path, behind the
// writes that came before the cause (the caller merges it).

`default_nettype none
`include "tlp_stream.svh"

module pcie_msix (
  input  wire logic        clk,
  input  wire logic        rst,
  // ---------------- state ----------------
  input  wire logic        irq,          // level: an enabled interrupt cause is pending
  input  wire logic        msix_en,      // MSI-X capability: MSI-X Enable
  input  wire logic        fmask,        // MSI-X capability: Function Mask
  input  wire logic        bus_master,   // Command: Bus Master Enable
  input  wire logic [15:0] req_id,       // requester ID of the message
  input  wire logic [63:2] vec_addr,     // table entry: message address (dword aligned)
  input  wire logic [31:0] vec_data,     // table entry: message data
  input  wire logic        vec_mask,     // table entry: Vector Control mask bit
  output      logic        pending,      // PBA bit of the vector
  output      logic        intx_en,      // INTx allowed (MSI-X disabled)
  output      logic        ev_msg,       // pulse: a message left
  // ---------------- messages (MWr, 1 dword) ----------------
  `TLP_M_PORTS(m_msg)
);

  `include "pcie_tlp_func.svh"

  typedef enum logic [1:0] { M_IDLE, M_HDR, M_DATA } mstate_e;
  mstate_e     state_q;
  logic        irq_q, owe_q;
  logic [63:0] addr_q;
  logic [31:0] data_q;
  logic        send;

  assign send = owe_q && irq && !fmask && !vec_mask && bus_master && state_q == M_IDLE;

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
        owe_q <= 1'b0;                 // disabled, or the cause was served
      end else if (irq && !irq_q) begin
        owe_q <= 1'b1;                 // a new cause
      end
      case (state_q)
        M_IDLE: if (send) begin
          owe_q   <= 1'b0;
          addr_q  <= {vec_addr, 2'b00};
          data_q  <= vec_data;
          state_q <= M_HDR;
        end
        M_HDR:  if (m_msg_ready) state_q <= M_DATA;
        M_DATA: if (m_msg_ready) state_q <= M_IDLE;
        default: state_q <= M_IDLE;
      endcase
    end
  end

  always_comb begin
    m_msg_valid = (state_q == M_HDR) || (state_q == M_DATA);
    m_msg_sop   = (state_q == M_HDR);
    m_msg_eop   = (state_q == M_DATA);
    if (state_q == M_HDR) begin
      m_msg_data = tlp_mem_hdr(1'b1, addr_q, 10'd1, req_id, 8'd0, 4'hf, 4'h0);
      m_msg_keep = tlp_mem_hdr_keep(addr_q);
    end else begin
      m_msg_data = {96'd0, data_q};
      m_msg_keep = tlp_keep(3'd1);
    end
  end

  assign pending = owe_q && irq;
  assign intx_en = !msix_en;
  assign ev_msg  = (state_q == M_DATA) && m_msg_ready;

endmodule

`default_nettype wire
