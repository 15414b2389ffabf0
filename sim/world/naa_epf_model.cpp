// SPDX-License-Identifier: Apache-2.0
/* The Verilated naa_node with DEVICE=1: the NIC in the root-port role with
 * Linux's PCI endpoint test function (epf_test_top, docs/epf-test.md) below
 * it, as the back end `naa-epf` of pcie_model.h (cosimd --naa-device
 * epf-test).  Its own Verilated class (--prefix Vnaa_epf); the model glue is
 * naa_model.cpp's. */
#define NAA_VTOP    Vnaa_epf
#define NAA_VTOP_H  "Vnaa_epf.h"
#define NAA_ROOT_H  "Vnaa_epf___024root.h"
/* the endpoint test function has no free-running 64-bit counter */
#define NAA_DEV_COUNTERS(r) ((void)(r))
#define NAA_BACKEND pcie_backend_naa_epf
#define NAA_NAME    "naa-epf"
#define NAA_DESC    "naa_node DEVICE=1 (extoll_nic ROLE 1 + epf_test_top, network links only)"
#include "naa_model.cpp"
