//! Inputs made as libFuzzer makes them: a seed with a few byte-level mutations stacked on it.
//! Takes the seeds and dictionary tokens; gives a proptest strategy of inputs. Imports nothing
//! of this crate.

use std::fmt;
use std::sync::Arc;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select};

/// `run.sh`'s `-max_len`.
const MAX_LEN: usize = 4096;

/// At most this many mutations on one seed, as libFuzzer's `-mutate_depth` (5) and a few more.
const MAX_MUTATIONS: usize = 8;

/// Bytes that open or close what the targets parse: quotes, escapes, separators, digits,
/// line ends, NUL, and bytes that are not UTF-8 alone.
const INTERESTING_BYTES: &[u8] = b"\"'\\{}[]:=,;&?@/-09 \n\r\t\0\x7f\xc3\xa9\xff";

/// One input to a target, shown as a byte string so that a failure reads as the input.
#[derive(Clone)]
pub(crate) struct Input(pub(crate) Vec<u8>);

impl fmt::Debug for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b\"{}\"", self.0.escape_ascii())
    }
}

/// One of libFuzzer's mutations; positions are `Index`es so that they fit any length and
/// shrink towards the start.
#[derive(Clone, Debug)]
enum Mutation {
    FlipBit {
        at: Index,
        bit: u8,
    },
    SetByte {
        at: Index,
        byte: u8,
    },
    InsertBytes {
        at: Index,
        byte: u8,
        count: usize,
    },
    Erase {
        at: Index,
        len: usize,
    },
    InsertToken {
        at: Index,
        token: Index,
    },
    OverwriteToken {
        at: Index,
        token: Index,
    },
    CopyPart {
        from: Index,
        to: Index,
        len: usize,
    },
    /// This input up to `at`, then another seed from `from` on (libFuzzer's cross-over).
    Splice {
        at: Index,
        other: Index,
        from: Index,
    },
    /// The first decimal number from `at` on becomes `number` (libFuzzer's
    /// `ChangeASCIIInteger`): bounds get tested in input that still parses.
    ChangeNumber {
        at: Index,
        number: i64,
    },
}

/// Numbers near the bounds that parsers and constraints check.
const EDGE_NUMBERS: &[i64] = &[
    0,
    -1,
    1,
    -5,
    -6,
    500,
    501,
    255,
    256,
    65_536,
    i32::MAX as i64,
    i32::MAX as i64 + 1,
    i32::MIN as i64 - 1,
    1 << 53,
    i64::MAX,
    i64::MIN,
];

/// Seeds (an empty one added, so that some inputs are dictionary tokens alone) with 1 to
/// `MAX_MUTATIONS` mutations each.
pub(crate) fn inputs(
    mut seeds: Vec<Vec<u8>>,
    tokens: Vec<Vec<u8>>,
) -> impl Strategy<Value = Input> + use<> {
    seeds.push(Vec::new());
    let seeds: Arc<[Vec<u8>]> = seeds.into();
    let tokens: Arc<[Vec<u8>]> = tokens.into();
    // Mostly one or two, as most of libFuzzer's inputs are: a seed that still parses
    // reaches further.
    let mutations = prop_oneof![
        3 => vec(mutation(), 1..=2),
        1 => vec(mutation(), 3..=MAX_MUTATIONS),
    ];
    (any::<Index>(), mutations).prop_map(move |(seed, mutations)| {
        let mut data = seed.get(&seeds).clone();
        for mutation in &mutations {
            mutation.apply(&mut data, &seeds, &tokens);
        }
        data.truncate(MAX_LEN);
        Input(data)
    })
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let byte = || prop_oneof![select(INTERESTING_BYTES), any::<u8>()];
    let number = prop_oneof![select(EDGE_NUMBERS), -10..10i64, any::<i64>()];
    prop_oneof![
        1 => (any::<Index>(), 0..8u8).prop_map(|(at, bit)| Mutation::FlipBit { at, bit }),
        1 => (any::<Index>(), byte()).prop_map(|(at, byte)| Mutation::SetByte { at, byte }),
        1 => (any::<Index>(), byte(), 1..16usize)
            .prop_map(|(at, byte, count)| Mutation::InsertBytes { at, byte, count }),
        1 => (any::<Index>(), 1..16usize).prop_map(|(at, len)| Mutation::Erase { at, len }),
        // Tokens twice as likely: they are what reaches past the first checks of a parser.
        2 => (any::<Index>(), any::<Index>())
            .prop_map(|(at, token)| Mutation::InsertToken { at, token }),
        1 => (any::<Index>(), any::<Index>())
            .prop_map(|(at, token)| Mutation::OverwriteToken { at, token }),
        1 => (any::<Index>(), any::<Index>(), 1..64usize)
            .prop_map(|(from, to, len)| Mutation::CopyPart { from, to, len }),
        1 => (any::<Index>(), any::<Index>(), any::<Index>())
            .prop_map(|(at, other, from)| Mutation::Splice { at, other, from }),
        1 => (any::<Index>(), number)
            .prop_map(|(at, number)| Mutation::ChangeNumber { at, number }),
    ]
}

impl Mutation {
    fn apply(&self, data: &mut Vec<u8>, seeds: &[Vec<u8>], tokens: &[Vec<u8>]) {
        // A position between bytes (there are len + 1), and one on a byte (none when empty).
        let gap = |at: &Index, data: &[u8]| at.index(data.len() + 1);
        let on = |at: &Index, data: &[u8]| (!data.is_empty()).then(|| at.index(data.len()));
        match self {
            Self::FlipBit { at, bit } => {
                if let Some(i) = on(at, data) {
                    data[i] ^= 1 << bit;
                }
            }
            Self::SetByte { at, byte } => {
                if let Some(i) = on(at, data) {
                    data[i] = *byte;
                }
            }
            Self::InsertBytes { at, byte, count } => {
                let i = gap(at, data);
                data.splice(i..i, std::iter::repeat_n(*byte, *count));
            }
            Self::Erase { at, len } => {
                if let Some(i) = on(at, data) {
                    data.drain(i..(i + len).min(data.len()));
                }
            }
            Self::InsertToken { at, token } => {
                if !tokens.is_empty() {
                    let i = gap(at, data);
                    data.splice(i..i, token.get(tokens).iter().copied());
                }
            }
            Self::OverwriteToken { at, token } => {
                if !tokens.is_empty() {
                    let token = token.get(tokens);
                    let i = gap(at, data);
                    data.splice(i..(i + token.len()).min(data.len()), token.iter().copied());
                }
            }
            Self::CopyPart { from, to, len } => {
                if let Some(i) = on(from, data) {
                    let part = data[i..(i + len).min(data.len())].to_vec();
                    let j = gap(to, data);
                    data.splice(j..j, part);
                }
            }
            Self::Splice { at, other, from } => {
                let other = other.get(seeds);
                data.truncate(gap(at, data));
                data.extend_from_slice(&other[gap(from, other)..]);
            }
            Self::ChangeNumber { at, number } => {
                let from = gap(at, data);
                if let Some(start) = data[from..].iter().position(u8::is_ascii_digit) {
                    let mut start = from + start;
                    let end = data[start..]
                        .iter()
                        .position(|b| !b.is_ascii_digit())
                        .map_or(data.len(), |len| start + len);
                    if start > 0 && data[start - 1] == b'-' {
                        start -= 1;
                    }
                    data.splice(start..end, number.to_string().into_bytes());
                }
            }
        }
    }
}
