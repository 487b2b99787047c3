//! Anda's board: stones, groups and regions kept incrementally, and the placement rule.
//!
//! What the rules need beyond the two colours' stones (RULES.md section 2): the groups of
//! each colour, the regions of the empty sites, and per region how many groups of each
//! colour touch it (0, 1, or 2 meaning two or more). From these:
//!
//! * `good[c]`: the regions that are a live breath for colour c (touching 0 or 2+ enemy
//!   groups); a c group is smothered iff it touches none of them;
//! * `cand[c]`: the empty sites that are not c's enemy territory (where c may try a stone).
//!
//! [`Board::probe`] resolves a placement without changing the board: only the placed
//! site's region R changes (it loses the site and may split into up to three parts), the
//! mover's groups beside the site merge, and a region's count of mover groups changes
//! only when it touched two of the merged groups. [`Board::apply`] commits a probe;
//! after removals the board is analysed again from the stones.

use crate::bitboard::Bb;
use crate::geometry::Hexagon;

const NONE: u16 = u16::MAX;

/// Why a placement is refused, or that it is legal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    Legal,
    Occupied,
    Territory,
    Suicide,
}

/// A resolved placement of colour `p` on `site`.
pub struct Probe<const N: usize> {
    pub site: usize,
    pub p: usize,
    pub verdict: Verdict,
    /// Stones per colour after the turn.
    pub st: [Bb<N>; 2],
    /// Stones removed per colour.
    pub removed: [Bb<N>; 2],
    merged: [u16; 3],
    nm: usize,
    m: Bb<N>,
    mexp: Bb<N>,
    parts: [Bb<N>; 3],
    counts: [[u8; 2]; 3],
    nparts: usize,
    changed: Bb<N>,
    /// The live breaths per colour after the placement, before any removal.
    placed: [Bb<N>; 2],
    /// The live breaths per colour after the turn.
    good: [Bb<N>; 2],
}

pub struct Board<const N: usize> {
    pub geo: &'static Hexagon,
    pub(crate) w: usize,
    /// Stones per colour (0 black, 1 white).
    pub st: [Bb<N>; 2],
    pub empty: Bb<N>,
    pub(crate) grp: [Vec<Bb<N>>; 2],
    pub(crate) gexp: [Vec<Bb<N>>; 2],
    gfree: [Vec<u16>; 2],
    pub(crate) gid: Vec<u16>,
    pub(crate) reg: Vec<Bb<N>>,
    pub(crate) rcnt: Vec<[u8; 2]>,
    rfree: Vec<u16>,
    pub(crate) rid: Vec<u16>,
    pub(crate) good: [Bb<N>; 2],
    cand: [Bb<N>; 2],
}

/// `clone_from` reuses the target's buffers (the step API recycles boards: core/src/python/step.rs).
impl<const N: usize> Clone for Board<N> {
    fn clone(&self) -> Self {
        Board {
            geo: self.geo,
            w: self.w,
            st: self.st,
            empty: self.empty,
            grp: self.grp.clone(),
            gexp: self.gexp.clone(),
            gfree: self.gfree.clone(),
            gid: self.gid.clone(),
            reg: self.reg.clone(),
            rcnt: self.rcnt.clone(),
            rfree: self.rfree.clone(),
            rid: self.rid.clone(),
            good: self.good,
            cand: self.cand,
        }
    }

    fn clone_from(&mut self, o: &Self) {
        self.geo = o.geo;
        self.w = o.w;
        self.st = o.st;
        self.empty = o.empty;
        self.grp.clone_from(&o.grp);
        self.gexp.clone_from(&o.gexp);
        self.gfree.clone_from(&o.gfree);
        self.gid.clone_from(&o.gid);
        self.reg.clone_from(&o.reg);
        self.rcnt.clone_from(&o.rcnt);
        self.rfree.clone_from(&o.rfree);
        self.rid.clone_from(&o.rid);
        self.good = o.good;
        self.cand = o.cand;
    }
}

/// Whether the ring pattern (bit d: the neighbour in direction d is in the region) forms
/// `k` separate arcs; 0 for no neighbour.
fn arcs(pattern: u8) -> usize {
    if pattern == 0x3f {
        return 1;
    }
    let prev = (pattern << 1 | pattern >> 5) & 0x3f;
    (pattern & !prev).count_ones() as usize
}

