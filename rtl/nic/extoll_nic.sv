// SPDX-License-Identifier: Apache-2.0
//
// extoll_nic: top of the EXTOLL-style NIC in PCIe endpoint mode (the NIC of a
// booster interface host).
//
// Today it is the PCIe endpoint (config space, register BAR, SMFU aperture
// BAR placeholder) in front of the generated register file:
//   pcie_ep      TLP stream <-> config space, BAR0 bridge, UR completions
//   extoll_regs  register file generated from rtl/regs/extoll_nic.rdl
//                (PeakRDL-regblock, passthrough cpuif; never edited by hand)
// plus the hardware side of the registers: identity and version constants,
// the free-running cycle counter, the test interrupt and the PCIe counters.
//
// Interfaces: the TLP streams follow docs/tlp-interface.md (128-bit beats,
// header on the sop beat, payload from beat 1). INTx is a level (`intx`);
// the vendor layer turns edges into Assert_INTA/Deassert_INTA messages.
//
// BARs (both 32-bit, non-prefetchable memory; QEMU's proxy mis-sizes 64-bit BARs):
//   BAR0  2^REG_BAR_LOG2 bytes   register file (64-bit registers)
//   BAR2  2^APERTURE_LOG2 bytes  SMFU aperture: not implemented yet, reads
//                                complete with UR, writes are dropped, both counted

