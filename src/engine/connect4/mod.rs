//! The perfect Connect Four solver and its opening book.
