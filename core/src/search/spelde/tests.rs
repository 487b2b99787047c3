//! Spelde's `SearchGame` on random games of every rule: the listing against the rules' check
//! and the random draws, the end and the cap, the evaluation and the notation.

use std::collections::HashSet;

use super::*;
use crate::geometry::hexagon;

const RULES: [Rule; 3] = [Rule::Literal, Rule::Dense, Rule::Standard];

fn start(rule: Rule, pie: bool) -> Game<2> {
    let phase = if pie { Phase::Open } else { Phase::Play };
    Game::new(Spelde { geo: hexagon(5), rule, st: [Bb::ZERO; 2], to_move: 0, ply: 0, phase })
}

/// Every state of a seeded random game to its end.
fn states(rule: Rule, pie: bool, seed: u64) -> Vec<Game<2>> {
    let mut rng = Rng::new(seed);
    let mut out = vec![start(rule, pie)];
    while out.last().unwrap().outcome().is_none() {
        let g = out.last().unwrap();
        let a = g.random_action(&mut rng).expect("a game that goes on has an action");
        out.push(g.play(a).expect("a drawn action is legal"));
    }
    out
}

#[test]
fn the_listing_is_every_action_the_rules_allow_once() {
    let mut listed = 0;
    for (i, rule) in RULES.into_iter().enumerate() {
        for seed in 0..4 {
            for g in states(rule, seed % 2 == 0, 10 * i as u64 + seed) {
                let mut all = Vec::new();
                if !g.list(5_000, &mut all) {
                    continue;
                }
                listed += 1;
                let set: HashSet<_> = all.iter().copied().collect();
                assert_eq!(set.len(), all.len(), "listed twice");
                for &a in &all {
                    match a {
                        Action::Swap => assert_eq!(g.g.phase, Phase::Swap),
                        Action::Place(c, f) => assert!(g.g.allows(c, f), "{}", g.notation(a)),
                    }
                    assert!(g.play(a).is_some());
                }
                let cells: Bb<2> = Bb::from_iter_bits(all.iter().filter_map(|a| match a {
                    Action::Place(c, _) => Some(*c),
                    Action::Swap => None,
                }));
                assert_eq!(cells, g.cells());
                let mut rng = Rng::new(7);
                for _ in 0..20 {
                    let drawn = g.random_action(&mut rng);
                    assert_eq!(drawn.is_some(), !all.is_empty());
                    assert!(drawn.is_none_or(|a| set.contains(&a)), "{drawn:?}");
                }
                let mut few = Vec::new();
                assert!(g.list(all.len(), &mut few));
                assert_eq!(few.len(), all.len());
                if !all.is_empty() {
                    assert!(!g.list(all.len() - 1, &mut few));
                }
            }
        }
    }
    assert!(listed > 50, "{listed}");
}

#[test]
fn illegal_actions_do_not_play() {
    let g = start(Rule::Literal, true);
    let e5 = g.g.geo.parse("e5").unwrap();
    assert!(g.play(Action::Swap).is_none());
    let after = g.play(Action::Place(e5, Bb::ZERO)).unwrap();
    assert_eq!((after.g.phase, after.g.to_move, after.g.ply), (Phase::Swap, 1, 1));
    assert!(after.play(Action::Place(e5, Bb::ZERO)).is_none());
    let swapped = after.play(Action::Swap).unwrap();
    assert_eq!((swapped.g.phase, swapped.g.to_move, swapped.g.ply), (Phase::Play, 1, 2));
    assert!(swapped.play(Action::Swap).is_none());
    let line = Game::new(Spelde { rule: Rule::Standard, st: [Bb::ZERO, Bb::from_iter_bits(["a5", "b5", "c5", "d5", "e5"]
        .iter().map(|s| g.g.geo.parse(s).unwrap()))], ..g.g.clone() });
    let at = |s: &str| line.g.geo.parse(s).unwrap();
    assert!(line.play(Action::Place(at("f5"), Bb::bit(at("e5")))).is_none(), "f5 cannot split the line");
    let mut all = Vec::new();
    assert!(line.list(1_000, &mut all));
    let Some(&Action::Place(c, f)) = all.iter().find(|a| matches!(a, Action::Place(_, f) if f.any())) else {
        panic!("no split listed")
    };
    assert!(line.play(Action::Place(c, f)).is_some());
    assert!(line.play(Action::Place(c, Bb::ZERO)).is_none(), "the line must be split");
    assert!(line.play(Action::Place(c, f.or(Bb::bit(at("a1"))))).is_none(), "a1 is no adjacent enemy");
}

#[test]
fn the_end_the_cap_and_their_values() {
    for (i, rule) in RULES.into_iter().enumerate() {
        let all = states(rule, true, i as u64);
        let last = all.last().unwrap();
        assert_eq!(last.outcome(), Some(last.g.winner()));
        let value = last.evaluate(0, &mut Rng::new(1), None);
        assert_eq!(value, if last.g.winner() == Some(0) { 1.0 } else { 0.0 });
        let mut capped = all[all.len() / 2].clone();
        capped.g.ply = capped.cap;
        assert_eq!(capped.outcome(), Some(None));
        assert_eq!(capped.evaluate(1, &mut Rng::new(1), None), 0.5);
    }
}

#[test]
fn the_evaluation_squashes_the_mobility() {
    let g = start(Rule::Dense, false);
    assert_eq!(g.score(), 0.0);
    assert_eq!(g.evaluate(0, &mut Rng::new(1), None), 0.5);
    let geo = g.g.geo;
    let at = |s: &str| geo.parse(s).unwrap();
    // a lone white stone closes its six neighbours to Black: 54 open sites against 60
    let mut st = [Bb::ZERO; 2];
    st[1].set(at("e5"));
    let g = Game::new(Spelde { st, ..g.g.clone() });
    assert_eq!(g.score(), (54 - 60 - 6) as f64);
    assert_eq!(g.evaluate(0, &mut Rng::new(1), None), squash(-12.0, SCALE));
}

#[test]
fn notation_as_the_rules_write_it() {
    let g = start(Rule::Literal, true);
    let at = |s: &str| g.g.geo.parse(s).unwrap();
    assert_eq!(g.notation(Action::Swap), "swap");
    assert_eq!(g.notation(Action::Place(at("e5"), Bb::ZERO)), "e5");
    let flips = Bb::from_iter_bits(["f5", "b1", "d5"].iter().map(|s| at(s)));
    assert_eq!(g.notation(Action::Place(at("e5"), flips)), "e5/b1,d5,f5");
}
