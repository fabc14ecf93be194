"""The vector and peer-bytes file formats, the pinned reference
implementation, and the Fory settings and directories of each vector family."""

import os

__all__ = [
    "VECTOR_FORMAT", "PEER_BYTES_FORMAT", "PYFORY_VERSION", "PEER", "GROUPS", "CONFORMANCE_DIR",
    "DEFAULT_SETTINGS", "STRUCT_SETTINGS", "COMPAT_SETTINGS", "REFS_SETTINGS_SAME", "REFS_SETTINGS_COMPAT",
    "DEFAULT_VECTOR_DIR", "DEFAULT_STRUCT_VECTOR_DIR", "DEFAULT_COMPAT_VECTOR_DIR", "DEFAULT_REFS_VECTOR_DIR",
]

VECTOR_FORMAT = "fury-conformance/1"
PEER_BYTES_FORMAT = "fury-peer-bytes/1"
PYFORY_VERSION = "1.7.7"
PEER = "pyfory==" + PYFORY_VERSION
GROUPS = (
    "scalars",
    "strings",
    "temporal",
    "binary_arrays",
    "lists",
    "sets",
    "maps",
    "nested",
)

# conformance/ (this package is conformance/vectorlib/)
CONFORMANCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# built-in types (vectors/), structs and enums in same-schema mode
# (vectors_structs/) and in compatible mode (vectors_compat/), and reference
# tracking in both modes (vectors_refs/; one file mixes the two settings)
DEFAULT_SETTINGS = {"xlang": True, "ref": False, "compatible": True}
STRUCT_SETTINGS = {"xlang": True, "ref": False, "compatible": False}
COMPAT_SETTINGS = {"xlang": True, "ref": False, "compatible": True}
REFS_SETTINGS_SAME = {"xlang": True, "ref": True, "compatible": False}
REFS_SETTINGS_COMPAT = {"xlang": True, "ref": True, "compatible": True}

DEFAULT_VECTOR_DIR = os.path.join(CONFORMANCE_DIR, "vectors")
DEFAULT_STRUCT_VECTOR_DIR = os.path.join(CONFORMANCE_DIR, "vectors_structs")
DEFAULT_COMPAT_VECTOR_DIR = os.path.join(CONFORMANCE_DIR, "vectors_compat")
DEFAULT_REFS_VECTOR_DIR = os.path.join(CONFORMANCE_DIR, "vectors_refs")
