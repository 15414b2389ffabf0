// SPDX-License-Identifier: Apache-2.0
//
// nic_side_params.svh: the parameter list of a NIC role side (nic_ep_side,
// nic_rp_side). Like the port list (nic_side_ports.svh) it is written once, so
// extoll_nic sets both sides with the same overrides; extoll_nic always sets
// every one of them (the defaults here are the endpoint's). The root-port
// side has no BAR0 and ignores the parameters marked (endpoint).

  parameter logic [15:0] VENDOR_ID       = 16'h1ee7,
  parameter logic [15:0] DEVICE_ID       = 16'h0001,
  parameter logic [7:0]  REVISION        = 8'h00,
  parameter logic [23:0] CLASS_CODE      = 24'h028000,
  parameter int          REG_BAR_LOG2    = 16,       // BAR0 size, log2 bytes (endpoint)
  parameter int          APERTURE_LOG2   = 28,       // BAR2 size, log2 bytes (endpoint)
  parameter bit          APERTURE_64     = 1'b0,     // BAR2/3: 64-bit prefetchable (endpoint)
  parameter int          REG_MAP_BYTES   = 'h200,    // bytes of BAR0 backed by registers (endpoint)
  parameter int          REG_ADDR_W      = 9,        // register block address width
  parameter int          BURST_DW        = 16,       // longest BAR0 request in dwords (endpoint)
  parameter int          NIVL            = 16,       // SMFU intervals
  parameter logic [7:0]  SMFU_TAG_BASE   = 8'h80,    // MRd tags of the SMFU toward the PCIe side
  parameter int          SMFU_TAGS       = 16,
  parameter int          LOCAL_BUF_DEPTH = 32,       // router local inport credits per VC
  parameter int          RX_DEPTH        = 64        // SMFU receive buffer, flits
