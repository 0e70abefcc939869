//! Terminal input decoding and screen output.
