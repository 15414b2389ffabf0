# SPDX-License-Identifier: Apache-2.0
"""extoll: a ctypes binding of libextoll for resource managers.

List, attach and detach network-attached accelerator nodes behind an EXTOLL
NIC from Python, through the shared library (libextoll.so.0, built by
`make -C userspace`, installed by `make -C userspace install`). Errors are
raised as OSError with the errno libextoll returned (ENOENT: no NIC,
EHOSTUNREACH: the node does not answer, EEXIST: already attached, ...).

    import extoll
    with extoll.Nic() as nic:                 # the first NIC, or Nic("extoll1")
        print(nic.info()["node_id"])
        res = nic.attach(5)                   # {"node": 5, "name": "extoll.naa.0",
                                              #  "domain": 0xfffe, "root_bus": 0}
        for n in nic.list():                  # [{"node": 5, "state": "attached", ...}]
            print(n["node"], n["state"], n["devices"])
        nic.detach(5)

The library is found by $EXTOLL_LIB (a path), else "libextoll.so.0" on the
loader's path.
"""
import ctypes
import errno
import os

__all__ = ["Nic", "version", "load"]

_lib = None


class _NicInfo(ctypes.Structure):
    _fields_ = [("dev_path", ctypes.c_char * 64), ("pci_name", ctypes.c_char * 32),
                ("sysfs", ctypes.c_char * 128), ("node_id", ctypes.c_uint16),
                ("role", ctypes.c_uint8), ("rra", ctypes.c_int),
                ("rtl_major", ctypes.c_uint), ("rtl_minor", ctypes.c_uint),
                ("rtl_patch", ctypes.c_uint), ("rra_timeout_us", ctypes.c_uint)]


class _AttachResult(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint), ("name", ctypes.c_char * 32),
                ("domain", ctypes.c_int), ("root_bus", ctypes.c_uint)]


class _Naa(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 32), ("node", ctypes.c_uint16),
                ("state", ctypes.c_char * 16), ("domain", ctypes.c_int),
                ("error", ctypes.c_int), ("has_root_port", ctypes.c_int),
                ("root_port", ctypes.c_char * 16), ("n_devices", ctypes.c_size_t),
                ("devices", ctypes.POINTER(ctypes.c_char * 16))]


def load(path=None):
    """Load libextoll (path, $EXTOLL_LIB or libextoll.so.0) and declare its
    functions; returns the ctypes library. Called by everything below."""
    global _lib
    if _lib is not None and path is None:
        return _lib
    lib = ctypes.CDLL(path or os.environ.get("EXTOLL_LIB") or "libextoll.so.0")
    nicp = ctypes.c_void_p
    sig = {
        "extoll_version": (ctypes.c_char_p, []),
        "extoll_open": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(nicp)]),
        "extoll_close": (None, [nicp]),
        "extoll_nic_info": (ctypes.POINTER(_NicInfo), [nicp]),
        "extoll_attach": (ctypes.c_int, [nicp, ctypes.c_uint16, ctypes.POINTER(_AttachResult)]),
        "extoll_detach": (ctypes.c_int, [nicp, ctypes.c_uint16]),
        "extoll_list": (ctypes.c_int, [nicp, ctypes.POINTER(ctypes.POINTER(_Naa)),
                                       ctypes.POINTER(ctypes.c_size_t)]),
        "extoll_list_free": (None, [ctypes.POINTER(_Naa)]),
        "extoll_rra_read": (ctypes.c_int, [nicp, ctypes.c_uint16, ctypes.c_uint32,
                                           ctypes.POINTER(ctypes.c_uint64)]),
    }
    for name, (res, args) in sig.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    _lib = lib
    return lib


def version():
    """The naa-extoll version the library was built from."""
    return load().extoll_version().decode()


def _check(ret, what):
    if ret < 0:
        raise OSError(-ret, "%s: %s" % (what, os.strerror(-ret)))


def _node(node):
    if not isinstance(node, int) or isinstance(node, bool) or not 0 <= node <= 0xffff:
        raise ValueError("node id must be an int 0..65535, not %r" % (node,))
    return node


class Nic:
    """An open EXTOLL NIC: spec None (the first), "/dev/extollN", "extollN" or
    a PCI address. Close with close() or use it as a context manager."""

    def __init__(self, spec=None):
        self._lib = load()
        self._nic = ctypes.c_void_p()
        arg = spec.encode() if spec else None
        _check(self._lib.extoll_open(arg, ctypes.byref(self._nic)),
               "open %s" % (spec or "the first EXTOLL NIC"))

    def close(self):
        if self._nic:
            self._lib.extoll_close(self._nic)
            self._nic = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_nic", None):
            self.close()

    def _handle(self):
        if not self._nic:
            raise OSError(errno.EBADF, "the NIC is closed")
        return self._nic

    def info(self):
        """The NIC: dev_path, pci_name, node_id, role ("endpoint"/"root-port"),
        rra, rtl_version, rra_timeout_us."""
        i = self._lib.extoll_nic_info(self._handle()).contents
        return {"dev_path": i.dev_path.decode(), "pci_name": i.pci_name.decode(),
                "node_id": i.node_id, "role": "root-port" if i.role else "endpoint",
                "rra": bool(i.rra),
                "rtl_version": "%u.%u.%u" % (i.rtl_major, i.rtl_minor, i.rtl_patch),
                "rra_timeout_us": i.rra_timeout_us}

    def attach(self, node):
        """Attach remote node NODE; its device name, PCI domain (None: no
        naa_bus loaded yet) and root bus."""
        node = _node(node)
        res = _AttachResult()
        _check(self._lib.extoll_attach(self._handle(), node, ctypes.byref(res)),
               "attach node %d" % node)
        return {"node": node, "name": res.name.decode(),
                "domain": res.domain if res.domain >= 0 else None,
                "root_bus": res.root_bus if res.domain >= 0 else None}

    def detach(self, node):
        """Detach remote node NODE (OSError ENOENT: not attached)."""
        node = _node(node)
        _check(self._lib.extoll_detach(self._handle(), node), "detach node %d" % node)

    def list(self):
        """Every attached node, sorted by node id, as naactl list -j shows it."""
        arr = ctypes.POINTER(_Naa)()
        n = ctypes.c_size_t()
        _check(self._lib.extoll_list(self._handle(), ctypes.byref(arr), ctypes.byref(n)),
               "list")
        try:
            out = []
            for k in range(n.value):
                a = arr[k]
                out.append({
                    "node": a.node, "device": a.name.decode(), "state": a.state.decode(),
                    "domain": "%04x" % a.domain if a.domain >= 0 else None,
                    "root_port": a.root_port.decode() if a.has_root_port else None,
                    "devices": [a.devices[i].value.decode() for i in range(a.n_devices)],
                    "error": a.error or None,
                })
            return out
        finally:
            self._lib.extoll_list_free(arr)

    def rra_read(self, node, addr):
        """One remote register read (64 bit) at node NODE."""
        node = _node(node)
        val = ctypes.c_uint64()
        _check(self._lib.extoll_rra_read(self._handle(), node, addr, ctypes.byref(val)),
               "rra read node %d 0x%x" % (node, addr))
        return val.value
