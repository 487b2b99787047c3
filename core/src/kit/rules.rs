//! Each game's rules behind one object-safe trait ([`Rules`]): the glue between the public
//! [`Game`](super::Game) and the crate's rules (`crate::anda`, ...) through their
//! [`SearchGame`]s, with the ply cap off (the rules alone end a game here).

use crate::anda::board::Verdict;
use crate::anda::{Anda, Phase as APhase};
use crate::anda_prison::{self as ap, Prison, Termination};
use crate::bitboard::Bb;
use crate::geometry::Hexagon;
use crate::input::{self, by_size};
use crate::marbanta::{Marbanta, Phase as MPhase, Played};
use crate::rng::Rng;
use crate::search::{self, anda::Action as AAction, vaxandis::Action as VAction, SearchGame};
use crate::spelde::{Action as SAction, Phase as SPhase, Rule, Spelde};
use crate::vaxandis::Phase as VPhase;

use super::action::{sorted, Action, Form, Site};
use super::position::{colours, colours_text, Position, Spec};
use super::{Error, Outcome};

pub(crate) static ANDA: Spec = Spec {
    id: "anda", balances: &["pie", "nopie"], options: &[("opening", &["features", "cells"])],
    phases: &["offer", "answer", "play"], keys: &[("komi", "0"), ("first", "-"), ("ply", "0")], stacks: false,
};
pub(crate) static PRISON: Spec = Spec {
    id: "anda-prison", balances: &["pie", "nopie", "corners"], options: &[],
    phases: &["pair", "pair-swap", "swap", "komi", "komi-swap", "corners", "play", "proposed", "declined", "agreed"],
    keys: &[("komi", "0"), ("prison", "0,0"), ("first", "-"), ("annihilated", "-"), ("last", "-"), ("ply", "0")],
    stacks: false,
};
pub(crate) static SPELDE: Spec = Spec {
    id: "spelde", balances: &["pie", "nopie"], options: &[("flips", &["literal", "dense", "standard"])],
    phases: &["open", "swap", "play"], keys: &[("ply", "0")], stacks: false,
};
pub(crate) static VAXANDIS: Spec = Spec {
    id: "vaxandis", balances: &["pie", "nopie"], options: &[("freeze", &["stack", "group"]), ("touch", &["path", "landing"])],
    phases: &["open", "swap", "play"], keys: &[("ply", "0")], stacks: true,
};
pub(crate) static MARBANTA: Spec = Spec {
    id: "marbanta", balances: &["pie", "nopie"], options: &[], phases: &["pie", "swap", "play"],
    keys: &[("ply", "0")], stacks: false,
};

/// Every game's declaration, in HGP `list_games` order.
pub(crate) static SPECS: [&Spec; 5] = [&ANDA, &PRISON, &SPELDE, &VAXANDIS, &MARBANTA];

/// One game's state as the public API drives it: `Sync` too, so that a [`Game`](super::Game)
/// may be read (`&self`) from several threads at once.
pub(crate) trait Rules: Send + Sync {
    fn boxed(&self) -> Box<dyn Rules>;
    fn geo(&self) -> &'static Hexagon;
    fn forms(&self) -> &'static [Form];
    fn to_move(&self) -> usize;
    fn ply(&self) -> u32;
    fn outcome(&self) -> Option<Outcome>;
    /// Every legal action when there are at most `cap`, None when more.
    fn actions(&self, cap: usize) -> Option<Vec<Action>>;
    fn legal_cells(&self) -> Vec<Site>;
    fn play(&self, action: &Action) -> Option<Box<dyn Rules>>;
    /// The rules' reason for refusing `action`, where they give a specific one.
    fn why(&self, action: &Action) -> Option<String>;
    fn random_action(&self, rng: &mut Rng) -> Option<Action>;
    /// Random actions to the end or `cap` plies; the swaps played.
    fn playout(&mut self, cap: u32, rng: &mut Rng) -> u32;
    /// The stones and the state's own keys into `pos` (its variant and options already there).
    fn describe(&self, pos: &mut Position);
    /// The stones into `now` (per bit: 0 empty, else colour + 1 + (height << 2)) and the
    /// phase's word: what a replay reads at every ply, without building a [`Position`].
    fn glance(&self, now: &mut [u32]) -> &'static str;
    /// The value of the state's own key `name` where the game reads it without a
    /// [`Position`], else None.
    fn key(&self, name: &str) -> Option<String>;
}

