//! The kit on seeded random games of every game: notation and positions round-trip, every
//! listed action is playable and refusals leave the game unchanged, playouts end.

use super::*;

const VARIANTS: [(&str, &str); 8] = [("anda", "pie"), ("anda", "nopie opening=cells"), ("anda-prison", "pie"),
                                      ("anda-prison", "corners"), ("spelde", "nopie flips=dense"),
                                      ("vaxandis", "pie freeze=group"), ("marbanta", "pie"), ("marbanta", "nopie")];

#[test]
fn random_games_round_trip_notation_and_positions() {
    for (i, (id, variant)) in VARIANTS.into_iter().enumerate() {
        let mut g = Game::new(id, 4, variant).unwrap();
        let mut plies = 0;
        while g.outcome().is_none() && plies < 200 {
            let again = Game::from_position(&g.position()).unwrap();
            assert_eq!(again.position(), g.position());
            let actions = g.legal_actions().unwrap();
            assert!(!actions.is_empty(), "{id}: no action while the game goes on");
            for a in actions.iter().take(50) {
                assert_eq!(&g.parse(&g.format(a)).unwrap(), a, "{id}: {}", g.format(a));
                assert!(g.check(a).is_ok(), "{id}: listed {} refused", g.format(a));
            }
            let a = g.random_action(i as u64 * 1000 + plies).unwrap();
            assert!(actions.contains(&a), "{id}: random {} not listed", g.format(&a));
            g.play(&a).unwrap();
            plies += 1;
        }
        assert!(g.legal_actions().unwrap().is_empty() || g.outcome().is_none());
    }
}

#[test]
fn refusals_name_their_kind_and_change_nothing() {
    let mut g = Game::new("anda", 5, "nopie").unwrap();
    let before = g.position();
    assert!(matches!(g.play_token("e8-e6"), Err(Refusal::Syntax(_))));
    assert!(matches!(g.play_token("z9"), Err(Refusal::Illegal(_))));
    assert!(matches!(g.play_token("e5"), Err(Refusal::Illegal(_))), "a single stone on the first turn");
    assert_eq!(g.position(), before);
    assert!(matches!(Game::new("chess", 5, ""), Err(Error::UnknownGame(_))));
    assert!(matches!(Game::new("anda", 14, ""), Err(Error::UnacceptableSize(14))));
    assert!(matches!(Game::new("anda", 5, "flips=dense"), Err(Error::UnknownVariant(_))));
    assert!(matches!(Game::from_position("anda 5 b ./. phase=play"), Err(Error::InvalidPosition(_))));
}

#[test]
fn playouts_end_by_the_rules_or_at_the_cap() {
    for (i, (id, variant)) in VARIANTS.into_iter().enumerate() {
        let mut g = Game::new(id, 5, variant).unwrap();
        let (outcome, _) = g.random_playout(100_000, i as u64);
        assert_eq!(outcome, g.outcome());
        assert!(outcome.is_some(), "{id} {variant}: a playout without a cap ends");
    }
}

#[test]
fn positions_keep_the_variant_and_the_keys() {
    let text = "vaxandis 3 w ../b2../.w1.../../.. variant=nopie touch=landing phase=play ply=7";
    let g = Game::from_position(text);
    assert!(g.is_err(), "rows of the wrong length are refused");
    let mut g = Game::new("vaxandis", 3, "nopie touch=landing").unwrap();
    g.play_token("c3").unwrap();
    assert_eq!(g.variant(), "vaxandis nopie touch=landing");
    assert_eq!(Game::from_position(&g.position()).unwrap().position(), g.position());
    assert!(g.position().contains("touch=landing") && g.position().contains("ply=1"), "{}", g.position());
}
