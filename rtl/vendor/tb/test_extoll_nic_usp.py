# SPDX-License-Identifier: Apache-2.0
"""extoll_nic_usp (the host NIC on a Xilinx UltraScale+ PCIe hard IP) inside
cocotbext-pcie's UltraScalePlusPcieDevice model, enumerated and driven by the
model's RootComplex (docs/hard-ip.md, docs/testbenches.md).

Register offsets and record fields come from the generated headers
(hw/include/extoll_regs.h, extoll_records.h: the SystemRDL and gen_net.py).
The expected RTL version is set by the Makefile (-G) and passed in the
environment, so a reset value cannot pass for it. EXTOLL_USP_W (the Makefile's
USP_W) is the width of the IP's interfaces: 128 (Gen3 x4) or 512 (Gen3 x16, the
model with 512-bit buses, pcie_usp_w512 in front of the adapter); the checks are
the same, at 512 bits the tuser sop/eop marks of CC and RQ are checked too.
"""

import os
import random
import re

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer, with_timeout
from cocotbext.axi import AxiStreamBus
from cocotbext.pcie.core import RootComplex
from cocotbext.pcie.core.tlp import Tlp, TlpType
from cocotbext.pcie.core.utils import PcieId
from cocotbext.pcie.xilinx.us import UltraScalePlusPcieDevice

ROOT = os.environ["EXTOLL_ROOT"]
NODE = 5                                   # cfg_node_id strap
CORE_CLK_PS = 6400                         # NIC core clock 156.25 MHz; the IP's user_clk is 250 MHz
VENDOR_ID, DEVICE_ID, CLASS_CODE = 0x1EE7, 0x0001, 0x028000
BAR0_LOG2, BAR2_LOG2 = 16, 28              # extoll_nic_usp defaults
OP_READ, OP_WRITE = 0, 1                   # rra.req op (docs/remote-access.md)
USP_W = int(os.environ.get("EXTOLL_USP_W", "128"))   # the IP's AXI-Stream width
LINK_WIDTH = {128: 4, 512: 16}[USP_W]      # Gen3 x4 at 128 bits, Gen3 x16 at 512 bits