/// What each game adds to its [`SearchGame`] for [`Rules`].
pub(crate) trait Kit: SearchGame {
    const FORMS: &'static [Form];
    fn geo_(&self) -> &'static Hexagon;
    fn end(&self) -> Option<Outcome>;
    fn all(&self, cap: usize, out: &mut Vec<Self::Action>) -> bool;
    fn cells(&self) -> Vec<Site>;
    fn inner(&self, action: &Action) -> Option<Self::Action>;
    fn outer(&self, action: Self::Action) -> Action;
    fn run(&mut self, cap: u32, rng: &mut Rng) -> u32;
    /// A random action of the state not over by the rules (`end` None): the search's, where
    /// its own ply cap is off.
    fn random_(&self, rng: &mut Rng) -> Option<Self::Action> {
        SearchGame::random_action(self, rng)
    }
    fn describe_(&self, pos: &mut Position);
    fn phase_word(&self) -> &'static str;
    fn glance_(&self, now: &mut [u32]);
    fn key_(&self, _name: &str) -> Option<String> {
        None
    }
    fn why_(&self, _action: &Action) -> Option<String> {
        None
    }
}

impl<G: Kit + Sync> Rules for G {
    fn boxed(&self) -> Box<dyn Rules> {
        Box::new(self.clone())
    }
    fn geo(&self) -> &'static Hexagon {
        self.geo_()
    }
    fn forms(&self) -> &'static [Form] {
        G::FORMS
    }
    fn to_move(&self) -> usize {
        SearchGame::to_move(self)
    }
    fn ply(&self) -> u32 {
        SearchGame::ply(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.end()
    }
    fn actions(&self, cap: usize) -> Option<Vec<Action>> {
        if self.end().is_some() {
            return Some(Vec::new());
        }
        let mut out = Vec::new();
        self.all(cap, &mut out).then(|| out.into_iter().map(|a| self.outer(a)).collect())
    }
    fn legal_cells(&self) -> Vec<Site> {
        if self.end().is_some() { Vec::new() } else { sorted(self.geo_(), self.cells()) }
    }
    fn play(&self, action: &Action) -> Option<Box<dyn Rules>> {
        if self.end().is_some() {
            return None;
        }
        let next = SearchGame::play(self, self.inner(action)?)?;
        Some(Box::new(next))
    }
    fn random_action(&self, rng: &mut Rng) -> Option<Action> {
        if self.end().is_some() {
            return None;
        }
        self.random_(rng).map(|a| self.outer(a))
    }
    fn playout(&mut self, cap: u32, rng: &mut Rng) -> u32 {
        self.run(cap, rng)
    }
    fn why(&self, action: &Action) -> Option<String> {
        self.why_(action)
    }
    fn describe(&self, pos: &mut Position) {
        self.describe_(pos)
    }
    fn glance(&self, now: &mut [u32]) -> &'static str {
        self.glance_(now);
        self.phase_word()
    }
    fn key(&self, name: &str) -> Option<String> {
        self.key_(name)
    }
}

fn bb_sites<const N: usize>(bb: Bb<N>) -> Vec<Site> {
    bb.iter().map(|s| s as Site).collect()
}

fn sites_bb<const N: usize>(geo: &Hexagon, sites: &[Site]) -> Option<Bb<N>> {
    let mut bb = Bb::<N>::ZERO;
    for &s in sites {
        if !geo.is_site(usize::from(s)) {
            return None;
        }
        bb.set(usize::from(s));
    }
    Some(bb)
}

fn stones<const N: usize>(pos: &mut Position, st: [Bb<N>; 2], height: impl Fn(usize) -> u32) {
    pos.stacks = (0..2).flat_map(|c| st[c].iter().map(move |s| (s as Site, c, 0))).collect();
    for s in &mut pos.stacks {
        s.2 = height(usize::from(s.0));
    }
    pos.stacks.sort_unstable();
}

fn fill<const N: usize>(now: &mut [u32], st: [Bb<N>; 2], height: impl Fn(usize) -> u32) {
    now.fill(0);
    for (c, bb) in st.iter().enumerate() {
        for s in bb.iter() {
            now[s] = c as u32 + 1 + (height(s) << 2);
        }
    }
}

