//! The SSH host key: created once (ed25519, mode 0600) and reused, so
//! players never see a changed-host-key warning.

use std::path::Path;

use anyhow::{Context, bail};
use russh::keys::ssh_key::LineEnding;
use russh::keys::{Algorithm, HashAlg, PrivateKey};

/// Loads the key at `path`, creating it first if it does not exist.
/// Returns the key and whether it was created.
pub fn load_or_create(path: &Path) -> anyhow::Result<(PrivateKey, bool)> {
    if path.exists() {
        let key = russh::keys::load_secret_key(path, None)
            .with_context(|| format!("cannot read the host key {}", path.display()))?;
        return Ok((key, false));
    }
    let key = create(path, false)?;
    Ok((key, true))
}

/// Creates a new ed25519 key at `path` (mode 0600). Refuses to replace an
/// existing file unless `force`.
pub fn create(path: &Path, force: bool) -> anyhow::Result<PrivateKey> {
    if path.exists() && !force {
        bail!(
            "{} already exists: pass --force to replace it",
            path.display()
        );
    }
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519)
        .context("cannot generate a key")?;
    if force && path.exists() {
        std::fs::remove_file(path).with_context(|| format!("cannot replace {}", path.display()))?;
    }
    // write_openssh_file creates the file with mode 0600 on unix.
    key.write_openssh_file(path, LineEnding::LF)
        .with_context(|| format!("cannot write the host key {}", path.display()))?;
    Ok(key)
}

/// The key's SHA-256 fingerprint as players see it (`SHA256:...`).
pub fn fingerprint(key: &PrivateKey) -> String {
    key.public_key().fingerprint(HashAlg::Sha256).to_string()
}