impl<const N: usize> Board<N> {
    /// The board of `geo` with these stones, analysed from scratch.
    pub fn new(geo: &'static Hexagon, black: Bb<N>, white: Bb<N>) -> Board<N> {
        let mut b = Board {
            geo,
            w: geo.width,
            st: [black, white],
            empty: Bb::ZERO,
            grp: [Vec::new(), Vec::new()],
            gexp: [Vec::new(), Vec::new()],
            gfree: [Vec::new(), Vec::new()],
            gid: vec![NONE; geo.bits()],
            reg: Vec::new(),
            rcnt: Vec::new(),
            rfree: Vec::new(),
            rid: vec![NONE; geo.bits()],
            good: [Bb::ZERO; 2],
            cand: [Bb::ZERO; 2],
        };
        b.analyse();
        b
    }

    /// Replace the stones and analyse again.
    pub fn reset(&mut self, black: Bb<N>, white: Bb<N>) {
        self.st = [black, white];
        self.analyse();
    }

    fn analyse(&mut self) {
        let w = self.w;
        self.empty = self.geo.mask::<N>().andnot(self.st[0].or(self.st[1]));
        for c in 0..2 {
            self.grp[c].clear();
            self.gexp[c].clear();
            self.gfree[c].clear();
            let mut rest = self.st[c];
            while rest.any() {
                let g = Bb::bit(rest.lowest()).flood(self.st[c], w);
                rest = rest.andnot(g);
                let slot = self.grp[c].len() as u16;
                self.grp[c].push(g);
                self.gexp[c].push(g.grow(w));
                for x in g.iter() {
                    self.gid[x] = slot;
                }
            }
        }
        self.reg.clear();
        self.rcnt.clear();
        self.rfree.clear();
        self.good = [Bb::ZERO; 2];
        self.cand = [Bb::ZERO; 2];
        let mut rest = self.empty;
        while rest.any() {
            let r = Bb::bit(rest.lowest()).flood(self.empty, w);
            rest = rest.andnot(r);
            self.add_region(r);
        }
    }

    /// 0, 1 or 2 (two or more): the groups of colour c among the stones `touching`.
    #[inline(always)]
    pub(crate) fn groups_in(&self, touching: Bb<N>, c: usize) -> u8 {
        if touching.is_zero() {
            0
        } else if touching.within(&self.grp[c][self.gid[touching.lowest()] as usize]) {
            1
        } else {
            2
        }
    }

    fn note_region(&mut self, r: Bb<N>, cnt: [u8; 2]) {
        for c in 0..2 {
            if cnt[1 - c] != 1 {
                self.good[c] = self.good[c].or(r);
            }
            if !(cnt[c] == 0 && cnt[1 - c] > 0) {
                self.cand[c] = self.cand[c].or(r);
            }
        }
    }

    fn add_region(&mut self, r: Bb<N>) -> u16 {
        let e = r.grow(self.w);
        let cnt = [self.groups_in(e.and(self.st[0]), 0), self.groups_in(e.and(self.st[1]), 1)];
        let slot = match self.rfree.pop() {
            Some(k) => {
                self.reg[k as usize] = r;
                self.rcnt[k as usize] = cnt;
                k
            }
            None => {
                self.reg.push(r);
                self.rcnt.push(cnt);
                (self.reg.len() - 1) as u16
            }
        };
        for x in r.iter() {
            self.rid[x] = slot;
        }
        self.note_region(r, cnt);
        slot
    }

    /// The empty sites where colour c may try a stone (not c's enemy territory).
    pub fn candidates(&self, c: usize) -> Bb<N> {
        self.cand[c]
    }

    /// The stones of colour c standing smothered now.
    pub fn smothered(&self, c: usize) -> Bb<N> {
        let mut out = Bb::ZERO;
        for (g, e) in self.grp[c].iter().zip(&self.gexp[c]) {
            if g.any() && !e.meets(&self.good[c]) {
                out = out.or(*g);
            }
        }
        out
    }