fn win(winner: Option<usize>) -> Outcome {
    Outcome { winner, margin2: None }
}

impl<const N: usize> Kit for Anda<N> {
    const FORMS: &'static [Form] = &[Form::Place, Form::Pair, Form::Komi, Form::Word("swap"), Form::Word("keep"),
                                     Form::Word("pass")];
    fn geo_(&self) -> &'static Hexagon {
        self.geo
    }
    fn end(&self) -> Option<Outcome> {
        Anda::outcome(self).map(|(w, _)| win(Some(w)))
    }
    fn all(&self, cap: usize, out: &mut Vec<AAction>) -> bool {
        SearchGame::list(self, cap, out)
    }
    fn cells(&self) -> Vec<Site> {
        if self.placing() { bb_sites(Anda::legal_cells(self)) } else { Vec::new() }
    }
    fn inner(&self, a: &Action) -> Option<AAction> {
        Some(match *a {
            Action::Place(s) => AAction::Place(s),
            Action::Pair(a, b) => AAction::Pair(a, b),
            Action::Komi(k) => AAction::Komi(u16::try_from(k).ok()?),
            Action::Swap => AAction::Swap,
            Action::Keep => AAction::Keep,
            Action::Pass => AAction::Pass,
            _ => return None,
        })
    }
    fn outer(&self, a: AAction) -> Action {
        match a {
            AAction::Place(s) => Action::Place(s),
            AAction::Pair(a, b) => Action::Pair(a, b),
            AAction::Komi(k) => Action::Komi(u32::from(k)),
            AAction::Swap => Action::Swap,
            AAction::Keep => Action::Keep,
            AAction::Pass => Action::Pass,
        }
    }
    fn run(&mut self, cap: u32, rng: &mut Rng) -> u32 {
        self.playout(cap, rng).swaps
    }
    fn describe_(&self, pos: &mut Position) {
        stones(pos, self.board.st, |_| 1);
        pos.set("phase", self.phase_word());
        pos.set("komi", self.komi.to_string());
        pos.set("first", colours_text(u8::from(self.first[0]) | u8::from(self.first[1]) << 1));
        pos.set("ply", self.ply.to_string());
    }
    fn phase_word(&self) -> &'static str {
        match self.phase {
            APhase::Offer => "offer",
            APhase::Answer => "answer",
            APhase::Play => "play",
        }
    }
    fn glance_(&self, now: &mut [u32]) {
        fill(now, self.board.st, |_| 1);
    }
    /// engine/games/anda/state.py's reasons for a refused placement.
    fn why_(&self, action: &Action) -> Option<String> {
        let &Action::Place(s) = action else { return None };
        let name = self.geo.name(usize::from(s));
        if self.phase != APhase::Play {
            return Some("no placement now".into());
        }
        if self.eliminated().is_some() {
            return Some("the game is over".into());
        }
        if self.first[self.to_move] {
            return Some("the first turn places two stones (a pair such as a1,i9)".into());
        }
        match self.board.probe(self.to_move, usize::from(s)).verdict {
            Verdict::Occupied => Some(format!("{name} is occupied")),
            Verdict::Territory => Some(format!("{name} is {} territory", ["black", "white"][1 - self.to_move])),
            Verdict::Suicide => Some(format!("{name} would remove only the stone placed")),
            Verdict::Legal => None,
        }
    }
}

