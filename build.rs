//! Build script: rebuild when a migration file is added or changed (the
//! store embeds them with `include_str!`).

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
