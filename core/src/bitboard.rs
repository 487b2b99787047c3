//! Fixed-width bitboards: `N` 64-bit words, bit `i` in word `i / 64`.
//!
//! Sites use the layout of `engine/geometry.py`: bit = ri * W + ci with W = 2n (one
//! padding column), so the six neighbours of a set are shifts by 1, W and W + 1 and
//! a mask. `N` is chosen per board size (see `geometry::words`).

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Bb<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Bb<N> {
    fn default() -> Self {
        Bb([0; N])
    }
}

impl<const N: usize> Bb<N> {
    pub const ZERO: Self = Bb([0; N]);

    #[inline(always)]
    pub fn bit(i: usize) -> Self {
        let mut r = Self::ZERO;
        r.0[i >> 6] = 1u64 << (i & 63);
        r
    }

    #[inline(always)]
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline(always)]
    pub fn any(&self) -> bool {
        !self.is_zero()
    }

    #[inline(always)]
    pub fn has(&self, i: usize) -> bool {
        (self.0[i >> 6] >> (i & 63)) & 1 == 1
    }

    #[inline(always)]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1u64 << (i & 63);
    }

    #[inline(always)]
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1u64 << (i & 63));
    }

    #[inline(always)]
    pub fn and(self, o: Self) -> Self {
        let mut r = self;
        for i in 0..N {
            r.0[i] &= o.0[i];
        }
        r
    }

    #[inline(always)]
    pub fn or(self, o: Self) -> Self {
        let mut r = self;
        for i in 0..N {
            r.0[i] |= o.0[i];
        }
        r
    }

    /// `self` without the bits of `o`.
    #[inline(always)]
    pub fn andnot(self, o: Self) -> Self {
        let mut r = self;
        for i in 0..N {
            r.0[i] &= !o.0[i];
        }
        r
    }

    #[inline(always)]
    pub fn xor(self, o: Self) -> Self {
        let mut r = self;
        for i in 0..N {
            r.0[i] ^= o.0[i];
        }
        r
    }

    /// Whether the two sets share a bit.
    #[inline(always)]
    pub fn meets(&self, o: &Self) -> bool {
        let mut x = 0;
        for i in 0..N {
            x |= self.0[i] & o.0[i];
        }
        x != 0
    }

    /// Whether every bit of `self` is in `o`.
    #[inline(always)]
    pub fn within(&self, o: &Self) -> bool {
        let mut x = 0;
        for i in 0..N {
            x |= self.0[i] & !o.0[i];
        }
        x == 0
    }

    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The lowest set bit's index; the set must not be empty.
    #[inline(always)]
    pub fn lowest(&self) -> usize {
        for i in 0..N {
            if self.0[i] != 0 {
                return (i << 6) + self.0[i].trailing_zeros() as usize;
            }
        }
        usize::MAX
    }

    /// The index of the k-th (0-based, lowest first) set bit; the set must have more than k.
    #[inline(always)]
    pub fn nth(&self, mut k: u32) -> usize {
        for i in 0..N {
            let mut w = self.0[i];
            let c = w.count_ones();
            if k < c {
                for _ in 0..k {
                    w &= w - 1;
                }
                return (i << 6) + w.trailing_zeros() as usize;
            }
            k -= c;
        }
        usize::MAX
    }

    /// Every bit moved k places up (towards higher indices); bits past N words are lost.
    #[inline(always)]
    pub fn up(self, k: usize) -> Self {
        let (q, r) = (k >> 6, k & 63);
        let mut out = Self::ZERO;
        for i in (q..N).rev() {
            let j = i - q;
            out.0[i] = if r == 0 { self.0[j] } else if j > 0 { (self.0[j] << r) | (self.0[j - 1] >> (64 - r)) } else { self.0[j] << r };
        }
        out
    }

    /// Every bit moved k places down (towards lower indices); bits below 0 are lost.
    #[inline(always)]
    pub fn down(self, k: usize) -> Self {
        let (q, r) = (k >> 6, k & 63);
        let mut out = Self::ZERO;
        for i in 0..N.saturating_sub(q) {
            let j = i + q;
            out.0[i] = if r == 0 { self.0[j] } else if j + 1 < N { (self.0[j] >> r) | (self.0[j + 1] << (64 - r)) } else { self.0[j] >> r };
        }
        out
    }

    /// The set and its six neighbours on a board of width `w`, NOT clipped to the board.
    #[inline(always)]
    pub fn grow(self, w: usize) -> Self {
        let a = self.or(self.up(1));
        let b = self.or(self.down(1));
        a.or(b).or(a.up(w)).or(b.down(w))
    }

    /// The components of `within` that meet `self` (`self` need not lie in `within`).
    #[inline(always)]
    pub fn flood(self, within: Self, w: usize) -> Self {
        let mut cur = self.and(within);
        loop {
            let nxt = cur.grow(w).and(within);
            if nxt == cur {
                return cur;
            }
            cur = nxt;
        }
    }

    /// The set of the given bit indices.
    pub fn from_iter_bits(bits: impl Iterator<Item = usize>) -> Self {
        let mut r = Self::ZERO;
        for i in bits {
            r.set(i);
        }
        r
    }

    /// The set bits, lowest first.
    #[inline(always)]
    pub fn iter(self) -> BitIter<N> {
        BitIter { bb: self, word: 0 }
    }

    /// From little-endian bytes (at most 8 N of them); None when a bit lies beyond N words.
    pub fn from_le_bytes(bytes: &[u8]) -> Option<Self> {
        if bytes.len() > 8 * N && bytes[8 * N..].iter().any(|&b| b != 0) {
            return None;
        }
        let mut r = Self::ZERO;
        for (i, &b) in bytes.iter().take(8 * N).enumerate() {
            r.0[i / 8] |= (b as u64) << (8 * (i % 8));
        }
        Some(r)
    }

    pub fn to_le_bytes(self) -> Vec<u8> {
        self.0.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}

