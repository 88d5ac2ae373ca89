//! Helpers for the engine's data types: `Clone` field by field (see [`clone_by_fields`]).

/// `Clone` field by field, with a `clone_from` that reuses the buffers it overwrites: copying
/// a position into another (a playout, a search) allocates nothing once they have grown.
///
/// Both methods destructure the value with every field named and no `..`: a field added to the
/// type and not to the list here breaks the build, so no field is silently left uncopied by
/// `clone_from`.
macro_rules! clone_by_fields {
    ($t:ident { $($f:ident),* $(,)? }) => {
        impl Clone for $t {
            fn clone(&self) -> Self {
                let $t { $($f),* } = self;
                Self { $($f: $f.clone()),* }
            }
            fn clone_from(&mut self, o: &Self) {
                let $t { $($f),* } = o;
                $(self.$f.clone_from($f);)*
            }
        }
    };
}
pub(crate) use clone_by_fields;
