//! Actions of every game as one type, and their HGP notation both ways.

use crate::geometry::Hexagon;

/// A site of the board: its bit in engine.geometry's layout (row * (2n - 1) + column),
/// named `a1`-style by [`crate::kit::Game::site_name`].
pub type Site = u16;

/// An action of any of the five games (HGP "Actions"). Site lists are canonical: sorted in
/// notation order (column letter, then row number) where the order carries no meaning.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `e5`: a stone (Vaxandis: a height-1 stack; Marbanta: a root with N = 1).
    Place(Site),
    /// `a1,i9`: the two-stone first turn (Anda, Anda-prison).
    Pair(Site, Site),
    /// `d4/d5,f5`: Spelde, a stone and the enemy stones it flips (never empty: a plain
    /// placement is `Place`).
    Flip(Site, Vec<Site>),
    /// `e8-e6`: Vaxandis, a stack's move.
    Move(Site, Site),
    /// `e5:e6,f6`: Marbanta, a root and the group's other stones (never empty: a root with
    /// N = 1 is `Place`).
    Group(Site, Vec<Site>),
    /// `e5,c3`: Marbanta's pie, a black stone then a white stone.
    Pie(Site, Site),
    /// `komi=K`: a komi offer.
    Komi(u32),
    Swap,
    Keep,
    /// Anda: White spends one komi point.
    Pass,
    /// Anda-prison: one enemy-coloured stone out of the prison.
    Release,
    Propose,
    Accept,
    Decline,
}

