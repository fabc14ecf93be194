//! Shared code of the fuzz targets: see `checks` and `fuzz/README.md`.

pub mod checks;
