//! What the room publishes to the sessions that show its state, beside
//! the state itself.

/// A slot carried in a table's published state for what the sessions
/// showing that state share of their drawing (the session's render cache):
/// the room makes it empty and never looks inside; the first session to
/// use it fills it. A copy of a state shares nothing drawn yet.
#[derive(Default)]
pub struct RenderSlot(std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>>);

impl RenderSlot {
    /// What the slot holds, made on first use. Only one type is ever kept
    /// in a slot (the session's).
    pub fn get_or_default<T: std::any::Any + Send + Sync + Default>(&self) -> &T {
        self.0
            .get_or_init(|| Box::new(T::default()))
            .downcast_ref()
            .expect("a render slot holds one type")
    }
}

impl Clone for RenderSlot {
    fn clone(&self) -> RenderSlot {
        RenderSlot::default()
    }
}

impl std::fmt::Debug for RenderSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RenderSlot")
    }
}
