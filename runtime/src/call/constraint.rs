//! The `#[arg(...)]` constraints, as traits: each says which types it applies to, so
//! a constraint on the wrong type is a compile error on that type (through aliases too).

use crate::call::param::Bound;

/// Numbers that `#[arg(range(...))]` can bound: every primitive integer and float.
///
/// ```
/// /// Returns the square of a number from 0 to 1000.
/// #[mcp_tool::mcp_tool]
/// fn square(#[arg(range(min = 0, max = 1000))] n: u32) -> u32 {
///     n * n
/// }
/// # assert_eq!(square(3), 9);
/// ```
#[diagnostic::on_unimplemented(
    message = "`range` applies to numeric parameters, and `{Self}` is not a number",
    label = "not a number",
    note = "use `length(min = .., max = ..)` to bound a string or a collection"
)]
pub trait RangeArg {
    #[doc(hidden)]
    fn within(&self, min: Option<Bound>, max: Option<Bound>) -> bool;
}

macro_rules! range_int {
    ($($t:ty),*) => {$(
        impl RangeArg for $t {
            fn within(&self, min: Option<Bound>, max: Option<Bound>) -> bool {
                let value = *self as i128;
                let above = |b: Bound| match b {
                    Bound::Int(b) => value >= b,
                    Bound::Float(b) => value as f64 >= b,
                };
                let below = |b: Bound| match b {
                    Bound::Int(b) => value <= b,
                    Bound::Float(b) => value as f64 <= b,
                };
                min.is_none_or(above) && max.is_none_or(below)
            }
        }
    )*};
}
range_int!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! range_float {
    ($($t:ty),*) => {$(
        impl RangeArg for $t {
            fn within(&self, min: Option<Bound>, max: Option<Bound>) -> bool {
                let value = *self as f64;
                let bound = |b: Bound| match b {
                    Bound::Int(b) => b as f64,
                    Bound::Float(b) => b,
                };
                min.is_none_or(|b| value >= bound(b)) && max.is_none_or(|b| value <= bound(b))
            }
        }
    )*};
}
range_float!(f32, f64);

/// Strings and collections that `#[arg(length(...))]` can bound.
///
/// ```
/// /// Joins from 1 to 10 words with spaces.
/// #[mcp_tool::mcp_tool]
/// fn join(#[arg(length(min = 1, max = 10))] words: Vec<String>) -> String {
///     words.join(" ")
/// }
/// # assert_eq!(join(vec!["a".into(), "b".into()]), "a b");
/// ```
#[diagnostic::on_unimplemented(
    message = "`length` applies to strings and collections, and `{Self}` is neither",
    label = "has no length",
    note = "`length` counts the characters of a string or the items of a collection; bound a number with `range(min = .., max = ..)`"
)]
pub trait LengthArg {
    /// Characters of a string, items of a collection.
    #[doc(hidden)]
    fn arg_len(&self) -> usize;
}

impl LengthArg for String {
    fn arg_len(&self) -> usize {
        self.chars().count()
    }
}

impl<T> LengthArg for Vec<T> {
    fn arg_len(&self) -> usize {
        self.len()
    }
}

impl<K, V, S> LengthArg for std::collections::HashMap<K, V, S> {
    fn arg_len(&self) -> usize {
        self.len()
    }
}

impl<K, V> LengthArg for std::collections::BTreeMap<K, V> {
    fn arg_len(&self) -> usize {
        self.len()
    }
}

impl<T, S> LengthArg for std::collections::HashSet<T, S> {
    fn arg_len(&self) -> usize {
        self.len()
    }
}

impl<T> LengthArg for std::collections::BTreeSet<T> {
    fn arg_len(&self) -> usize {
        self.len()
    }
}

/// Strings that `#[arg(pattern = "...")]` can match.
///
/// ```
/// /// Returns a greeting for a lowercase name.
/// #[mcp_tool::mcp_tool]
/// fn greet(#[arg(pattern = "^[a-z]+$")] name: String) -> String {
///     format!("Hello, {name}!")
/// }
/// # assert_eq!(greet("ada".into()), "Hello, ada!");
/// ```
#[diagnostic::on_unimplemented(
    message = "`pattern` applies to string parameters, and `{Self}` is not a string",
    label = "not a string",
    note = "declare the parameter as `String` (or `Option<String>`)"
)]
pub trait PatternArg {
    #[doc(hidden)]
    fn arg_str(&self) -> &str;
}

impl PatternArg for String {
    fn arg_str(&self) -> &str {
        self
    }
}