impl<const N: usize> Kit for Prison<N> {
    const FORMS: &'static [Form] = &[Form::Place, Form::Pair, Form::Komi, Form::Word("swap"), Form::Word("keep"),
                                     Form::Word("release"), Form::Word("propose"), Form::Word("accept"),
                                     Form::Word("decline")];
    fn geo_(&self) -> &'static Hexagon {
        self.geo()
    }
    fn end(&self) -> Option<Outcome> {
        Prison::outcome(self).map(|o| Outcome {
            winner: o.winner,
            margin2: (o.termination == Termination::Agreement).then_some(o.margin2),
        })
    }
    fn all(&self, cap: usize, out: &mut Vec<ap::Action>) -> bool {
        self.actions(cap, out)
    }
    fn cells(&self) -> Vec<Site> {
        bb_sites(Prison::legal_cells(self))
    }
    fn inner(&self, a: &Action) -> Option<ap::Action> {
        Some(match *a {
            Action::Place(s) => ap::Action::Place(s),
            Action::Pair(a, b) => ap::Action::Pair(a, b),
            Action::Komi(k) => ap::Action::Komi(u16::try_from(k).ok()?),
            Action::Swap => ap::Action::Swap,
            Action::Keep => ap::Action::Keep,
            Action::Release => ap::Action::Release,
            Action::Propose => ap::Action::Propose,
            Action::Accept => ap::Action::Accept,
            Action::Decline => ap::Action::Decline,
            _ => return None,
        })
    }
    fn outer(&self, a: ap::Action) -> Action {
        match a {
            ap::Action::Place(s) => Action::Place(s),
            ap::Action::Pair(a, b) => Action::Pair(a, b),
            ap::Action::Komi(k) => Action::Komi(u32::from(k)),
            ap::Action::Swap => Action::Swap,
            ap::Action::Keep => Action::Keep,
            ap::Action::Release => Action::Release,
            ap::Action::Propose => Action::Propose,
            ap::Action::Accept => Action::Accept,
            ap::Action::Decline => Action::Decline,
        }
    }
    fn random_(&self, rng: &mut Rng) -> Option<ap::Action> {
        // the rules' own (the search's stops at its ply cap, 10 x sites)
        Prison::random_action(self, rng)
    }
    fn run(&mut self, cap: u32, rng: &mut Rng) -> u32 {
        let (end, _, swaps) = Prison::playout(self, cap, rng);
        *self = end;
        swaps
    }
    fn describe_(&self, pos: &mut Position) {
        stones(pos, self.board.st, |_| 1);
        let f = &self.f;
        let bits = |b: [bool; 2]| u8::from(b[0]) | u8::from(b[1]) << 1;
        pos.set("phase", self.phase_word());
        pos.set("komi", f.komi.to_string());
        pos.set("prison", self.key_("prison").unwrap_or_default());
        pos.set("first", colours_text(bits(f.first)));
        pos.set("annihilated", colours_text(bits(f.annihilated)));
        pos.set("last", f.last.map_or("-", |c| if c == 0 { "b" } else { "w" }));
        pos.set("ply", f.ply.to_string());
    }
    fn phase_word(&self) -> &'static str {
        self.f.phase.word()
    }
    fn key_(&self, name: &str) -> Option<String> {
        (name == "prison").then(|| format!("{},{}", self.f.prison[0], self.f.prison[1]))
    }
    fn glance_(&self, now: &mut [u32]) {
        fill(now, self.board.st, |_| 1);
    }
}

impl<const N: usize> Kit for search::spelde::Game<N> {
    const FORMS: &'static [Form] = &[Form::Place, Form::Flip, Form::Word("swap")];
    fn geo_(&self) -> &'static Hexagon {
        self.g.geo
    }
    fn end(&self) -> Option<Outcome> {
        (self.g.phase != SPhase::Swap && search::spelde::Game::cells(self).is_zero()).then(|| win(Some(1 - self.g.to_move)))
    }
    fn all(&self, cap: usize, out: &mut Vec<SAction<N>>) -> bool {
        SearchGame::list(self, cap, out)
    }
    fn cells(&self) -> Vec<Site> {
        bb_sites(search::spelde::Game::cells(self))
    }
    fn inner(&self, a: &Action) -> Option<SAction<N>> {
        Some(match a {
            Action::Place(s) => SAction::Place(usize::from(*s), Bb::ZERO),
            Action::Flip(s, f) => SAction::Place(usize::from(*s), sites_bb(self.g.geo, f)?),
            Action::Swap => SAction::Swap,
            _ => return None,
        })
    }
    fn outer(&self, a: SAction<N>) -> Action {
        match a {
            SAction::Swap => Action::Swap,
            SAction::Place(c, f) if f.is_zero() => Action::Place(c as Site),
            SAction::Place(c, f) => Action::Flip(c as Site, sorted(self.g.geo, bb_sites(f))),
        }
    }
    fn run(&mut self, cap: u32, rng: &mut Rng) -> u32 {
        let mut g = self.g.clone();
        let (_, swaps) = g.playout(cap, rng);
        *self = search::spelde::Game::new(g);
        self.cap = u32::MAX;
        swaps
    }
    fn describe_(&self, pos: &mut Position) {
        stones(pos, self.g.st, |_| 1);
        pos.set("phase", self.phase_word());
        pos.set("ply", self.g.ply.to_string());
    }
    fn phase_word(&self) -> &'static str {
        ["open", "swap", "play"][self.g.phase as usize]
    }
    fn glance_(&self, now: &mut [u32]) {
        fill(now, self.g.st, |_| 1);
    }
}