/// Why an action was refused: HGP's `syntax error` (not a form of this game) or
/// `illegal move` (a form of this game the rules forbid now), with the detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    Syntax(String),
    Illegal(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Syntax(why) => write!(f, "syntax error: {why}"),
            Refusal::Illegal(why) => write!(f, "illegal move: {why}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// The forms of action a game has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    Place,
    Pair,
    Flip,
    Move,
    Group,
    Pie,
    Komi,
    Word(&'static str),
}

/// The first site `action` names that is no cell of the board (`geo.is_site`), if any.
pub(crate) fn off_board(geo: &Hexagon, action: &Action) -> Option<Site> {
    let off = |s: &Site| !geo.is_site(usize::from(*s));
    match action {
        Action::Place(s) => Some(s).filter(|s| off(s)).copied(),
        Action::Pair(a, b) | Action::Pie(a, b) | Action::Move(a, b) => [a, b].into_iter().find(|s| off(s)).copied(),
        Action::Flip(c, more) | Action::Group(c, more) => std::iter::once(c).chain(more).find(|s| off(s)).copied(),
        _ => None,
    }
}

pub(crate) fn name(geo: &Hexagon, s: Site) -> String {
    geo.name(usize::from(s))
}

fn names(geo: &Hexagon, sites: &[Site]) -> String {
    sites.iter().map(|&s| name(geo, s)).collect::<Vec<_>>().join(",")
}

/// The action's HGP token.
pub(crate) fn format(geo: &Hexagon, action: &Action) -> String {
    match action {
        Action::Place(s) => name(geo, *s),
        Action::Pair(a, b) | Action::Pie(a, b) => format!("{},{}", name(geo, *a), name(geo, *b)),
        Action::Flip(c, f) if f.is_empty() => name(geo, *c),
        Action::Flip(c, f) => format!("{}/{}", name(geo, *c), names(geo, f)),
        Action::Move(a, b) => format!("{}-{}", name(geo, *a), name(geo, *b)),
        Action::Group(r, o) if o.is_empty() => name(geo, *r),
        Action::Group(r, o) => format!("{}:{}", name(geo, *r), names(geo, o)),
        Action::Komi(k) => format!("komi={k}"),
        Action::Swap => "swap".into(),
        Action::Keep => "keep".into(),
        Action::Pass => "pass".into(),
        Action::Release => "release".into(),
        Action::Propose => "propose".into(),
        Action::Accept => "accept".into(),
        Action::Decline => "decline".into(),
    }
}

/// Sites sorted in notation order.
pub(crate) fn sorted(geo: &Hexagon, mut sites: Vec<Site>) -> Vec<Site> {
    sites.sort_by_key(|&s| geo.rank[usize::from(s)]);
    sites
}

/// The most bytes of a caller's text a message repeats.
const SHOWN: usize = 100;

/// `text` as a message repeats it: whole up to [`SHOWN`] bytes, else its start (cut at a
/// character's boundary), `...` and its length (a huge token makes no huge message).
pub(crate) fn shown(text: &str) -> String {
    if text.len() <= SHOWN {
        return text.to_string();
    }
    let cut = (0..=SHOWN).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    format!("{}... ({} bytes)", &text[..cut], text.len())
}

/// `text` quoted (`{:?}`) as a message repeats it (see [`shown`]).
pub(crate) fn quoted(text: &str) -> String {
    if text.len() <= SHOWN {
        return format!("{text:?}");
    }
    let cut = (0..=SHOWN).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    format!("{:?}... ({} bytes)", &text[..cut], text.len())
}

fn site(geo: &Hexagon, text: &str) -> Result<Site, Refusal> {
    let shaped = text.len() >= 2 && text.as_bytes()[0].is_ascii_lowercase()
        && text[1..].bytes().all(|b| b.is_ascii_digit()) && text.len() <= 4;
    if !shaped {
        return Err(Refusal::Syntax(format!("{} is not a site", quoted(text))));
    }
    geo.parse(text).map(|s| s as Site).ok_or_else(|| Refusal::Illegal(format!("{} is off the board", shown(text))))
}

fn sites(geo: &Hexagon, text: &str) -> Result<Vec<Site>, Refusal> {
    let out = text.split(',').map(|t| site(geo, t)).collect::<Result<Vec<_>, _>>()?;
    let mut seen = out.clone();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != out.len() {
        return Err(Refusal::Illegal(format!("{} names a site twice", shown(text))));
    }
    Ok(out)
}

fn need(forms: &[Form], form: Form, token: &str) -> Result<(), Refusal> {
    if forms.contains(&form) {
        Ok(())
    } else {
        Err(Refusal::Syntax(format!("{} is not an action of this game", quoted(token))))
    }
}

/// The action a token names, for a game of `forms` on `geo` (canonical: lists sorted).
pub(crate) fn parse(geo: &Hexagon, forms: &[Form], token: &str) -> Result<Action, Refusal> {
    let t = token.trim().to_ascii_lowercase();
    let bad = || Refusal::Syntax(format!("{} is not an action of this game", quoted(token)));
    for (word, action) in [("swap", Action::Swap), ("keep", Action::Keep), ("pass", Action::Pass),
                           ("release", Action::Release), ("propose", Action::Propose),
                           ("accept", Action::Accept), ("decline", Action::Decline)] {
        if t == word {
            need(forms, Form::Word(word), token)?;
            return Ok(action);
        }
    }
    if let Some(k) = t.strip_prefix("komi=") {
        need(forms, Form::Komi, token)?;
        return k.parse::<u32>().map(Action::Komi).map_err(|_| bad());
    }
    if let Some((c, f)) = t.split_once('/') {
        need(forms, Form::Flip, token)?;
        let c = site(geo, c)?;
        let f = sites(geo, f)?;
        if f.contains(&c) {
            return Err(Refusal::Illegal(format!("{} flips its own site", shown(&t))));
        }
        return Ok(Action::Flip(c, sorted(geo, f)));
    }
    if let Some((a, b)) = t.split_once('-') {
        need(forms, Form::Move, token)?;
        return Ok(Action::Move(site(geo, a)?, site(geo, b)?));
    }
    if let Some((r, o)) = t.split_once(':') {
        need(forms, Form::Group, token)?;
        let r = site(geo, r)?;
        let o = sites(geo, o)?;
        if o.contains(&r) {
            return Err(Refusal::Illegal(format!("{} names its root twice", shown(&t))));
        }
        return Ok(Action::Group(r, sorted(geo, o)));
    }
    if t.contains(',') {
        let both = sites(geo, &t)?;
        let [a, b] = both[..] else { return Err(bad()) };
        if forms.contains(&Form::Pie) {
            return Ok(Action::Pie(a, b));
        }
        need(forms, Form::Pair, token)?;
        let s = sorted(geo, vec![a, b]);
        return Ok(Action::Pair(s[0], s[1]));
    }
    need(forms, Form::Place, token)?;
    Ok(Action::Place(site(geo, &t)?))
}