def header_defines(name):
    """#define NAME VALUE lines of a generated header, as ints."""
    d = {}
    with open(os.path.join(ROOT, "hw", "include", name), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#define\s+(EXTOLL_\w+)\s+(0x[0-9a-fA-F]+|\d+)(?:ULL)?\b", line)
            if m:
                d[m.group(1)] = int(m.group(2), 0)
    if not d:
        raise RuntimeError(f"no definitions in hw/include/{name}: run make gen")
    return d


R = header_defines("extoll_regs.h")
C = header_defines("extoll_records.h")


def reg(block, name):
    return R[f"EXTOLL_{block}_BASE"] + R[f"EXTOLL_{block}_{name}"]


def field(val, prefix):
    return (val & R[prefix + "_MASK"]) >> R[prefix + "_SHIFT"]


class TB:
    def __init__(self, dut):
        self.dut = dut
        self.log = dut._log
        self.rc = RootComplex()
        self.dev = UltraScalePlusPcieDevice(
            pcie_generation=3, pcie_link_width=LINK_WIDTH, user_clk_frequency=250e6,
            alignment="dword", enable_client_tag=True, enable_extended_tag=False,
            pf0_msi_enable=False,
            pf0_msix_enable=True, pf0_msix_table_size=0,
            pf0_msix_table_bir=0, pf0_msix_table_offset=reg("MSIX", "ADDR"),
            pf0_msix_pba_bir=0, pf0_msix_pba_offset=0x1800,
            user_clk=dut.user_clk, user_reset=dut.user_reset,
            rq_bus=AxiStreamBus.from_prefix(dut, "m_axis_rq"),
            # reported to the NIC 16 cycles later (tb_extoll_nic_usp.sv)
            pcie_rq_seq_num0=dut.pcie_rq_seq_num0_ip, pcie_rq_seq_num_vld0=dut.pcie_rq_seq_num_vld0_ip,
            pcie_rq_seq_num1=dut.pcie_rq_seq_num1_ip, pcie_rq_seq_num_vld1=dut.pcie_rq_seq_num_vld1_ip,
            rc_bus=AxiStreamBus.from_prefix(dut, "s_axis_rc"),
            cq_bus=AxiStreamBus.from_prefix(dut, "s_axis_cq"),
            pcie_cq_np_req=dut.pcie_cq_np_req,
            cc_bus=AxiStreamBus.from_prefix(dut, "m_axis_cc"),
            cfg_max_payload=dut.cfg_max_payload, cfg_max_read_req=dut.cfg_max_read_req,
            cfg_function_status=dut.cfg_function_status,
            cfg_function_power_state=dut.cfg_function_power_state,
            cfg_bus_number=dut.cfg_bus_number,
            cfg_interrupt_msix_enable=dut.cfg_interrupt_msix_enable,
            cfg_interrupt_msix_mask=dut.cfg_interrupt_msix_mask,
            cfg_interrupt_msix_address=dut.cfg_interrupt_msix_address,
            cfg_interrupt_msix_data=dut.cfg_interrupt_msix_data,
            cfg_interrupt_msix_int=dut.cfg_interrupt_msix_int,
            cfg_interrupt_msix_sent=dut.cfg_interrupt_msix_sent,
            cfg_interrupt_msix_fail=dut.cfg_interrupt_msix_fail,
            cfg_interrupt_msi_function_number=dut.cfg_interrupt_msi_function_number,
        )
        f = self.dev.functions[0]
        f.vendor_id, f.device_id, f.class_code = VENDOR_ID, DEVICE_ID, CLASS_CODE
        f.configure_bar(0, 2**BAR0_LOG2)
        f.configure_bar(2, 2**BAR2_LOG2)
        self.rc.make_port().connect(self.dev)

        cocotb.start_soon(Clock(dut.core_clk, CORE_CLK_PS, "ps").start())
        dut.cfg_node_id.value = NODE
        dut.cfg_dateline.value = 0
        dut.s_phy_data.value = 0
        dut.s_phy_frm.value = 0
        dut.s_phy_crc.value = 0

        assert len(dut.s_axis_cq_tdata) == USP_W, f"CQ {len(dut.s_axis_cq_tdata)} bits, expected {USP_W}"
        self.violations = []
        self.tuser_errors = []     # 512 bits: CC/RQ beats with wrong is_sop/is_eop marks
        self.tuser_beats = 0
        self.cpl_held = 0          # cycles a completion waited behind requests (coverage)
        self.msix_held = 0         # cycles an owed MSI-X waited behind requests (coverage)
        cocotb.start_soon(self.order_monitor())
        if USP_W == 512:
            cocotb.start_soon(self.sop_eop_monitor())

    async def order_monitor(self):
        """The ordering promise of docs/hard-ip.md, watched at the IP's ports:
        when a completion starts on CC or an MSI-X request is raised, every
        request the NIC handed to RQ before has been reported by the IP
        (pcie_rq_seq_num_vld0/1)."""
        d = self.dut
        sent = reported = 0
        rq_in_pkt = cc_in_pkt = False
        while True:
            await RisingEdge(d.user_clk)
            if d.m_axis_cc_tvalid.value and d.m_axis_cc_tready.value:
                if not cc_in_pkt and sent != reported:
                    self.violations.append(f"CC completion with {sent - reported} request(s) not on the link")
                cc_in_pkt = not d.m_axis_cc_tlast.value
            if d.cfg_interrupt_msix_int.value and sent != reported:
                self.violations.append(f"MSI-X with {sent - reported} request(s) not on the link")
            if d.m_axis_rq_tvalid.value and d.m_axis_rq_tready.value:
                if not rq_in_pkt:
                    sent += 1
                rq_in_pkt = not d.m_axis_rq_tlast.value
            reported += int(d.pcie_rq_seq_num_vld0.value) + int(d.pcie_rq_seq_num_vld1.value)
            tx = d.u_dut.u_if.u_tx
            if tx.s_tlp_valid.value and tx.hold.value and tx.is_cpl.value:
                self.cpl_held += 1
            mx = d.u_dut.u_if.u_msix
            if mx.owe_q.value and mx.irq.value and mx.state_q.value == 0 and not mx.order_ok.value:
                self.msix_held += 1

    async def sop_eop_monitor(self):
        """512 bits: the model (straddling off) frames CC and RQ packets by tkeep and
        tlast; the IP also reads is_sop[0] and is_eop[0] with the last dword's index
        (PG213; CC tuser [0], [6], [11:8]; RQ [20], [26], [31:28]). Both must agree."""
        d = self.dut
        marks = {"CC": (d.m_axis_cc_tvalid, d.m_axis_cc_tready, d.m_axis_cc_tlast, d.m_axis_cc_tkeep,
                        d.m_axis_cc_tuser, 0, 6, 8),
                 "RQ": (d.m_axis_rq_tvalid, d.m_axis_rq_tready, d.m_axis_rq_tlast, d.m_axis_rq_tkeep,
                        d.m_axis_rq_tuser, 20, 26, 28)}
        in_pkt = {k: False for k in marks}
        while True:
            await RisingEdge(d.user_clk)
            for k, (valid, ready, last, keep, user, sop_b, eop_b, ptr_b) in marks.items():
                if not (valid.value and ready.value):
                    continue
                u, kp, lst = int(user.value), int(keep.value), bool(last.value)
                want = (not in_pkt[k], lst, (kp.bit_length() - 1) if lst else None)
                got = (bool(u >> sop_b & 1), bool(u >> eop_b & 1), (u >> ptr_b & 0xF) if u >> eop_b & 1 else None)
                self.tuser_beats += 1
                if got != want:
                    self.tuser_errors.append(f"{k} beat keep {kp:#x} last {int(lst)}: "
                                             f"sop/eop/ptr {got}, expected {want}")
                in_pkt[k] = not lst


async def setup(dut):
    tb = TB(dut)
    await tb.rc.enumerate()
    dev = tb.rc.find_device(tb.dev.functions[0].pcie_id)
    assert dev is not None, "enumeration did not find the NIC"
    await dev.enable_device()
    await dev.set_master()
    return tb, dev


# the whole test takes about 122 us of simulated time: a converter that loses a beat makes
# some request wait forever, which fails here instead of hanging the run
@cocotb.test(timeout_time=400, timeout_unit="us")
async def test_enumerate_registers_msix_dma(dut):
    tb, dev = await setup(dut)

    # ---- enumeration and BARs (the IP's config space) ----
    assert (dev.vendor_id, dev.device_id) == (VENDOR_ID, DEVICE_ID), \
        f"ID {dev.vendor_id:04x}:{dev.device_id:04x}"
    assert dev.class_code == CLASS_CODE, f"class {dev.class_code:06x}"
    bar0, bar2 = dev.bar_window[0], dev.bar_window[2]
    assert bar0 is not None and dev.bar_size[0] == 2**BAR0_LOG2, "BAR0 not sized/assigned"
    assert bar2 is not None and dev.bar_size[2] == 2**BAR2_LOG2, "BAR2 not sized/assigned"
    tb.log.info("BAR0 at 0x%x (%d KiB), BAR2 at 0x%x (%d MiB)", dev.bar_addr[0],
                dev.bar_size[0] >> 10, dev.bar_addr[2], dev.bar_size[2] >> 20)

    # ---- registers: info.version (set by -G), scratch (64- and 32-bit accesses) ----
    ver = await with_timeout(bar0.read_qword(reg("INFO", "VERSION")), 20, "us")
    got = (field(ver, "EXTOLL_INFO_VERSION_MAJOR"), field(ver, "EXTOLL_INFO_VERSION_MINOR"),
           field(ver, "EXTOLL_INFO_VERSION_PATCH"))
    want = tuple(int(x) for x in os.environ["EXTOLL_RTL_VERSION"].split())
    assert got == want, f"info.version {got}, expected {want}"

    rnd = random.Random(7)
    scratch = reg("INFO", "SCRATCH")
    for _ in range(4):
        v = rnd.getrandbits(64)
        await bar0.write_qword(scratch, v)
        r = await bar0.read_qword(scratch)
        assert r == v, f"scratch {r:#x}, wrote {v:#x}"
    await bar0.write_dword(scratch + 4, 0x600DF00D)
    r = await bar0.read_qword(scratch)
    assert r == (0x600DF00D << 32) | (v & 0xFFFFFFFF), f"scratch after dword write {r:#x}"

    # longer requests: MWr and MRd of 12, 14 and 16 dwords on the SMFU's interval starts
    # (64-bit registers, intervals not valid): at 512 bits CQ packets of 16, 18, 20 dwords
    # (one full beat; a second beat of 2 and 4) and CplD of 15, 17, 19 (one partial beat;
    # a second beat of 1 and 3)
    eg = R["EXTOLL_SMFU_BASE"] + R["EXTOLL_SMFU_EG_START"] + 4 * R["EXTOLL_SMFU_EG_START_STRIDE"]
    for nbytes in (48, 56, 64):
        blk = rnd.randbytes(nbytes)
        await bar0.write(eg, blk)
        got = await bar0.read(eg, nbytes)
        assert got == blk, f"{nbytes}-byte BAR0 write/read: {got.hex()} != {blk.hex()}"
        for i in range(0, nbytes, 8):
            q = await bar0.read_qword(eg + i)
            assert q == int.from_bytes(blk[i:i + 8], "little"), f"EG_START +{i:#x}: {q:#x} after {nbytes}-byte write"
    await bar0.write(eg, bytes(64))

    # a BAR0 read outside the register map: the NIC answers UR (CC status field)
    try:
        r = await bar0.read_dword(0x8000)
        raise AssertionError(f"read beyond the register map completed successfully: {r:#x}")
    except Exception as e:  # cocotbext-pcie raises on a completion status other than SC
        if "Unsuccessful completion" not in str(e):
            raise

    # the NIC's PCIe state comes from the IP's status ports: bus number in pcie.status
    st = await bar0.read_qword(reg("PCIE", "STATUS"))
    assert field(st, "EXTOLL_PCIE_STATUS_BUS") == dev.pcie_id.bus, \
        f"pcie.status bus {field(st, 'EXTOLL_PCIE_STATUS_BUS')}, device on bus {dev.pcie_id.bus}"
    assert field(st, "EXTOLL_PCIE_STATUS_BUS_MASTER") == 1, "pcie.status: bus master not seen"

    # ---- MSI-X through cfg_interrupt_msix_* (table entry 0 in BAR0) ----
    assert await dev.alloc_irq_vectors(1, 1) == 1, "MSI-X not enabled"
    got_irq = []
    dev.request_irq(0, lambda: got_irq.append(cocotb.utils.get_sim_time("ns")))
    await bar0.write_qword(reg("INFO", "IRQ_ENABLE"), R["EXTOLL_INFO_IRQ_ENABLE_TEST_MASK"])
    await bar0.write_qword(reg("INFO", "IRQ_TEST"), R["EXTOLL_INFO_IRQ_TEST_FIRE_MASK"])
    for _ in range(2000):
        if got_irq:
            break
        await RisingEdge(dut.user_clk)
    assert len(got_irq) == 1, f"{len(got_irq)} MSI-X message(s) for one cause"
    # masked vector: no message, the PBA bit shows it pending; unmasked: the message
    await bar0.write_qword(reg("INFO", "IRQ_STATUS"), R["EXTOLL_INFO_IRQ_STATUS_TEST_MASK"])
    await bar0.write_dword(reg("MSIX", "CTRL") + 4, 1)          # Vector Control: mask
    await bar0.write_qword(reg("INFO", "IRQ_TEST"), R["EXTOLL_INFO_IRQ_TEST_FIRE_MASK"])
    await Timer(2, "us")
    assert len(got_irq) == 1, "MSI-X message while the vector is masked"
    pba = await bar0.read_dword(0x1800)
    assert pba & 1, f"PBA {pba:#x}: masked cause not pending"
    await bar0.write_dword(reg("MSIX", "CTRL") + 4, 0)          # unmask
    for _ in range(2000):
        if len(got_irq) == 2:
            break
        await RisingEdge(dut.user_clk)
    assert len(got_irq) == 2, "no MSI-X message after unmasking the pending vector"

    # ---- DMA from the NIC: RRA completion records (reads of our own info.version) ----
    # while another task keeps reading a register, so completions meet records in flight
    # routing table of the local ports (inport 7, 8): our own node id -> eject (port code 7)
    for inport in (7, 8):
        await bar0.write_qword(reg("ROUTER", "RT_ENTRY"),
                               (NODE << R["EXTOLL_ROUTER_RT_ENTRY_DEST_SHIFT"]) |
                               (inport << R["EXTOLL_ROUTER_RT_ENTRY_INPORT_SHIFT"]) |
                               (7 << R["EXTOLL_ROUTER_RT_ENTRY_OUTPORT_SHIFT"]) |
                               R["EXTOLL_ROUTER_RT_ENTRY_VALID_MASK"] |
                               R["EXTOLL_ROUTER_RT_ENTRY_COMMIT_MASK"])
    rec_addr, rec_mem = tb.rc.alloc_region(4096)
    rec_mem[0:16] = b"\xa5" * 8 + b"\x00" * 8
    await bar0.write_qword(reg("RRA", "CMP_ADDR"), rec_addr)
    reading = [True]

    async def reader():
        while reading[0]:
            assert await bar0.read_qword(scratch) == (0x600DF00D << 32) | (v & 0xFFFFFFFF)
    rd_task = cocotb.start_soon(reader())
    for seq in range(0x1230, 0x1238):
        rec_mem[8:16] = b"\x00" * 8
        req = (NODE << R["EXTOLL_RRA_REQ_NODE_SHIFT"]) | \
              ((R["EXTOLL_INFO_BASE"] + R["EXTOLL_INFO_VERSION"]) << R["EXTOLL_RRA_REQ_ADDR_SHIFT"]) | \
              (OP_READ << R["EXTOLL_RRA_REQ_OP_SHIFT"]) | (seq << R["EXTOLL_RRA_REQ_SEQ_SHIFT"])
        await bar0.write_qword(reg("RRA", "REQ"), req)
        qw1 = 0
        for _ in range(5000):
            qw1 = int.from_bytes(rec_mem[8:16], "little")
            if qw1 >> 63:
                break
            await RisingEdge(dut.user_clk)
        assert qw1 >> 63, f"no completion record in host memory (qw1 {qw1:#x})"
        qw0 = int.from_bytes(rec_mem[0:8], "little")
        seq_got = (qw1 & C["EXTOLL_CMP_SEQ_MASK"]) >> C["EXTOLL_CMP_SEQ_SHIFT"]
        status = (qw1 & C["EXTOLL_CMP_STATUS_MASK"]) >> C["EXTOLL_CMP_STATUS_SHIFT"]
        node = (qw1 & C["EXTOLL_CMP_NODE_MASK"]) >> C["EXTOLL_CMP_NODE_SHIFT"]
        assert (seq_got, status, node) == (seq, C["EXTOLL_CMP_OK"], NODE), \
            f"record seq {seq_got:#x} status {status} node {node}"
        assert qw0 == ver, f"record data {qw0:#x}, info.version {ver:#x}"
    reading[0] = False
    await rd_task

    # an RRA read and, right behind it, an RRA write of our own info.irq_test: the
    # interrupt fires while the read's record may still be on its way (interrupt after data)
    def rra_req(op, addr, seq):
        return (NODE << R["EXTOLL_RRA_REQ_NODE_SHIFT"]) | (addr << R["EXTOLL_RRA_REQ_ADDR_SHIFT"]) | \
               (op << R["EXTOLL_RRA_REQ_OP_SHIFT"]) | (seq << R["EXTOLL_RRA_REQ_SEQ_SHIFT"])
    await bar0.write_qword(reg("INFO", "IRQ_STATUS"), R["EXTOLL_INFO_IRQ_STATUS_TEST_MASK"])
    n_irq = len(got_irq)
    # 1 to 4 reads ahead of the write: how long the last records are still on their way
    # when the interrupt comes depends on the NIC's internal latencies (the router's
    # pipeline), so several spacings keep the case covered (tb.msix_held below)
    for k in range(8):
        seq, n_rd = 0x2000 + 8 * k, 1 + k % 4
        rec_mem[8:16] = b"\x00" * 8
        await bar0.write_qword(reg("RRA", "WDATA"), R["EXTOLL_INFO_IRQ_TEST_FIRE_MASK"])
        for i in range(n_rd):
            await bar0.write_qword(reg("RRA", "REQ"), rra_req(OP_READ, reg("INFO", "VERSION"), seq + i))
        await bar0.write_qword(reg("RRA", "REQ"), rra_req(OP_WRITE, reg("INFO", "IRQ_TEST"), seq + n_rd))
        # both records go to the one record address: wait for a record and the message
        for _ in range(5000):
            qw1 = int.from_bytes(rec_mem[8:16], "little")
            if qw1 >> 63 and len(got_irq) > n_irq:
                break
            await RisingEdge(dut.user_clk)
        await Timer(1, "us")
        qw1 = int.from_bytes(rec_mem[8:16], "little")
        assert len(got_irq) == n_irq + 1, f"{len(got_irq) - n_irq} MSI-X for the RRA write of irq_test"
        assert qw1 >> 63 and seq <= (qw1 & C["EXTOLL_CMP_SEQ_MASK"]) <= seq + n_rd, f"no record (qw1 {qw1:#x})"
        n_irq = len(got_irq)
        await bar0.write_qword(reg("INFO", "IRQ_STATUS"), R["EXTOLL_INFO_IRQ_STATUS_TEST_MASK"])
    tb.log.info("MSI-X held behind requests: %d cycles", tb.msix_held)

    tb.log.info("completions held behind requests: %d cycles", tb.cpl_held)
    # ---- a read of host memory by the NIC (RQ MRd, RC CplD): the backdoor ----
    # TX an MRd32 (tag 5: not the SMFU's), the RX filter keeps the completion
    mem_addr, mem = tb.rc.alloc_region(4096)
    # (16 dwords: at 512 bits an RC packet of 19 dwords, two beats; the RX filter keeps
    # the header and the first 64 bits)
    for length, off in ((2, 0x40), (1, 0x84), (16, 0x100)):
        want = rnd.getrandbits(32 * length)
        mem[off:off + 4 * length] = want.to_bytes(4 * length, "little")
        tag = 5
        dw0 = length                                          # Fmt 000 Type 00000: MRd32
        dw1 = (dev.pcie_id.bus << 24) | (tag << 8) | ((0xF if length > 1 else 0) << 4) | 0xF
        bd = "BACKDOOR"
        await bar0.write_qword(reg(bd, "RX_FILTER"), (tag << R["EXTOLL_BACKDOOR_RX_FILTER_TAG_SHIFT"]) |
                               (1 << R["EXTOLL_BACKDOOR_RX_FILTER_ENABLE_SHIFT"]))
        await bar0.write_qword(reg(bd, "TX_HDR0"), (dw1 << 32) | dw0)
        await bar0.write_qword(reg(bd, "TX_HDR1"), mem_addr + off)
        await bar0.write_qword(reg(bd, "TX_CTRL"), (3 << R["EXTOLL_BACKDOOR_TX_CTRL_HDR_DW_SHIFT"]) |
                               (1 << R["EXTOLL_BACKDOOR_TX_CTRL_SEND_SHIFT"]))
        for _ in range(200):
            st = await bar0.read_qword(reg(bd, "RX_STATUS"))
            if field(st, "EXTOLL_BACKDOOR_RX_STATUS_VALID"):
                break
        assert field(st, "EXTOLL_BACKDOOR_RX_STATUS_VALID"), "no completion for the backdoor MRd"
        hdr0 = await bar0.read_qword(reg(bd, "RX_HDR0"))
        hdr1 = await bar0.read_qword(reg(bd, "RX_HDR1"))
        data = await bar0.read_qword(reg(bd, "RX_DATA"))
        await bar0.write_qword(reg(bd, "RX_POP"), 1 << R["EXTOLL_BACKDOOR_RX_POP_POP_SHIFT"])
        h0, h1, h2 = hdr0 & 0xFFFFFFFF, hdr0 >> 32, hdr1 & 0xFFFFFFFF
        assert h0 >> 24 == 0x4A and h0 & 0x3FF == length, f"completion dword 0 {h0:#010x}"
        assert h1 & 0xFFF == 4 * length and (h1 >> 13) & 7 == 0, f"completion dword 1 {h1:#010x}"
        assert (h2 >> 8) & 0xFF == tag and h2 & 0x7F == off & 0x7F, f"completion dword 2 {h2:#010x}"
        mask = (1 << min(64, 32 * length)) - 1
        assert data & mask == want & mask, f"backdoor read {data:#x}, memory {want:#x}"

    # a read of an address the root complex does not map: its UR/CA completion reaches
    # the NIC (RC error code 2, "terminated by a completion with UR/CA/CRS status",
    # is a completion from the link, not one the IP made up), no data
    bad = 0xFEE00000 if not tb.rc.mem_address_space.find_regions(0xFEE00000, 4) else 0xFEC00000
    tag = 6
    await bar0.write_qword(reg(bd, "RX_FILTER"), (tag << R["EXTOLL_BACKDOOR_RX_FILTER_TAG_SHIFT"]) |
                           (1 << R["EXTOLL_BACKDOOR_RX_FILTER_ENABLE_SHIFT"]))
    await bar0.write_qword(reg(bd, "TX_HDR0"), (((dev.pcie_id.bus << 24) | (tag << 8) | 0xF) << 32) | 1)
    await bar0.write_qword(reg(bd, "TX_HDR1"), bad)
    await bar0.write_qword(reg(bd, "TX_CTRL"), (3 << R["EXTOLL_BACKDOOR_TX_CTRL_HDR_DW_SHIFT"]) |
                           (1 << R["EXTOLL_BACKDOOR_TX_CTRL_SEND_SHIFT"]))
    for _ in range(200):
        st = await bar0.read_qword(reg(bd, "RX_STATUS"))
        if field(st, "EXTOLL_BACKDOOR_RX_STATUS_VALID"):
            break
    assert field(st, "EXTOLL_BACKDOOR_RX_STATUS_VALID"), \
        f"no completion for a backdoor MRd of unmapped 0x{bad:x} (the UR completion was dropped)"
    hdr0 = await bar0.read_qword(reg(bd, "RX_HDR0"))
    hdr1 = await bar0.read_qword(reg(bd, "RX_HDR1"))
    await bar0.write_qword(reg(bd, "RX_POP"), 1 << R["EXTOLL_BACKDOOR_RX_POP_POP_SHIFT"])
    h0, h1, h2 = hdr0 & 0xFFFFFFFF, hdr0 >> 32, hdr1 & 0xFFFFFFFF
    # (the model's host bridge answers an address nobody claims with CA)
    assert h0 >> 24 == 0x0A and (h1 >> 13) & 7 in (1, 4) and (h2 >> 8) & 0xFF == tag, \
        f"UR or CA completion expected (Cpl, status 1 or 4, tag {tag}): {h0:#010x} {h1:#010x} {h2:#010x}"
    tb.log.info("backdoor MRd of unmapped 0x%x: completion status %d reached the NIC", bad, (h1 >> 13) & 7)

    # a completion for a tag the NIC has no request open for (sent by the root complex
    # on its own): the IP delivers it on RC with error code 6 (invalid tag), the adapter
    # drops it, pcie.rc_err counts it (a pulse across the clock domains), and the NIC
    # goes on (a register write and read)
    rc_err0 = field(await bar0.read_qword(reg("PCIE", "RC_ERR")), "EXTOLL_PCIE_RC_ERR_COUNT")

    def stray_cpl(stray_tag):
        cpl = Tlp()
        cpl.fmt_type = TlpType.CPL_DATA
        cpl.requester_id = dev.pcie_id
        cpl.completer_id = PcieId(0, 0, 0)
        cpl.tag = stray_tag
        cpl.byte_count = 4
        cpl.lower_address = 0
        cpl.set_data(b"\xde\xad\xbe\xef")
        return cpl

    async def rc_err_reaches(want, what):
        for _ in range(100):
            rc_err = field(await bar0.read_qword(reg("PCIE", "RC_ERR")), "EXTOLL_PCIE_RC_ERR_COUNT")
            if rc_err == want:
                break
        assert rc_err == want, f"pcie.rc_err {rc_err} after {what}, expected {want}"
        return rc_err

    for n, stray_tag in enumerate((200, 201), 1):
        await tb.rc.send(stray_cpl(stray_tag))
        rc_err = await rc_err_reaches(rc_err0 + n, f"{n} stray completion(s)")
    # a burst: the IP delivers them on consecutive RC beats, closer together than the
    # core clock's synchroniser can tell single toggles apart; every one counts
    burst = 12
    for k in range(burst):
        await tb.rc.send(stray_cpl(202 + k))
    rc_err = await rc_err_reaches(rc_err0 + 2 + burst, f"a burst of {burst} stray completions")
    await bar0.write_qword(reg("INFO", "SCRATCH"), 0x5CA7C40000C0FFEE)
    got = await bar0.read_qword(reg("INFO", "SCRATCH"))
    assert got == 0x5CA7C40000C0FFEE, f"info.scratch {got:#x} after the stray completions"
    tb.log.info("%d stray completions (invalid tag), %d of them in a burst: pcie.rc_err %d -> %d",
                2 + burst, burst, rc_err0, rc_err)

    # pcie.msix_msgs counts the messages the IP reported sent (a pulse across the clock domains)
    msgs = field(await bar0.read_qword(reg("PCIE", "MSIX_MSGS")), "EXTOLL_PCIE_MSIX_MSGS_COUNT")
    assert msgs == len(got_irq), f"pcie.msix_msgs {msgs}, {len(got_irq)} MSI-X received"

    # ---- non-posted flow control (pcie_usp_np_fc): 24 aperture reads of a node
    # that does not exist (each answered CA after the SMFU's timeout) are more than
    # the NIC takes (NP_MAX 16): the IP holds the rest back, a posted write behind
    # them passes (its MSI-X comes while the reads wait), nothing is lost ----
    np_max, n_rd, tmo = 16, 24, 8                       # timeout: 8 x 256 core cycles
    sm = R["EXTOLL_SMFU_BASE"]
    await bar0.write_qword(sm + R["EXTOLL_SMFU_CTRL"], tmo << R["EXTOLL_SMFU_CTRL_TIMEOUT_SHIFT"])
    await bar0.write_qword(sm + R["EXTOLL_SMFU_EG_START"], dev.bar_addr[2])
    await bar0.write_qword(sm + R["EXTOLL_SMFU_EG_END"], dev.bar_addr[2] + 0xFFFF)
    await bar0.write_qword(sm + R["EXTOLL_SMFU_EG_CTRL"], (9 << R["EXTOLL_SMFU_EG_CTRL_NODE_SHIFT"]) |
                           (1 << R["EXTOLL_SMFU_EG_CTRL_VALID_SHIFT"]))
    tmo0 = field(await bar0.read_qword(sm + R["EXTOLL_SMFU_TIMEOUTS"]), "EXTOLL_SMFU_TIMEOUTS_COUNT")
    np_seen = []

    async def np_monitor():
        while True:
            await RisingEdge(dut.user_clk)
            np_seen.append(int(dut.np_open.value))
    mon = cocotb.start_soon(np_monitor())
    answered = []

    async def ap_read(i):
        try:
            await bar2.read_dword(0x40 * i)
            answered.append(("SC", cocotb.utils.get_sim_time("ns")))
        except Exception as e:  # CA: "Unsuccessful completion"
            answered.append((str(e)[:40], cocotb.utils.get_sim_time("ns")))
    await bar0.write_qword(reg("INFO", "IRQ_STATUS"), R["EXTOLL_INFO_IRQ_STATUS_TEST_MASK"])
    n_irq = len(got_irq)
    t0 = cocotb.utils.get_sim_time("ns")
    readers = [cocotb.start_soon(ap_read(i)) for i in range(n_rd)]
    for _ in range(20000):
        if np_seen and np_seen[-1] >= np_max:
            break
        await RisingEdge(dut.user_clk)
    assert np_seen and np_seen[-1] == np_max, f"non-posted requests in the NIC: {np_seen[-1:]}, expected {np_max}"
    await bar0.write_qword(reg("INFO", "IRQ_TEST"), R["EXTOLL_INFO_IRQ_TEST_FIRE_MASK"])
    for _ in range(4000):
        if len(got_irq) > n_irq:
            break
        await RisingEdge(dut.user_clk)
    t_irq = got_irq[-1] if len(got_irq) > n_irq else None
    for r in readers:
        await with_timeout(r.join(), 2000, "us")
    mon.kill()
    first = min(t for _, t in answered)
    tb.log.info("non-posted flow control: %d reads, at most %d in the NIC; MSI-X %s ns after the first read, "
                "first answer after %d ns, last after %d ns", n_rd, max(np_seen),
                None if t_irq is None else t_irq - t0, first - t0, max(t for _, t in answered) - t0)
    assert max(np_seen) == np_max, f"{max(np_seen)} non-posted requests inside the NIC (NP_MAX {np_max})"
    assert t_irq is not None and t_irq < first, \
        f"the posted write behind the reads waited for them (MSI-X at {t_irq}, first read answered at {first})"
    assert len(answered) == n_rd and all(a.startswith("Unsuccessful completion") for a, _ in answered), \
        f"answers: {sorted(set(a for a, _ in answered))} ({len(answered)} of {n_rd})"
    tmo1 = field(await bar0.read_qword(sm + R["EXTOLL_SMFU_TIMEOUTS"]), "EXTOLL_SMFU_TIMEOUTS_COUNT")
    assert tmo1 - tmo0 == n_rd, f"smfu.timeouts +{tmo1 - tmo0}, {n_rd} reads timed out"
    assert int(dut.np_open.value) == 0, f"np_open {int(dut.np_open.value)} after every read was answered"
    await bar0.write_qword(reg("INFO", "IRQ_STATUS"), R["EXTOLL_INFO_IRQ_STATUS_TEST_MASK"])

    msgs = field(await bar0.read_qword(reg("PCIE", "MSIX_MSGS")), "EXTOLL_PCIE_MSIX_MSGS_COUNT")
    assert msgs == len(got_irq), f"pcie.msix_msgs {msgs}, {len(got_irq)} MSI-X received"

    assert not tb.violations, "ordering: " + "; ".join(tb.violations[:4])
    assert tb.cpl_held > 0, "no completion ever met a request in flight: ordering not exercised"
    assert tb.msix_held > 0, "no MSI-X ever met a request in flight: ordering not exercised"
    assert int(dut.net_ovf.value) == 0, "net_ovf"
    if USP_W == 512:
        tb.log.info("512 bits: %d CC/RQ beats, is_sop/is_eop checked", tb.tuser_beats)
        assert tb.tuser_beats > 0, "no CC/RQ beat seen"
        assert not tb.tuser_errors, "tuser: " + "; ".join(tb.tuser_errors[:4])