impl<const N: usize> Kit for search::vaxandis::Game<N> {
    const FORMS: &'static [Form] = &[Form::Place, Form::Move, Form::Word("swap")];
    fn geo_(&self) -> &'static Hexagon {
        self.g.geo
    }
    fn end(&self) -> Option<Outcome> {
        self.g.winner().map(|w| win(Some(w)))
    }
    fn all(&self, cap: usize, out: &mut Vec<VAction>) -> bool {
        SearchGame::list(self, cap, out)
    }
    fn cells(&self) -> Vec<Site> {
        bb_sites(self.g.cells())
    }
    fn inner(&self, a: &Action) -> Option<VAction> {
        Some(match *a {
            Action::Place(s) => VAction::Place(s),
            Action::Move(a, b) => VAction::Move(a, b),
            Action::Swap => VAction::Swap,
            _ => return None,
        })
    }
    fn outer(&self, a: VAction) -> Action {
        match a {
            VAction::Place(s) => Action::Place(s),
            VAction::Move(a, b) => Action::Move(a, b),
            VAction::Swap => Action::Swap,
        }
    }
    fn run(&mut self, cap: u32, rng: &mut Rng) -> u32 {
        self.g.playout(cap, rng).1
    }
    fn describe_(&self, pos: &mut Position) {
        stones(pos, self.g.st, |s| self.g.height[s]);
        pos.set("phase", self.phase_word());
        pos.set("ply", self.g.ply.to_string());
    }
    fn phase_word(&self) -> &'static str {
        ["open", "swap", "play"][self.g.phase as usize]
    }
    fn glance_(&self, now: &mut [u32]) {
        fill(now, self.g.st, |s| self.g.height[s]);
    }
}

impl<const N: usize> Kit for search::marbanta::Game<N> {
    const FORMS: &'static [Form] = &[Form::Place, Form::Group, Form::Pie, Form::Word("swap"), Form::Word("keep")];
    fn geo_(&self) -> &'static Hexagon {
        self.g.geo
    }
    fn end(&self) -> Option<Outcome> {
        (self.g.phase != MPhase::Swap && !self.g.has_turn()).then(|| win(Some(self.g.to_move)))
    }
    fn all(&self, cap: usize, out: &mut Vec<Played<N>>) -> bool {
        SearchGame::list(self, cap, out)
    }
    fn cells(&self) -> Vec<Site> {
        if self.g.phase != MPhase::Play {
            return Vec::new();
        }
        self.g.roots().into_iter().map(|(s, _)| s as Site).collect()
    }
    fn inner(&self, a: &Action) -> Option<Played<N>> {
        let geo = self.g.geo;
        Some(match a {
            Action::Place(s) => Played::Group(usize::from(*s), sites_bb(geo, &[*s])?),
            Action::Group(r, o) => {
                let mut all = o.clone();
                all.push(*r);
                Played::Group(usize::from(*r), sites_bb(geo, &all)?)
            }
            Action::Pie(b, w) => Played::Pie(usize::from(*b), usize::from(*w)),
            Action::Swap => Played::Swap(true),
            Action::Keep => Played::Swap(false),
            _ => return None,
        })
    }
    fn outer(&self, a: Played<N>) -> Action {
        match a {
            Played::Pie(b, w) => Action::Pie(b as Site, w as Site),
            Played::Swap(true) => Action::Swap,
            Played::Swap(false) => Action::Keep,
            Played::Group(r, g) if g == Bb::bit(r) => Action::Place(r as Site),
            Played::Group(r, g) => {
                let others = bb_sites(g).into_iter().filter(|&s| usize::from(s) != r).collect();
                Action::Group(r as Site, sorted(self.g.geo, others))
            }
        }
    }
    fn run(&mut self, cap: u32, rng: &mut Rng) -> u32 {
        let mut g = self.g.clone();
        let (_, swaps) = g.playout(cap, rng);
        *self = search::marbanta::Game::new(g);
        self.cap = u32::MAX;
        swaps
    }
    fn describe_(&self, pos: &mut Position) {
        stones(pos, self.g.st, |_| 1);
        pos.set("phase", self.phase_word());
        pos.set("ply", self.g.ply.to_string());
    }
    fn phase_word(&self) -> &'static str {
        ["pie", "swap", "play"][self.g.phase as usize]
    }
    fn glance_(&self, now: &mut [u32]) {
        fill(now, self.g.st, |_| 1);
    }
}

