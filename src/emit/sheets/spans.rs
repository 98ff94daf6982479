//! Where a card's field is written ([`crate::art::field_at`], which art
//! checks share with the sheets).

pub(super) use crate::art::field_at as field;
