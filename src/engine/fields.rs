//! Helpers for the engine's data types: `Clone` field by field (see [`clone_by_fields`]), and
//! room kept in their buffers (see [`Room`]).

/// `Clone` field by field, with a `clone_from` that reuses the buffers it overwrites: copying
/// a position into another (a playout, a search) allocates nothing once they have grown.
///
/// Both methods destructure the value with every field named and no `..`: a field added to the
/// type and not to the list here breaks the build, so no field is silently left uncopied by
/// `clone_from`.
macro_rules! clone_by_fields {
    ($t:ident { $($f:ident),* $(,)? }) => {
        $crate::engine::fields::clone_by_fields!(@own_room $t { $($f),* });
        impl $crate::engine::fields::Room for $t {
            fn room_like(&mut self, o: &Self) {
                let $t { $($f),* } = o;
                $($crate::engine::fields::Room::room_like(&mut self.$f, $f);)*
            }
            fn fits(&self, o: &Self) -> bool {
                let $t { $($f),* } = o;
                true $(&& $crate::engine::fields::Room::fits(&self.$f, $f))*
            }
            fn bytes(&self) -> usize {
                let $t { $($f),* } = self;
                0 $(+ $crate::engine::fields::Room::bytes($f))*
            }
        }
    };
    // a type whose `Room` is written by hand
    (@own_room $t:ident { $($f:ident),* $(,)? }) => {
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

/// Room in a value's buffers, for copies made into it without allocating.
pub(crate) trait Room {
    /// Makes each buffer's capacity at least `like`'s: copying into this value (`clone_from`)
    /// a value whose buffers are no longer than `like`'s capacities allocates nothing. The
    /// contents do not change.
    fn room_like(&mut self, like: &Self);
    /// Whether copying `o` into this value (`clone_from`) allocates nothing.
    fn fits(&self, o: &Self) -> bool;
    /// The bytes its buffers hold (their capacities), besides the value itself.
    fn bytes(&self) -> usize;
}

/// Gives buffer `v` at least the capacity of `like` (its elements' own buffers, if any, are
/// not reserved).
pub(crate) fn reserve_like<T>(v: &mut Vec<T>, like: &Vec<T>) {
    if v.capacity() < like.capacity() {
        v.reserve_exact(like.capacity() - v.len());
    }
}

/// A buffer of values without buffers of their own (a buffer of buffers writes its own).
impl<T: Copy> Room for Vec<T> {
    fn room_like(&mut self, like: &Self) {
        reserve_like(self, like);
    }
    fn fits(&self, o: &Self) -> bool {
        o.len() <= self.capacity()
    }
    fn bytes(&self) -> usize {
        self.capacity() * std::mem::size_of::<T>()
    }
}

/// Values without a buffer of their own to grow.
macro_rules! no_room {
    ($($t:ty),* $(,)?) => {
        $(impl $crate::engine::fields::Room for $t {
            fn room_like(&mut self, _: &Self) {}
            fn fits(&self, _: &Self) -> bool {
                true
            }
            fn bytes(&self) -> usize {
                0
            }
        })*
    };
}
pub(crate) use no_room;
no_room!(
    bool,
    u8,
    u16,
    u32,
    u64,
    usize,
    i64,
    Option<(u16, u16)>,
    Option<u64>,
    Option<u8>,
);