fn phase_index(spec: &Spec, pos: &Position) -> u8 {
    spec.phases.iter().position(|p| *p == pos.key("phase")).unwrap_or(0) as u8
}

fn colour_bits<const N: usize>(geo: &Hexagon, pos: &Position) -> [Bb<N>; 2] {
    let mut st = [Bb::<N>::ZERO; 2];
    for &(s, c, _) in &pos.stacks {
        if geo.is_site(usize::from(s)) {
            st[c].set(usize::from(s));
        }
    }
    st
}

fn num(pos: &Position, key: &str) -> u32 {
    pos.key(key).parse().unwrap_or(0)
}

fn build<const N: usize>(geo: &'static Hexagon, pos: &Position) -> Result<Box<dyn Rules>, Error> {
    let st = colour_bits::<N>(geo, pos);
    let to_move = pos.to_move;
    let ply = num(pos, "ply");
    let invalid = |e: input::InputError| Error::InvalidPosition(e.0);
    Ok(match pos.game.as_str() {
        "anda" => {
            let phase = [APhase::Offer, APhase::Answer, APhase::Play][phase_index(&ANDA, pos) as usize];
            let first = colours(pos.key("first"));
            Box::new(Anda::<N>::new(geo, pos.key("opening") == "cells", st[0], st[1], to_move, ply, num(pos, "komi"),
                                    [first & 1 == 1, first & 2 == 2], phase))
        }
        "anda-prison" => {
            let (pb, pw) = pos.key("prison").split_once(',').unwrap_or(("0", "0"));
            let last = match pos.key("last") {
                "b" => 0,
                "w" => 1,
                _ => -1,
            };
            let f = (to_move, ply, phase_index(&PRISON, pos), colours(pos.key("first")), pb.parse().unwrap_or(0),
                     pw.parse().unwrap_or(0), colours(pos.key("annihilated")), num(pos, "komi"), last);
            Box::new(Prison::<N>::new(geo, st, input::prison_fields(f).map_err(invalid)?))
        }
        "spelde" => {
            let rule = match pos.key("flips") {
                "literal" => Rule::Literal,
                "dense" => Rule::Dense,
                _ => Rule::Standard,
            };
            let phase = [SPhase::Open, SPhase::Swap, SPhase::Play][phase_index(&SPELDE, pos) as usize];
            let mut g = search::spelde::Game::new(Spelde { geo, rule, st, to_move, ply, phase });
            g.cap = u32::MAX;
            Box::new(g)
        }
        "vaxandis" => {
            let mut height = vec![0; geo.bits()];
            for &(s, _, h) in &pos.stacks {
                height[usize::from(s)] = h;
            }
            let phase = [VPhase::Open, VPhase::Swap, VPhase::Play][phase_index(&VAXANDIS, pos) as usize];
            let v = crate::vaxandis::Vaxandis {
                geo, freeze_group: pos.key("freeze") == "group", touch_path: pos.key("touch") == "path", st, height,
                to_move, ply, phase,
            };
            let mut g = search::vaxandis::Game::new(v);
            g.cap = u32::MAX;
            Box::new(g)
        }
        _ => {
            let phase = [MPhase::Pie, MPhase::Swap, MPhase::Play][phase_index(&MARBANTA, pos) as usize];
            let mut g = search::marbanta::Game::new(Marbanta::new(geo, pos.key("variant") == "pie", st, to_move, ply,
                                                                  phase));
            g.cap = u32::MAX;
            Box::new(g)
        }
    })
}

/// The rules' state a well-formed position describes, taken as written.
pub(crate) fn from_position(pos: &Position) -> Result<Box<dyn Rules>, Error> {
    let geo = input::board(pos.size).map_err(|e| Error::InvalidPosition(e.0))?;
    by_size!(pos.size, N => build::<N>(geo, pos))
}
