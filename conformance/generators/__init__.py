"""The generators of the vector groups: ``<group>.py`` writes ``vectors/<group>/`` for the
group of that name in ``groups.json`` (``vectorlib/group.py`` says what such a module
defines), and ``rust_mirrors.py`` writes the Rust mirrors of the groups that have them.

Run them through ``conformance/generate.py``, which sets what they need (PYTHONHASHSEED=0,
TZ=UTC, pyfory 1.7.7) and writes or checks their files; they are modules of this package,
not scripts (``decimal.py`` would shadow the standard library's module if this folder were
on ``sys.path``).
"""
