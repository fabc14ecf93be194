"""Shared code of the fury-rs conformance tools (generate.py and generators/, check_peer.py,
reference.py, testee_pyfory.py).

One concept a module:

* formats      file formats, the pinned pyfory, settings and directories
* errors       VectorError, WireError, TypeDefError
* types        the wire-type table (from spec/wire-types.json) and the node vocabulary
* primitives   the byte cursor (var/tagged integers) and the var_uint32 writer
* hashing      MurmurHash3 x64 128
* kinds        unions, extension types and decimals: definitions, nodes, pyfory classes
* floats       exact float bit patterns, float nodes
* naming       snake_case (pyfory's rule), identifiers
* nodes        value nodes: from / to Python values, comparison
* schema       schema parsing, printing, derivation and checking
* meta_string  meta-string encodings of namespaces, type and field names
* typedef      TypeDefs: our encoder, the parser that describes them
* typetable    struct / enum definitions: wire order, fingerprint, hash
* mirrors      the Python dataclasses and Enums that mirror a TypeTable
* wire         the one independent wire decoder (all modes)
* refs         nodes with references and object-graph comparison
* rows         the row format: row schemas and value nodes, pyfory's row encoders
* peer         pyfory: Fory instances, typed roots, pyfory's own facts
* vectors      loading vector files
* group        the group table (groups.json), the one writer of a group's files, peer reports
* testee       the testee protocol: framing, requests, meta-string streams as vectors

Everything public is re-exported here, so ``import vectorlib as VL`` gives
the lot.  Only the standard library is needed at import time; pyfory is
imported lazily by the functions that need it.
"""

from .errors import *  # noqa: F401,F403
from .floats import *  # noqa: F401,F403
from .formats import *  # noqa: F401,F403
from .group import *  # noqa: F401,F403
from .hashing import *  # noqa: F401,F403
from .kinds import *  # noqa: F401,F403
from .meta_string import *  # noqa: F401,F403
from .mirrors import *  # noqa: F401,F403
from .naming import *  # noqa: F401,F403
from .nodes import *  # noqa: F401,F403
from .peer import *  # noqa: F401,F403
from .primitives import *  # noqa: F401,F403
from .refs import *  # noqa: F401,F403
from .rows import *  # noqa: F401,F403
from .schema import *  # noqa: F401,F403
from .typedef import *  # noqa: F401,F403
from .types import *  # noqa: F401,F403
from .testee import *  # noqa: F401,F403
from .typetable import *  # noqa: F401,F403
from .vectors import *  # noqa: F401,F403
from .wire import *  # noqa: F401,F403