    /// The parts of region `rp` (the region of `s` without s) after s is taken.
    pub(crate) fn split(&self, s: usize, rp: Bb<N>, parts: &mut [Bb<N>; 3]) -> usize {
        let ring = &self.geo.ring[s];
        let mut pattern = 0u8;
        for (d, x) in ring.iter().enumerate() {
            if let Some(x) = *x {
                if rp.has(x) {
                    pattern |= 1 << d;
                }
            }
        }
        let k = arcs(pattern);
        if k <= 1 {
            parts[0] = rp;
            return k;
        }
        // one front per arc, grown in step; fronts that meet join; stop when one grows
        let mut fr = [Bb::<N>::ZERO; 3];
        let mut state = [0u8; 3]; // 0 growing, 1 closed, 2 joined into another
        let mut nf = 0;
        for (d, x) in ring.iter().enumerate() {
            let prev = (d + 5) % 6;
            if pattern >> d & 1 == 1 && pattern >> prev & 1 == 0 {
                fr[nf] = Bb::bit(x.unwrap_or(0));
                nf += 1;
            }
        }
        loop {
            for i in 0..nf {
                for j in i + 1..nf {
                    if state[i] != 2 && state[j] != 2 && fr[i].meets(&fr[j]) {
                        fr[i] = fr[i].or(fr[j]);
                        state[j] = 2;
                        state[i] = 0;
                    }
                }
            }
            if state[..nf].iter().filter(|&&x| x == 0).count() <= 1 {
                break;
            }
            for i in 0..nf {
                if state[i] == 0 {
                    let y = fr[i].grow(self.w).and(rp);
                    if y == fr[i] {
                        state[i] = 1;
                    } else {
                        fr[i] = y;
                    }
                }
            }
        }
        let mut n = 0;
        let mut closed = Bb::ZERO;
        for i in 0..nf {
            if state[i] == 1 {
                parts[n] = fr[i];
                closed = closed.or(fr[i]);
                n += 1;
            }
        }
        if state[..nf].contains(&0) {
            parts[n] = rp.andnot(closed);
            n += 1;
        }
        n
    }

    /// Resolve a stone of colour p on site s (both removal steps) without changing the board.
    pub fn probe(&self, p: usize, s: usize) -> Probe<N> {
        let o = 1 - p;
        let w = self.w;
        let sb = Bb::bit(s);
        let mut pr = Probe {
            site: s,
            p,
            verdict: Verdict::Legal,
            st: self.st,
            removed: [Bb::ZERO; 2],
            merged: [NONE; 3],
            nm: 0,
            m: sb,
            mexp: sb.grow(w),
            parts: [Bb::ZERO; 3],
            counts: [[0; 2]; 3],
            nparts: 0,
            changed: Bb::ZERO,
            placed: self.good,
            good: self.good,
        };
        if !self.empty.has(s) {
            pr.verdict = Verdict::Occupied;
            return pr;
        }
        let r0 = self.rid[s] as usize;
        let big = self.reg[r0];
        let cnt = self.rcnt[r0];
        if cnt[p] == 0 && cnt[o] > 0 {
            pr.verdict = Verdict::Territory;
            return pr;
        }
        for x in self.geo.ring[s].iter().flatten() {
            if self.st[p].has(*x) {
                let g = self.gid[*x];
                if !pr.merged[..pr.nm].contains(&g) {
                    pr.merged[pr.nm] = g;
                    pr.nm += 1;
                    pr.m = pr.m.or(self.grp[p][g as usize]);
                    pr.mexp = pr.mexp.or(self.gexp[p][g as usize]);
                }
            }
        }
        let rp = big.andnot(sb);
        pr.nparts = self.split(s, rp, &mut pr.parts);
        let stp = self.st[p].or(sb);
        let mut good_o = self.good[o].andnot(big);
        let mut good_p = self.good[p].andnot(big);
        for i in 0..pr.nparts {
            let part = pr.parts[i];
            let e = part.grow(w);
            let pc = if e.and(stp).within(&pr.m) { 1 } else { 2 };
            let oc = self.groups_in(e.and(self.st[o]), o);
            pr.counts[i][p] = pc;
            pr.counts[i][o] = oc;
            if pc != 1 {
                good_o = good_o.or(part);
            }
            if oc != 1 {
                good_p = good_p.or(part);
            }
        }
        if pr.nm >= 2 {
            let mut todo = pr.mexp.and(self.empty).andnot(big);
            while todo.any() {
                let k = self.rid[todo.lowest()] as usize;
                let r = self.reg[k];
                todo = todo.andnot(r);
                if self.rcnt[k][p] == 2 && r.grow(w).and(stp).within(&pr.m) {
                    pr.changed = pr.changed.or(r);
                }
            }
            good_o = good_o.andnot(pr.changed);
        }
        // step 1: every smothered enemy group
        let mut dead_o = Bb::ZERO;
        for (g, e) in self.grp[o].iter().zip(&self.gexp[o]) {
            if g.any() && !e.meets(&good_o) {
                dead_o = dead_o.or(*g);
            }
        }
        pr.placed[o] = good_o;
        pr.placed[p] = good_p;
        // step 2: the regions around removed stones, then every smothered friendly group
        let st_o = self.st[o].andnot(dead_o);
        if dead_o.any() {
            let empty = self.empty.andnot(sb).or(dead_o);
            let all = dead_o.flood(empty, w);
            good_p = good_p.andnot(all);
            let mut rest = all;
            while rest.any() {
                let piece = Bb::bit(rest.lowest()).flood(all, w);
                rest = rest.andnot(piece);
                if self.groups_in(piece.grow(w).and(st_o), o) != 1 {
                    good_p = good_p.or(piece);
                }
            }
        }
        let mut dead_p = Bb::ZERO;
        for (k, (g, e)) in self.grp[p].iter().zip(&self.gexp[p]).enumerate() {
            if g.any() && !pr.merged[..pr.nm].contains(&(k as u16)) && !e.meets(&good_p) {
                dead_p = dead_p.or(*g);
            }
        }
        if !pr.mexp.meets(&good_p) {
            dead_p = dead_p.or(pr.m);
        }
        if dead_o.is_zero() && dead_p == sb {
            pr.verdict = Verdict::Suicide;
            return pr;
        }
        pr.removed[o] = dead_o;
        pr.removed[p] = dead_p;
        pr.st[p] = stp.andnot(dead_p);
        pr.st[o] = st_o;
        pr.good[o] = good_o;
        pr.good[p] = good_p;
        pr
    }

