"""The exceptions of the package."""

__all__ = ["VectorError", "WireError", "TypeDefError", "NodeError"]


class VectorError(Exception):
    """A vector file or peer file is malformed."""


class WireError(Exception):
    """The independent decoder could not decode some bytes."""


class NodeError(Exception):
    """A generator's Python data does not fit the schema it builds a node for."""


class TypeDefError(VectorError):
    """pyfory 1.7.7 cannot encode a TypeDef for this type (see README)."""
