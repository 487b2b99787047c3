//! The test positions of docs/rules/spelde.md (side 5) and playouts against the rules' end.

use super::*;
use crate::geometry::hexagon;

fn game(rule: Rule, black: &[&str], white: &[&str], to_move: usize) -> Spelde<2> {
    let geo = hexagon(5);
    let bb = |names: &[&str]| Bb::<2>::from_iter_bits(names.iter().map(|s| geo.parse(s).unwrap()));
    Spelde { geo, rule, st: [bb(black), bb(white)], to_move, ply: 4, phase: Phase::Play }
}

fn cell(g: &Spelde<2>, s: &str) -> usize {
    g.geo.parse(s).unwrap()
}

fn set(g: &Spelde<2>, names: &[&str]) -> Bb<2> {
    Bb::from_iter_bits(names.iter().map(|s| cell(g, s)))
}

#[test]
fn s_t1_the_flip_need_not_touch_the_placed_stone() {
    let g = game(Rule::Literal, &["a1"], &["c5", "d5", "e5"], 0);
    assert!(g.allows(cell(&g, "d4"), set(&g, &["d5"])));
    assert!(g.allows(cell(&g, "f5"), set(&g, &["d5"])));
    let s = game(Rule::Standard, &["a1"], &["c5", "d5", "e5"], 0);
    assert!(!s.allows(cell(&s, "f5"), set(&s, &["d5"])));
}

#[test]
fn s_t2_two_separate_flips_split_a_ring() {
    let ring = ["d4", "d5", "e4", "e6", "f5", "f6"];
    let g = game(Rule::Literal, &["a1"], &ring, 0);
    assert!(g.allows(cell(&g, "e5"), set(&g, &["d5", "f5"])));
    let s = game(Rule::Standard, &["a1"], &ring, 0);
    assert!(!s.allows(cell(&s, "e5"), set(&s, &["d5", "f5"])));
}

#[test]
fn s_t3_and_t4_small_groups_cannot_be_split() {
    for (white, at) in [(&["e5"][..], "e6"), (&["h7", "h8"][..], "g7"), (&["a4", "a5", "b5"][..], "b6")] {
        let g = game(Rule::Literal, &["a1"], white, 0);
        assert!(!g.legal_cells().has(cell(&g, at)), "{at}");
    }
    let g = game(Rule::Literal, &["a1"], &["c5", "d5", "e5", "g6", "g7"], 0);
    assert!(!g.legal_cells().has(cell(&g, "f6")));
    assert!(g.legal_cells().has(cell(&g, "b5")));
}

#[test]
fn s_t5_a_line_of_five_has_sixteen_flip_sets() {
    let g = game(Rule::Literal, &["a1"], &["a5", "b5", "c5", "d5", "e5"], 0);
    let line = set(&g, &["a5", "b5", "c5", "d5", "e5"]);
    assert_eq!(g.literal_sets(line).len(), 16);
    let f5 = cell(&g, "f5");
    assert!(g.allows(f5, set(&g, &["b5", "c5", "d5"])));
    assert!(!g.allows(f5, set(&g, &["e5"])));
    assert!(!g.allows(f5, set(&g, &["a5", "e5"])));
}

#[test]
fn bad_stones_are_the_groups_of_at_most_three_without_two_apart() {
    let g = game(Rule::Literal, &[], &["e5", "h7", "h8", "a4", "a5", "b5", "c1", "c2", "c3"], 0);
    assert_eq!(bad_stones(g.geo.width, g.st[1]), set(&g, &["e5", "h7", "h8", "a4", "a5", "b5"]));
}

#[test]
fn playouts_end_where_the_rules_say() {
    let geo = hexagon(5);
    for seed in 0..12u64 {
        let rule = [Rule::Literal, Rule::Dense, Rule::Standard][seed as usize % 3];
        let phase = if seed % 2 == 0 { Phase::Open } else { Phase::Play };
        let mut g: Spelde<2> = Spelde { geo, rule, st: [Bb::ZERO; 2], to_move: 0, ply: 0, phase };
        let (winner, swaps) = g.playout(200, &mut Rng::new(seed));
        assert!(winner.is_some());
        assert_eq!(winner, g.winner());
        assert!(swaps <= 1);
    }
}

#[test]
fn literal_actions_list_each_cell_with_every_flip_set() {
    let g = game(Rule::Literal, &["a1"], &["a5", "b5", "c5", "d5", "e5"], 0);
    let all = g.literal_actions(usize::MAX);
    let f5 = cell(&g, "f5");
    assert_eq!(all.iter().filter(|&&(c, _)| c == f5).count(), 16);
    assert_eq!(all.iter().filter(|&&(_, f)| f.is_zero()).count() as u32, all.iter().filter(|&&(c, _)| g.adjacent_groups(c).is_empty()).count() as u32);
    assert_eq!(g.literal_actions(5), all[..5].to_vec());
    for &(c, f) in &all {
        assert!(g.allows(c, f));
    }
}

#[test]
fn descending_subsets_cross_the_words() {
    let mut group = Bb::<2>::ZERO;
    for i in [3, 63, 64, 70] {
        group.set(i);
    }
    let mut seen = Vec::new();
    let mut f = group;
    while f.any() {
        seen.push(f);
        f = below(f, group);
    }
    assert_eq!(seen.len(), 15);
    assert!(seen.windows(2).all(|p| (p[0].0[1], p[0].0[0]) > (p[1].0[1], p[1].0[0])));
    assert!(seen.iter().all(|s| s.within(&group)));
}
