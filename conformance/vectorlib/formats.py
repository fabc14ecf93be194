"""The vector and peer-bytes file formats, the pinned reference
implementation, and the Fory settings and the vector folder."""

import os

__all__ = [
    "VECTOR_FORMAT", "PEER_BYTES_FORMAT", "PYFORY_VERSION", "PEER", "CONFORMANCE_DIR",
    "DEFAULT_SETTINGS", "STRUCT_SETTINGS", "COMPAT_SETTINGS", "REFS_SETTINGS_SAME", "REFS_SETTINGS_COMPAT",
]

VECTOR_FORMAT = "fury-conformance/1"
PEER_BYTES_FORMAT = "fury-peer-bytes/1"
PYFORY_VERSION = "1.7.7"
PEER = "pyfory==" + PYFORY_VERSION

# conformance/ (this package is conformance/vectorlib/)
CONFORMANCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# built-in types (group builtins), structs and enums in same-schema mode
# (structs) and in compatible mode (compat), and reference tracking in both
# modes (refs; one file mixes the two settings)
DEFAULT_SETTINGS = {"xlang": True, "ref": False, "compatible": True}
STRUCT_SETTINGS = {"xlang": True, "ref": False, "compatible": False}
COMPAT_SETTINGS = {"xlang": True, "ref": False, "compatible": True}
REFS_SETTINGS_SAME = {"xlang": True, "ref": True, "compatible": False}
REFS_SETTINGS_COMPAT = {"xlang": True, "ref": True, "compatible": True}
