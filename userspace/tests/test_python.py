#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Python binding (userspace/python/extoll.py) without a NIC (make -C
userspace check): it loads the shared library named by $EXTOLL_LIB, the
library's version is the tree's ($EXTOLL_VERSION), and every error path a
resource manager meets without a device raises OSError with libextoll's
errno; bad node ids are refused before any call."""
import errno
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import extoll  # noqa: E402


class TestBinding(unittest.TestCase):
    def test_loads_the_shared_library(self):
        lib = extoll.load(os.environ["EXTOLL_LIB"])
        self.assertTrue(hasattr(lib, "extoll_attach"))
        # internal helpers are not exported (libextoll.map)
        self.assertFalse(hasattr(lib, "extoll_pci_addr_parse"))

    def test_version(self):
        v = extoll.version()
        # the tree's version, given by make check (an unset or empty one would match anything)
        want = os.environ.get("EXTOLL_VERSION", "")
        self.assertRegex(want, r"^\d+\.\d+\.\d+$", "EXTOLL_VERSION: the tree's version")
        self.assertEqual(v.split()[0], want, v)
        self.assertRegex(v, r"^\d+\.\d+\.\d+")

    def test_bad_devices(self):
        # a missing device node, a PCI address with no NIC, a malformed spec
        for spec, err in (("/dev/extoll-does-not-exist", errno.ENOENT),
                          ("0000:7f:1f.7", errno.ENOENT), ("1:2:3:4.0", errno.EINVAL)):
            with self.subTest(spec=spec):
                with self.assertRaises(OSError) as cm:
                    extoll.Nic(spec)
                self.assertEqual(cm.exception.errno, err)

    def test_not_a_nic(self):
        # a character device that is no EXTOLL NIC: the INFO ioctl fails
        with self.assertRaises(OSError) as cm:
            extoll.Nic("/dev/null")
        self.assertIn(cm.exception.errno, (errno.ENODEV, errno.ENOTTY, errno.EACCES))

    def test_bad_node_ids(self):
        nic = extoll.Nic.__new__(extoll.Nic)   # no device: the checks come first
        nic._lib = extoll.load()
        nic._nic = None
        for bad in (-1, 65536, "5", 1.0, True):
            with self.assertRaises(ValueError):
                nic.attach(bad)
            with self.assertRaises(ValueError):
                nic.detach(bad)

    def test_closed(self):
        nic = extoll.Nic.__new__(extoll.Nic)
        nic._lib = extoll.load()
        nic._nic = None
        with self.assertRaises(OSError) as cm:
            nic.list()
        self.assertEqual(cm.exception.errno, errno.EBADF)


if __name__ == "__main__":
    unittest.main(verbosity=1)