/// The set bits of a bitboard, lowest first.
pub struct BitIter<const N: usize> {
    bb: Bb<N>,
    word: usize,
}

impl<const N: usize> Iterator for BitIter<N> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.word < N {
            let w = self.bb.0[self.word];
            if w != 0 {
                self.bb.0[self.word] = w & (w - 1);
                return Some((self.word << 6) + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_cross_words() {
        let b = Bb::<3>::bit(63);
        assert_eq!(b.up(1), Bb::<3>::bit(64));
        assert_eq!(Bb::<3>::bit(64).down(1), b);
        assert_eq!(Bb::<3>::bit(100).up(20), Bb::<3>::bit(120));
        assert_eq!(Bb::<3>::bit(190).up(5), Bb::<3>::ZERO);
        assert_eq!(Bb::<3>::bit(3).up(130), Bb::<3>::bit(133));
        assert_eq!(Bb::<3>::bit(133).down(130), Bb::<3>::bit(3));
        assert_eq!(Bb::<3>::bit(70).up(64), Bb::<3>::bit(134));
        assert_eq!(Bb::<3>::bit(70).down(64), Bb::<3>::bit(6));
        assert_eq!(Bb::<3>::bit(5).down(64), Bb::<3>::ZERO);
        assert_eq!(Bb::<3>::bit(100).up(200), Bb::<3>::ZERO);
    }

    #[test]
    fn nth_and_iter_agree() {
        let mut b = Bb::<2>::ZERO;
        for i in [0, 5, 63, 64, 90, 127] {
            b.set(i);
        }
        let bits: Vec<usize> = b.iter().collect();
        assert_eq!(bits, vec![0, 5, 63, 64, 90, 127]);
        for (k, &i) in bits.iter().enumerate() {
            assert_eq!(b.nth(k as u32), i);
        }
        assert_eq!(b.count(), 6);
        assert_eq!(b.lowest(), 0);
    }

    #[test]
    fn bytes_round_trip() {
        let mut b = Bb::<2>::ZERO;
        b.set(3);
        b.set(77);
        assert_eq!(Bb::<2>::from_le_bytes(&b.to_le_bytes()), Some(b));
        assert_eq!(Bb::<2>::from_le_bytes(&[0; 17][..]), Some(Bb::<2>::ZERO));
        let mut long = vec![0u8; 17];
        long[16] = 1;
        assert_eq!(Bb::<2>::from_le_bytes(&long), None);
    }
}
