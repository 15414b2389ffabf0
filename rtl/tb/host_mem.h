// SPDX-License-Identifier: Apache-2.0
//
// host_mem.h: what the device testbenches model of a host (rtl/tb/accel):
// sparse host memory in 4 KiB pages, and the reflected CRC-32 (polynomial
// 0xEDB88320) the devices compute, as a reference written here rather than
// taken from the RTL.

#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

// Reflected CRC-32 over p[0..n) from ~0, without the final inversion: Linux's
// crc32_le(~0, p, n); zlib's crc32 is its complement.
static inline uint32_t crc32_reflected(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return c;
}

// Host memory: sparse, 4 KiB pages, zero until written.
struct HostMem {
	std::unordered_map<uint64_t, std::vector<uint8_t>> pages;
	uint8_t *byte(uint64_t a)
	{
		auto &p = pages[a >> 12];
		if (p.empty())
			p.assign(4096, 0);
		return &p[a & 0xfff];
	}
	void write(uint64_t a, const uint8_t *d, size_t n)
	{
		for (size_t i = 0; i < n; i++)
			*byte(a + i) = d[i];
	}
	void read(uint64_t a, uint8_t *d, size_t n)
	{
		for (size_t i = 0; i < n; i++)
			d[i] = *byte(a + i);
	}
};
