//! The playouts' random source: xoshiro256++ seeded through SplitMix64, and exact
//! uniform integers below a bound (Lemire's multiply-and-reject).

pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        Rng { s: [next(), next(), next(), next()] }
    }

    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let out = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }

    /// A uniform integer in 0..n (n > 0).
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        let mut m = (self.next_u64() as u32 as u64) * n as u64;
        if (m as u32) < n {
            let floor = n.wrapping_neg() % n;
            while (m as u32) < floor {
                m = (self.next_u64() as u32 as u64) * n as u64;
            }
        }
        (m >> 32) as u32
    }
}

impl Rng {
    /// A uniform integer in 0..n (n > 0), for bounds beyond 32 bits.
    #[inline(always)]
    pub fn below_u64(&mut self, n: u64) -> u64 {
        let mut m = (self.next_u64() as u128) * n as u128;
        if (m as u64) < n {
            let floor = n.wrapping_neg() % n;
            while (m as u64) < floor {
                m = (self.next_u64() as u128) * n as u128;
            }
        }
        (m >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut r = Rng::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..50_000 {
            seen[r.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (9_000..11_000).contains(&c)), "{seen:?}");
    }

    #[test]
    fn same_seed_same_stream() {
        let (mut a, mut b) = (Rng::new(3), Rng::new(3));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
    }
}
