//! Stacking (10.0). The first package needs only the stacking order (10.6: the top unit tests for a
//! stack, 18.7a, 19.4a), kept as each unit's `order`; the limits, interpenetration and separation
//! come with the movement package (issue 15).