`default_nettype none

// Package items are referenced by qualified name (pcie_tlp_pkg::...):
// Yosys does not read package imports inside modules.

module extoll_nic
#(
    // ---------------- PCI identity ----------------
    parameter logic [15:0] VENDOR_ID     = 16'h1ee7,    // placeholder, unassigned in pci.ids
    parameter logic [15:0] DEVICE_ID     = 16'h0001,    // EXTOLL-style NIC, endpoint mode
    parameter logic [7:0]  REVISION      = 8'h00,       // PCI revision ID
    parameter logic [23:0] CLASS_CODE    = 24'h028000,  // network controller, other

    // ---------------- BAR sizes ----------------
    parameter int          REG_BAR_LOG2  = 16,          // BAR0 size: 64 KiB (>= 12)
    parameter int          APERTURE_LOG2 = 28,          // BAR2 size: 256 MiB (12..31)

    // ---------------- RTL release and build identification ----------------
    parameter logic [15:0] RTL_MAJOR     = 16'd0,       // info.version.major
    parameter logic [15:0] RTL_MINOR     = 16'd1,       // info.version.minor
    parameter logic [15:0] RTL_PATCH     = 16'd0,       // info.version.patch
    parameter logic [31:0] BUILD_DATE    = 32'h0000_0000, // info.build.date, BCD 0xYYYYMMDD
    parameter logic [31:0] BUILD_COMMIT  = 32'h0000_0000, // info.build.commit, 8 hex digits

    // ---------------- network ----------------
    parameter logic [15:0] NODE_ID       = 16'd0,       // info.id.node_id

    // ---------------- implementation ----------------
    parameter int          BURST_DW      = 16           // longest BAR0 request in dwords (2..32)
) (
    // ---------------- clock and reset ----------------
    input  wire logic                  clk,            // NIC core clock
    input  wire logic                  rst,            // synchronous, active high

    // ---------------- TLPs from the PCIe link (vendor layer -> NIC) ----------------
    input  wire logic [127:0]          s_tlp_data,     // beat (pcie_tlp_pkg::TLP_DATA_W)
    input  wire logic [3:0]            s_tlp_keep,     // one bit per dword
    input  wire logic                  s_tlp_sop,
    input  wire logic                  s_tlp_eop,
    input  wire logic                  s_tlp_valid,
    output      logic                  s_tlp_ready,

    // ---------------- TLPs to the PCIe link (NIC -> vendor layer) ----------------
    output      logic [127:0]          m_tlp_data,     // beat (pcie_tlp_pkg::TLP_DATA_W)
    output      logic [3:0]            m_tlp_keep,     // one bit per dword
    output      logic                  m_tlp_sop,
    output      logic                  m_tlp_eop,
    output      logic                  m_tlp_valid,
    input  wire logic                  m_tlp_ready,

    // ---------------- legacy interrupt ----------------
    output      logic                  intx            // INTA# level

    // ---------------- network links ----------------
    // Reserved: the six torus links and the spare link (rtl/net/) will be
    // added here as port groups, one per link, in a later issue.
);

    // ------------------------------------------------------------------
    // PCIe endpoint
    // ------------------------------------------------------------------
    localparam int REG_ADDR_W    = extoll_regs_pkg::EXTOLL_REGS_MIN_ADDR_WIDTH;
    localparam int REG_MAP_BYTES = extoll_regs_pkg::EXTOLL_REGS_SIZE;  // beyond this BAR0 answers UR

    logic                  cpuif_req, cpuif_req_is_wr;
    logic [REG_ADDR_W-1:0] cpuif_addr;
    logic [63:0]           cpuif_wr_data, cpuif_wr_biten;
    logic                  cpuif_req_stall_wr, cpuif_req_stall_rd;
    logic                  cpuif_rd_ack, cpuif_rd_err, cpuif_wr_ack, cpuif_wr_err;
    logic [63:0]           cpuif_rd_data;

    logic                  irq_pending;
    logic [15:0]           cpl_id;
    logic                  mem_en, bus_master, intx_disable;
    logic                  ev_rx_tlp, ev_tx_tlp, ev_ur, ev_drop, ev_aperture;

    pcie_ep #(
        .VENDOR_ID     (VENDOR_ID),
        .DEVICE_ID     (DEVICE_ID),
        .REVISION      (REVISION),
        .CLASS_CODE    (CLASS_CODE),
        .REG_BAR_LOG2  (REG_BAR_LOG2),
        .APERTURE_LOG2 (APERTURE_LOG2),
        .REG_MAP_BYTES (REG_MAP_BYTES),
        .REG_ADDR_W    (REG_ADDR_W),
        .BURST_DW      (BURST_DW)
    ) u_ep (
        .clk, .rst,
        .s_tlp_data, .s_tlp_keep, .s_tlp_sop, .s_tlp_eop, .s_tlp_valid, .s_tlp_ready,
        .m_tlp_data, .m_tlp_keep, .m_tlp_sop, .m_tlp_eop, .m_tlp_valid, .m_tlp_ready,
        .cpuif_req, .cpuif_req_is_wr, .cpuif_addr, .cpuif_wr_data, .cpuif_wr_biten,
        .cpuif_req_stall_wr, .cpuif_req_stall_rd, .cpuif_rd_ack, .cpuif_rd_err,
        .cpuif_rd_data, .cpuif_wr_ack, .cpuif_wr_err,
        .irq_pending, .intx,
        .cpl_id, .mem_en, .bus_master, .intx_disable,
        .ev_rx_tlp, .ev_tx_tlp, .ev_ur, .ev_drop, .ev_aperture
    );

    // ------------------------------------------------------------------
    // Register file
    // ------------------------------------------------------------------
    extoll_regs_pkg::extoll_nic__in_t  hwif_in;
    extoll_regs_pkg::extoll_nic__out_t hwif_out;

    extoll_regs u_regs (
        .clk, .rst,
        .s_cpuif_req          (cpuif_req),
        .s_cpuif_req_is_wr    (cpuif_req_is_wr),
        .s_cpuif_addr         (cpuif_addr),
        .s_cpuif_wr_data      (cpuif_wr_data),
        .s_cpuif_wr_biten     (cpuif_wr_biten),
        .s_cpuif_req_stall_wr (cpuif_req_stall_wr),
        .s_cpuif_req_stall_rd (cpuif_req_stall_rd),
        .s_cpuif_rd_ack       (cpuif_rd_ack),
        .s_cpuif_rd_err       (cpuif_rd_err),
        .s_cpuif_rd_data      (cpuif_rd_data),
        .s_cpuif_wr_ack       (cpuif_wr_ack),
        .s_cpuif_wr_err       (cpuif_wr_err),
        .hwif_in,
        .hwif_out
    );

    // ------------------------------------------------------------------
    // Hardware side of the registers
    // ------------------------------------------------------------------
    logic [63:0] cycles_q;

    always_ff @(posedge clk) begin
        if (rst) begin
            cycles_q <= 64'd0;
        end else begin
            cycles_q <= cycles_q + 64'd1;
        end
    end

    always_comb begin
        hwif_in = '0;
        // info: identity, version, build, cycle counter, test interrupt
        hwif_in.info.id.role.next             = 8'd0;          // endpoint (host NIC)
        hwif_in.info.id.node_id.next          = NODE_ID;
        hwif_in.info.version.major.next       = RTL_MAJOR;
        hwif_in.info.version.minor.next       = RTL_MINOR;
        hwif_in.info.version.patch.next       = RTL_PATCH;
        hwif_in.info.build.date.next          = BUILD_DATE;
        hwif_in.info.build.commit.next        = BUILD_COMMIT;
        hwif_in.info.cycles.count.next        = cycles_q;
        hwif_in.info.irq_status.test.hwset    = hwif_out.info.irq_test.fire.value;
        // pcie: endpoint state and counters
        hwif_in.pcie.status.func.next         = cpl_id[2:0];
        hwif_in.pcie.status.dev.next          = cpl_id[7:3];
        hwif_in.pcie.status.bus.next          = cpl_id[15:8];
        hwif_in.pcie.status.mem_en.next       = mem_en;
        hwif_in.pcie.status.bus_master.next   = bus_master;
        hwif_in.pcie.status.intx_disable.next = intx_disable;
        hwif_in.pcie.status.intx.next         = intx;
        hwif_in.pcie.rx_tlp.count.incr        = ev_rx_tlp;
        hwif_in.pcie.tx_tlp.count.incr        = ev_tx_tlp;
        hwif_in.pcie.ur.count.incr            = ev_ur;
        hwif_in.pcie.drop.count.incr          = ev_drop;
        hwif_in.pcie.aperture.count.incr      = ev_aperture;
    end

    // Interrupt: any enabled cause pending (masked by INTx disable in pcie_ep).
    assign irq_pending = |(hwif_out.info.irq_status.test.value & hwif_out.info.irq_enable.test.value);

endmodule

`default_nettype wire
