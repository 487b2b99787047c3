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

#[test]
fn positions_refuse_counts_that_would_overflow() {
    for id in GAMES {
        let base = Game::new(id, 3, "nopie").unwrap().position();
        for ply in ["4294967295", "1000001"] {
            let e = Game::from_position(&format!("{base} ply={ply}")).err();
            assert!(matches!(&e, Some(Error::InvalidPosition(_))), "{id} ply={ply}: {e:?}");
            assert!(e.unwrap().to_string().starts_with("invalid position"));
        }
        let mut g = Game::from_position(&format!("{base} ply=1000000")).unwrap();
        let a = g.legal_actions().unwrap()[0].clone();
        g.play(&a).unwrap();
        assert_eq!(g.ply(), 1_000_001, "{id}");
    }
    // side 3: 19 sites; a prison holds the komi and captured stones, at most 19 + 2 x 1,000,000
    let agreed = "anda-prison 3 b .../..../...../..../... variant=nopie phase=agreed";
    for prison in ["2147483648,0", "0,4294967295", "2000020,0"] {
        let e = Game::from_position(&format!("{agreed} prison={prison}")).err();
        assert!(matches!(e, Some(Error::InvalidPosition(_))), "prison={prison}: {e:?}");
    }
    let g = Game::from_position(&format!("{agreed} prison=2000019,0")).unwrap();
    let o = g.outcome().expect("an agreed game is over");
    assert_eq!((o.winner(), o.score()), (Some(Colour::White), "W+2000019".to_string()));
}

#[test]
fn actions_and_names_off_the_board_are_refused() {
    let off = [9999u16, 5, 60_000]; // side 5: rows of 9 bits, bit 5 lies between a row's end and the next
    for (id, variant) in [("anda", "nopie"), ("anda-prison", "nopie"), ("vaxandis", "nopie"), ("spelde", "nopie"),
                          ("marbanta", "nopie")] {
        let mut g = Game::new(id, 5, variant).unwrap();
        let before = g.position();
        for s in off {
            for a in [Action::Place(s), Action::Pair(0, s), Action::Pair(s, 0), Action::Move(0, s), Action::Pie(s, 0),
                      Action::Flip(0, vec![s]), Action::Group(0, vec![1, s])] {
                let r = g.check(&a);
                assert!(matches!(&r, Err(Refusal::Illegal(m)) if m.contains("is not a site")), "{id} {a:?}: {r:?}");
                assert!(matches!(g.play(&a), Err(Refusal::Illegal(_))), "{id} {a:?}");
            }
            assert_eq!(g.site_name(s), None, "{id} {s}");
        }
        assert_eq!(g.position(), before);
        assert_eq!(g.site_name(0).as_deref(), Some("a1"));
        assert!(g.legal_cells().iter().all(|&s| g.site_name(s).is_some()));
    }
}

#[test]
fn one_game_is_read_from_two_threads_at_once() {
    fn sync<T: Sync>(_: &T) {}
    for (i, (id, variant)) in VARIANTS.into_iter().enumerate() {
        let mut g = Game::new(id, 5, variant).unwrap();
        sync(&g);
        for ply in 0..40u64 {
            if g.outcome().is_some() {
                break;
            }
            // a copy read first by the two threads: its lazily filled caches empty
            let fresh = Game::from_position(&g.position()).unwrap();
            // the actions as sorted tokens: Spelde's path rules list flip sets in an order that
            // depends on the thread's cache (a HashSet's)
            let tokens = |g: &Game| {
                let mut t: Vec<String> = g.legal_actions_upto(MAX_ACTIONS).unwrap().iter().map(|a| g.format(a)).collect();
                t.sort();
                t
            };
            let read = || (fresh.outcome(), fresh.legal_cells(), tokens(&fresh));
            let [a, b] = std::thread::scope(|s| {
                let (a, b) = (s.spawn(read), s.spawn(read));
                [a.join().unwrap(), b.join().unwrap()]
            });
            let expected = (g.outcome(), g.legal_cells(), tokens(&g));
            assert!(a == expected && b == expected, "{id} {variant} ply {ply}");
            let action = g.random_action(i as u64 * 100 + ply).unwrap();
            g.play(&action).unwrap();
        }
    }
}

