//! Pure game rules: boards, moves, notation and outcomes.
