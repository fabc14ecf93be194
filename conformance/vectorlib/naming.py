"""Field and type names: pyfory's snake_case and the identifier rule.

generators/rust_mirrors.py uses the same snake_case for the Rust field names, so
the Rust mirrors and the Python side cannot disagree about a name."""

import keyword

__all__ = ["snake_case", "is_ascii_identifier"]


def snake_case(name):
    """The snake_case form pyfory 1.7.7 sorts and fingerprints field names by
    (pyfory/struct.py, _to_snake_case): an upper-case letter is lowered, and
    an '_' goes before it when it follows a lower-case letter or a digit
    ("x1Y" -> "x1_y", "field2Name" -> "field2_name") or when it starts a new
    word after an upper-case run ("HTTPServer" -> "http_server",
    "ABC1Def" -> "abc1_def"), unless the output already ends in '_'.
    Everything else, digits included, is kept ("v2" -> "v2"); trailing '_'
    are dropped."""
    out = []
    prev = ""
    for i, ch in enumerate(name):
        if ch.isupper():
            next_lower = i + 1 < len(name) and name[i + 1].islower()
            boundary = prev.islower() or prev.isdigit() or (prev.isupper() and next_lower)
            if out and out[-1] != "_" and boundary:
                out.append("_")
            out.append(ch.lower())
        else:
            out.append(ch)
        prev = ch
    return "".join(out).rstrip("_")


def is_ascii_identifier(name):
    return (
        isinstance(name, str)
        and name.isascii()
        and name.isidentifier()
        and not keyword.iskeyword(name)
    )
