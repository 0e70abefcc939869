//! The terminal layer, shared by every front end: [`input`] turns bytes
//! from any source into keys; [`screen`] turns what a session wants to show
//! into ANSI bytes (or plain text), redrawing only the rows that changed;
//! [`board`] draws a board in a [`board::Theme`].

pub mod board;
pub mod input;
pub mod screen;
