"""The exceptions of the package."""

__all__ = ["VectorError", "WireError", "TypeDefError"]


class VectorError(Exception):
    """A vector file or peer file is malformed."""


class WireError(Exception):
    """The independent decoder could not decode some bytes."""


class TypeDefError(VectorError):
    """pyfory 1.7.7 cannot encode a TypeDef for this type (see README)."""
