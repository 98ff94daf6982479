//! `carta serve` answers only its own pages: foreign `Host`s and `Origin`s are refused, `/g/` serves only what the build wrote, and idle or oversize connections are cut.