#[test]
fn the_kit_has_no_ply_cap() {
    // side 3: 19 sites, the search's cap for Anda and Anda-prison at 190 plies
    for (id, extra) in [("anda-prison", " phase=play first=bw"), ("anda", " first=bw"), ("spelde", ""), ("vaxandis", ""),
                        ("marbanta", " phase=pie")] {
        for ply in [190, 5000] {
            let text = format!("{} 3 b .../..../...../..../... variant=nopie{extra} ply={ply}", id);
            let g = Game::from_position(&text).unwrap();
            assert_eq!(g.outcome(), None, "{text}");
            assert!(g.random_action(1).is_some(), "{text}: a game not over has a random action");
            assert!(!g.legal_actions().unwrap().is_empty(), "{text}");
            let mut h = g.clone();
            let (o, _) = h.random_playout(ply + 3, 2);
            assert!(h.ply() > ply && (o.is_some() || h.ply() == ply + 3), "{text}: {o:?} at {}", h.ply());
        }
    }
}

#[test]
fn legal_moves_refuses_past_either_bound_of_hgp() {
    // 95,716 Spelde flip sets: under MAX_ACTIONS, over a megabyte of text
    let g = Game::from_position("spelde 3 b www/wwww/wwww./ww.w/w.. variant=nopie").unwrap();
    assert!(g.legal_actions().is_some_and(|a| a.len() < MAX_ACTIONS));
    assert_eq!(g.legal_moves(), None);
    let g = Game::new("spelde", 5, "nopie").unwrap();
    let text = g.legal_moves().unwrap();
    let tokens: Vec<String> = g.legal_actions().unwrap().iter().map(|a| g.format(a)).collect();
    assert_eq!(text, tokens.join(" "));
    assert!(text.len() <= MAX_LEGAL_BYTES);
}

/// (token, how the Python rules read it in the position) for the kit's parse-and-check.
fn kind(g: &Game, token: &str) -> &'static str {
    match g.parse(token).and_then(|a| g.check(&a)) {
        Ok(()) => "ok",
        Err(Refusal::Syntax(_)) => "syntax",
        Err(Refusal::Illegal(_)) => "illegal",
    }
}

#[test]
fn tokens_are_classified_as_the_python_rules_classify_them() {
    let spelde = Game::new("spelde", 5, "nopie").unwrap();
    let anda = Game::from_position("anda 5 w ...../....../......./......../........./......../......./....../..... phase=answer").unwrap();
    let offer = Game::new("anda", 5, "pie").unwrap();
    let vaxandis = Game::new("vaxandis", 5, "nopie").unwrap();
    for (g, token, expected) in [
        (&spelde, "e5", "ok"), (&spelde, "E5 ", "ok"), (&spelde, "\u{212a}5", "illegal"), (&spelde, "e5\u{1f}", "ok"),
        (&spelde, "e05", "syntax"), (&spelde, "e0", "syntax"), (&spelde, "a0", "syntax"), (&spelde, "e+5", "syntax"),
        (&spelde, "e1000000000000000000000", "syntax"), (&spelde, "e99999", "illegal"),
        (&spelde, "e18446744073709551621", "illegal"), (&spelde, "z1", "illegal"),
        (&spelde, "e5,e5", "syntax"), (&spelde, "e5,e7", "syntax"), (&vaxandis, "e5,e5", "syntax"),
        (&spelde, "resign", "illegal"), (&spelde, "RESIGN", "illegal"), (&spelde, "z9/e5,", "syntax"),
        (&spelde, "e5/d5,d5", "illegal"), (&spelde, "e5/e05", "syntax"), (&spelde, "e5/z9,e05", "illegal"),
        (&anda, "a1,a1,c1", "syntax"), (&anda, "z9,e05", "illegal"), (&anda, "e05,z9", "syntax"),
        (&offer, "komi=3", "ok"), (&offer, "komi=03", "ok"), (&offer, "komi=+3", "syntax"),
        (&offer, "komi=4294967296", "illegal"), (&offer, "komi=99999999999999999999", "illegal"),
        (&offer, "komi=999999999999999999999", "syntax"), (&spelde, "komi=4294967296", "syntax"),
        (&vaxandis, "e5-e5", "illegal"), (&vaxandis, "e5-e05", "syntax"),
    ] {
        assert_eq!(kind(g, token), expected, "{token:?} in {}", g.position());
    }
}

#[test]
fn colour_sets_are_read_in_either_order() {
    let g = Game::from_position("anda 3 b .../..../...../..../... variant=nopie first=wb").unwrap();
    assert!(g.position().ends_with("first=bw"), "{}", g.position());
    assert!(Game::from_position("anda 3 b .../..../...../..../... first=bb").is_err());
}
