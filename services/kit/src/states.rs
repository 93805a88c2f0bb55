//! State tables: every allowed move of a record as a row (from, action, to); anything not
//! listed is refused. Each service keeps its tables in its pure domain and answers a refusal
//! with its own reason; [`check_every_pair`] is the test every table has, one case per
//! (state, action) pair, allowed or refused.

use std::fmt::Debug;

/// The allowed moves of a record: (from, action, to). `T` is where a move leads, usually a
/// state (a move may also lead out of the table, e.g. a deleted draft).
#[derive(Debug)]
pub struct Table<S: 'static, A: 'static, T: 'static = S> {
    /// Every allowed move.
    pub moves: &'static [(S, A, T)],
}

impl<S, A, T> Table<S, A, T>
where
    S: PartialEq + Copy,
    A: PartialEq + Copy,
    T: Copy,
{
    /// A table of `moves`.
    pub const fn new(moves: &'static [(S, A, T)]) -> Self {
        Self { moves }
    }

    /// Where `action` takes a record in `from`; None when the table refuses it.
    pub fn next<Q: Copy>(&self, from: Q, action: A) -> Option<T>
    where
        S: PartialEq<Q>,
    {
        self.moves.iter().find(|(f, a, _)| *f == from && *a == action).map(|(_, _, to)| *to)
    }

    /// Whether the table allows `action` from `from`.
    pub fn allows<Q: Copy>(&self, from: Q, action: A) -> bool
    where
        S: PartialEq<Q>,
    {
        self.next(from, action).is_some()
    }

    /// The states `action` may start from.
    pub fn sources(&self, action: A) -> Vec<S> {
        self.moves.iter().filter(|(_, a, _)| *a == action).map(|(s, _, _)| *s).collect()
    }
}

/// The test of a state table: `expected` names every (state, action) pair once with what
/// `next` must answer (a state, or the refusal's reason); the pairs `next` allows are exactly
/// the table's moves. Panics with the first pair that differs.
pub fn check_every_pair<S, A, T, R, E>(
    table: &Table<S, A, T>,
    states: &[S],
    actions: &[A],
    expected: &[(S, A, Result<R, E>)],
    next: impl Fn(S, A) -> Result<R, E>,
) where
    S: PartialEq + Copy + Debug,
    A: PartialEq + Copy + Debug,
    T: Copy,
    R: PartialEq + Debug,
    E: PartialEq + Debug,
{
    for s in states {
        for a in actions {
            let n = expected.iter().filter(|(es, ea, _)| es == s && ea == a).count();
            assert_eq!(n, 1, "the pair {s:?} --{a:?}--> is listed {n} times, not once");
        }
    }
    assert_eq!(expected.len(), states.len() * actions.len(), "a listed pair names an unknown state or action");
    for (from, action, want) in expected {
        assert_eq!(&next(*from, *action), want, "{from:?} --{action:?}-->");
        assert_eq!(table.allows(*from, *action), want.is_ok(), "{from:?} --{action:?}--> in the table");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Act {
        Open,
        Close,
    }

    const DOOR: Table<&str, Act> = Table::new(&[("shut", Act::Open, "open"), ("open", Act::Close, "shut")]);

    fn next(from: &str, a: Act) -> Result<&'static str, &'static str> {
        DOOR.next(from, a).ok_or(if from == "open" { "already_open" } else { "already_shut" })
    }

    #[test]
    fn a_table_answers_its_moves_and_refuses_the_rest() {
        assert_eq!(DOOR.next("shut", Act::Open), Some("open"));
        assert_eq!(DOOR.next("shut", Act::Close), None);
        assert_eq!(DOOR.sources(Act::Close), vec!["open"]);
        check_every_pair(
            &DOOR,
            &["shut", "open"],
            &[Act::Open, Act::Close],
            &[
                ("shut", Act::Open, Ok("open")),
                ("shut", Act::Close, Err("already_shut")),
                ("open", Act::Open, Err("already_open")),
                ("open", Act::Close, Ok("shut")),
            ],
            next,
        );
    }

    #[test]
    #[should_panic(expected = "listed 0 times")]
    fn a_missing_pair_fails_the_check() {
        check_every_pair(&DOOR, &["shut", "open"], &[Act::Open, Act::Close], &[("shut", Act::Open, Ok("open"))], next);
    }

    #[test]
    #[should_panic(expected = "in the table")]
    fn an_answer_the_table_does_not_hold_fails_the_check() {
        let lying = |from: &str, a: Act| if a == Act::Open { Ok("open") } else { next(from, a) };
        check_every_pair(
            &DOOR,
            &["shut", "open"],
            &[Act::Open, Act::Close],
            &[
                ("shut", Act::Open, Ok("open")),
                ("shut", Act::Close, Err("already_shut")),
                ("open", Act::Open, Ok("open")),
                ("open", Act::Close, Ok("shut")),
            ],
            lying,
        );
    }
}
