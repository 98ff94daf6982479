//! Parsers cannot crash or crawl: partial cycles, broken PO files, huge syntax-error files, hostile bundles, bidi controls and malformed integers.
