//! The export browser is sealed: a template cannot make Chromium read a file outside the workspace, reach the network, navigate away or hang an export.
