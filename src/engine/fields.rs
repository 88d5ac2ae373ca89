//! Helpers for the engine's data types: `Clone` field by field (see [`clone_by_fields`]).

/// `Clone` field by field, with a `clone_from` that reuses the buffers it overwrites: copying
/// a position into another (a playout, a search) allocates nothing once they have grown.
macro_rules! clone_by_fields {
    ($t:ty { $($f:ident),* $(,)? }) => {
        impl Clone for $t {
            fn clone(&self) -> Self {
                Self { $($f: self.$f.clone()),* }
            }
            fn clone_from(&mut self, o: &Self) {
                $(self.$f.clone_from(&o.$f);)*
            }
        }
    };
}
pub(crate) use clone_by_fields;