    /// Commit a legal probe made on this board: the placement, then the removals.
    pub fn apply(&mut self, pr: &Probe<N>) {
        debug_assert_eq!(pr.verdict, Verdict::Legal);
        let removals = pr.removed[0].any() || pr.removed[1].any();
        self.apply_placement(pr, if removals { pr.placed } else { pr.good });
        if removals {
            self.remove(1 - pr.p, pr.removed[1 - pr.p]);
            self.remove(pr.p, pr.removed[pr.p]);
        }
    }

    /// Take the groups of colour x within `dead` off the board: their sites and the
    /// regions around them become new regions.
    fn remove(&mut self, x: usize, dead: Bb<N>) {
        if dead.is_zero() {
            return;
        }
        for k in 0..self.grp[x].len() {
            if self.grp[x][k].meets(&dead) {
                self.grp[x][k] = Bb::ZERO;
                self.gexp[x][k] = Bb::ZERO;
                self.gfree[x].push(k as u16);
            }
        }
        self.st[x] = self.st[x].andnot(dead);
        self.empty = self.empty.or(dead);
        let all = dead.flood(self.empty, self.w);
        let mut old = all.andnot(dead);
        while old.any() {
            let k = self.rid[old.lowest()] as usize;
            old = old.andnot(self.reg[k]);
            self.reg[k] = Bb::ZERO;
            self.rfree.push(k as u16);
        }
        for c in 0..2 {
            self.good[c] = self.good[c].andnot(all);
            self.cand[c] = self.cand[c].andnot(all);
        }
        let mut rest = all;
        while rest.any() {
            let piece = Bb::bit(rest.lowest()).flood(all, self.w);
            rest = rest.andnot(piece);
            self.add_region(piece);
        }
    }

    fn apply_placement(&mut self, pr: &Probe<N>, good: [Bb<N>; 2]) {
        let (p, s) = (pr.p, pr.site);
        // groups: the largest merged group keeps its slot
        let keep = if pr.nm == 0 {
            match self.gfree[p].pop() {
                Some(k) => k,
                None => {
                    self.grp[p].push(Bb::ZERO);
                    self.gexp[p].push(Bb::ZERO);
                    (self.grp[p].len() - 1) as u16
                }
            }
        } else {
            let mut best = pr.merged[0];
            for &g in &pr.merged[1..pr.nm] {
                if self.grp[p][g as usize].count() > self.grp[p][best as usize].count() {
                    best = g;
                }
            }
            for &g in &pr.merged[..pr.nm] {
                if g != best {
                    self.grp[p][g as usize] = Bb::ZERO;
                    self.gexp[p][g as usize] = Bb::ZERO;
                    self.gfree[p].push(g);
                }
            }
            best
        };
        for x in pr.m.andnot(self.grp[p][keep as usize]).iter() {
            self.gid[x] = keep;
        }
        self.grp[p][keep as usize] = pr.m;
        self.gexp[p][keep as usize] = pr.mexp;
        // regions: the largest part keeps the slot of the region that held s
        let r0 = self.rid[s] as usize;
        let big = self.reg[r0];
        self.cand[0] = self.cand[0].andnot(big);
        self.cand[1] = self.cand[1].andnot(big);
        self.good = good;
        if pr.nparts == 0 {
            self.reg[r0] = Bb::ZERO;
            self.rfree.push(r0 as u16);
        } else {
            let mut largest = 0;
            for i in 1..pr.nparts {
                if pr.parts[i].count() > pr.parts[largest].count() {
                    largest = i;
                }
            }
            for i in 0..pr.nparts {
                let part = pr.parts[i];
                if i == largest {
                    self.reg[r0] = part;
                    self.rcnt[r0] = pr.counts[i];
                } else {
                    let slot = match self.rfree.pop() {
                        Some(k) => {
                            self.reg[k as usize] = part;
                            self.rcnt[k as usize] = pr.counts[i];
                            k
                        }
                        None => {
                            self.reg.push(part);
                            self.rcnt.push(pr.counts[i]);
                            (self.reg.len() - 1) as u16
                        }
                    };
                    for x in part.iter() {
                        self.rid[x] = slot;
                    }
                }
                for c in 0..2 {
                    let cnt = pr.counts[i];
                    if !(cnt[c] == 0 && cnt[1 - c] > 0) {
                        self.cand[c] = self.cand[c].or(part);
                    }
                }
            }
        }
        let mut todo = pr.changed;
        while todo.any() {
            let k = self.rid[todo.lowest()] as usize;
            todo = todo.andnot(self.reg[k]);
            self.rcnt[k][p] = 1;
        }
        self.st[p] = self.st[p].or(Bb::bit(s));
        self.empty.clear(s);
    }

