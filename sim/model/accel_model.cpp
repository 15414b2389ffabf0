// SPDX-License-Identifier: Apache-2.0
/*
 * The Verilated sample accelerator (accel_top, built with BAR64=0) behind the
 * C API of nic_model.h, so that cosimd can serve it to QEMU as its own proxy
 * device (a local attach, no NIC): the same TLP ports as extoll_nic, no
 * straps, no network links (nic_model_links_* do nothing).  Linked into
 * cosimd-accel (sim/model/accel.mk) in place of libnicmodel.a.
 */
/* nic_model.cpp's anonymous-namespace beat type, included from another file */
#pragma GCC diagnostic ignored "-Wsubobject-linkage"
#define NIC_MODEL_TOP Vaccel_top
#define NIC_MODEL_TOP_H "Vaccel_top.h"
#define NIC_MODEL_LINKS 0
/* a job (DMA, CRC) in progress: cosimd keeps the clock running (accel_public.vlt) */
#define NIC_MODEL_BUSY(top) ((top)->rootp->accel_top__DOT__job_busy)
#include "Vaccel_top___024root.h"
#include "nic_model.cpp"
