// SPDX-License-Identifier: Apache-2.0
//
// epf_test_bar_xlate: lets one accel_target serve the six BARs of the PCI
// endpoint test function (docs/epf-test.md). A memory request's header beat
// gets its address replaced by {BAR number, offset in the BAR} (bits 22:20 the
// BAR, 19:0 the offset), as accel_target decodes its device-memory space; an
// address in no enabled BAR becomes 0x0100_0000, beyond what accel_target
// decodes, so the request is a miss there (UR or dropped). Payload beats and
// other TLPs pass unchanged. Combinational; 32-bit BARs only.

`default_nettype none

module epf_test_bar_xlate #(
  parameter int BAR_LOG2 [6] = '{16, 9, 10, 14, 17, 20}  // BAR0..5 sizes, log2 bytes
) (
  // ---------------- configuration (pcie_cfg_func) ----------------
  input  wire logic             mem_enable,
  input  wire logic [5:0][31:0] bar_base,

  // ---------------- the beat, before and after ----------------
  input  wire logic             s_sop,
  input  wire logic [127:0]     s_data,
  output      logic [127:0]     m_data
);

  always_comb begin
    /* verilator lint_off UNUSEDSIGNAL */  // the Fmt/Type bits decide; address bits 1:0
    logic [31:0] d0, d2, d3, internal;
    /* verilator lint_on UNUSEDSIGNAL */
    logic [63:0] a;
    d0 = s_data[31:0];
    d2 = s_data[95:64];
    d3 = s_data[127:96];
    a  = d0[29] ? {d2, d3} : {32'd0, d2};
    internal = 32'h0100_0000;   // beyond the 8 MiB accel_target decodes: a miss
    for (int n = 0; n < 6; n++) begin
      if (mem_enable && a[63:32] == 32'd0 &&
          (a[31:0] >> BAR_LOG2[n]) == (bar_base[n] >> BAR_LOG2[n])) begin
        internal = {9'd0, 3'(n), 20'(a[31:0] & ((32'd1 << BAR_LOG2[n]) - 32'd1))};
      end
    end
    m_data = s_data;
    if (s_sop && d0[28:24] == pcie_tlp_pkg::TYPE_MEM && !d0[31]) begin
      if (d0[29]) begin
        m_data[95:64]  = 32'd0;
        m_data[127:96] = {internal[31:2], d3[1:0]};
      end else begin
        m_data[95:64]  = {internal[31:2], d2[1:0]};
      end
    end
  end

endmodule

`default_nettype wire
