//! What the peer and dataset tables share: a section of a table as a const array.

/// How many of `marks` are set.
pub(crate) const fn count(marks: &[bool]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < marks.len() {
        n += marks[i] as usize;
        i += 1;
    }
    n
}

/// The items whose mark is set, in order; `N` is their [`count`] (`fill` is never left in).
pub(crate) const fn select<T: Copy, const N: usize>(
    items: &[T],
    marks: &[bool],
    fill: T,
) -> [T; N] {
    assert!(items.len() == marks.len() && count(marks) == N);
    let mut out = [fill; N];
    let mut n = 0;
    let mut i = 0;
    while i < items.len() {
        if marks[i] {
            out[n] = items[i];
            n += 1;
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects_the_marked_items_in_order() {
        const MARKS: &[bool] = &[true, false, true, true];
        assert_eq!(count(MARKS), 3);
        let picked: [u8; 3] = select(&[1, 2, 3, 4], MARKS, 0);
        assert_eq!(picked, [1, 3, 4]);
    }
}
