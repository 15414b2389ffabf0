#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that hw/include/accel_hw.h (C) and accel_pkg.sv (RTL) agree on every
register offset, opcode, error code and ID. Exit 1 and name the mismatches."""
import re
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
pkg = (here / "accel_pkg.sv").read_text()
hdr = (here / "../../hw/include/accel_hw.h").read_text()

sv = {}
for name, val in re.findall(r"localparam\s+logic\s*\[[^\]]+\]\s+(\w+)\s*=\s*\d+'[hd]([0-9a-fA-F_]+)", pkg):
    base = 10 if re.search(name + r"\s*=\s*\d+'d", pkg) else 16
    sv[name] = int(val.replace("_", ""), base)
c = {n: int(v, 0) for n, v in re.findall(r"#define\s+(ACCEL_\w+)\s+(0x[0-9a-fA-F]+|\d+)u?\b", hdr)}

pairs = {f"R_{k}": f"ACCEL_REG_{k}" for k in
         "ID VERSION CAPS SCRATCH_LO SCRATCH_HI CYCLES_LO CYCLES_HI IRQ_STATUS IRQ_ENABLE "
         "IRQ_VECTOR JOB_HOST_LO JOB_HOST_HI JOB_DEV_OFF JOB_LEN JOB_CTRL JOB_STATUS JOB_COUNT "
         "JOB_CYCLES RESULT_LO RESULT_HI".split()}
pairs.update({"R_MSIX_TABLE": "ACCEL_MSIX_TABLE", "R_MSIX_PBA": "ACCEL_MSIX_PBA",
              "OP_H2D": "ACCEL_OP_H2D", "OP_D2H": "ACCEL_OP_D2H", "OP_CRC": "ACCEL_OP_CRC",
              "ERR_NONE": "ACCEL_ERR_NONE", "ERR_PARAM": "ACCEL_ERR_PARAM", "ERR_CPL": "ACCEL_ERR_CPL",
              "ERR_NO_BME": "ACCEL_ERR_NO_BME", "ERR_TIMEOUT": "ACCEL_ERR_TIMEOUT",
              "ERR_OPCODE": "ACCEL_ERR_OPCODE", "ACCEL_MAGIC": "ACCEL_MAGIC",
              "VENDOR_ID": "ACCEL_PCI_VENDOR_ID", "DEVICE_ID": "ACCEL_PCI_DEVICE_ID",
              "CLASS_CODE": "ACCEL_PCI_CLASS"})
m = re.search(r"MSIX_VECTORS\s*=\s*(\d+)", pkg)
sv["MSIX_VECTORS"] = int(m.group(1))
pairs["MSIX_VECTORS"] = "ACCEL_MSIX_VECTORS"

bad = [f"{s}={sv.get(s)} vs {h}={c.get(h)}" for s, h in pairs.items() if sv.get(s) is None or sv.get(s) != c.get(h)]
if bad:
    print("accel_hw.h and accel_pkg.sv disagree:\n  " + "\n  ".join(bad))
    sys.exit(1)
print(f"accel_hw.h matches accel_pkg.sv ({len(pairs)} constants)")