    /// Whether the probe's placement is legal, without the probe (the rule, for tests).
    pub fn legal(&self, p: usize, s: usize) -> bool {
        self.probe(p, s).verdict == Verdict::Legal
    }

    /// Every legal single placement of colour p.
    pub fn legal_cells(&self, p: usize) -> Bb<N> {
        let cand = self.cand[p];
        // a site beside a stone of the mover is legal: the stone joins a group, so what is
        // removed is never that stone alone
        let mut out = cand.and(self.st[p].grow(self.w));
        for s in cand.andnot(out).iter() {
            if self.legal(p, s) {
                out.set(s);
            }
        }
        out
    }

    /// Check every derived field against a fresh analysis (tests).
    pub fn consistent(&self) -> bool {
        let fresh = Board::new(self.geo, self.st[0], self.st[1]);
        if fresh.good != self.good || fresh.cand != self.cand || fresh.empty != self.empty {
            return false;
        }
        for c in 0..2 {
            let mut a: Vec<Bb<N>> = self.grp[c].iter().copied().filter(|g| g.any()).collect();
            let mut b: Vec<Bb<N>> = fresh.grp[c].clone();
            a.sort_by_key(|g| g.0);
            b.sort_by_key(|g| g.0);
            if a != b {
                return false;
            }
            for (g, e) in self.grp[c].iter().zip(&self.gexp[c]) {
                if g.any() && (g.grow(self.w) != *e || g.iter().any(|x| self.grp[c][self.gid[x] as usize] != *g)) {
                    return false;
                }
            }
        }
        for (k, r) in self.reg.iter().enumerate() {
            if r.any() {
                let f = fresh.rid[r.lowest()] as usize;
                if fresh.reg[f] != *r || fresh.rcnt[f] != self.rcnt[k] || r.iter().any(|x| self.rid[x] as usize != k) {
                    return false;
                }
            }
        }
        true
    }
}

/// The stones of `stones` (one colour) smothered against `enemy` with these empty sites,
/// from scratch: the first-turn pairs resolve their removals with it.
pub fn smothered_stones<const N: usize>(geo: &Hexagon, stones: Bb<N>, enemy: Bb<N>, empty: Bb<N>) -> Bb<N> {
    if stones.is_zero() {
        return stones;
    }
    let w = geo.width;
    let mut rest = stones.grow(w).and(empty);
    let mut good = Bb::ZERO;
    while rest.any() {
        let region = Bb::bit(rest.lowest()).flood(empty, w);
        rest = rest.andnot(region);
        let touching = region.grow(w).and(enemy);
        if touching.is_zero() || !touching.within(&Bb::bit(touching.lowest()).flood(enemy, w)) {
            good = good.or(region);
        }
    }
    let alive = good.grow(w).and(stones).flood(stones, w);
    stones.andnot(alive)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arcs_count_runs_around_the_ring() {
        assert_eq!(arcs(0), 0);
        assert_eq!(arcs(0x3f), 1);
        assert_eq!(arcs(0b000001), 1);
        assert_eq!(arcs(0b100001), 1);
        assert_eq!(arcs(0b010101), 3);
        assert_eq!(arcs(0b001001), 2);
        assert_eq!(arcs(0b110011), 1);
    }
}
