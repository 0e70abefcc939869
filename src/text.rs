//! The one sanitiser for user-supplied text.
