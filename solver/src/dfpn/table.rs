//! The transposition table: fixed size, keyed by (board key, attacker hand), with hand
//! superiority.
//!
//! Entries live in clusters of [`CLUSTER`] slots chosen by the board key, so every entry of
//! one board position is in one cluster and a probe can compare hands:
//! - a *proven* entry stores the proof hand `P` and the mate length `len`: the position is
//!   mate within `len` plies for every attacker hand `⊇ P`;
//! - a *disproven* entry stores the disproof hand `D` and a bound: no mate within `bound`
//!   plies ([`NO_MATE`] = none at all) for every attacker hand `⊆ D`;
//! - an *unknown* entry stores the proof and disproof numbers for exactly its hand and its
//!   remaining length (numbers from another length would feed back into each other).
//!
//! When a cluster is full the entry with the least work (`amount`) is replaced, final
//! results being worth more; so memory is bounded by the size asked for. A replaced result
//! is only found again by searching, which changes the time, never the answer.
//!
//! A large table starts on the first 16 MiB of its clusters and doubles the clusters in use
//! whenever they are half full, moving each entry to the cluster its key then chooses: a
//! search that fills a small part of a large `--hash` touches only that part's memory
//! (fewer pages to fault in, fewer cache and TLB misses), and one that needs all of it gets
//! all of it. The pages of the next doubling are faulted in ahead, on a thread of their own
//! (`Table::fault_in_ahead`), so that the search does not wait for the system to zero
//! them. The pages are ordinary ones: transparent huge pages saved a few per cent of the
//! search's time in TLB misses, but on a virtual machine whose host backs memory lazily
//! each fresh 2 MiB page cost milliseconds to fault in, 3–5 s of system time on 寿, which
//! two search threads then had to share their cores with (benches/RESULTS.md §57b).
//!
//! Every entry carries the table's generation: [`Table::clear`] starts a new one, and an
//! entry of an older generation is an empty slot. Clearing is then free, so a caller that
//! solves many small problems (the generator, `tsume verify`) keeps one table instead of
//! zeroing megabytes for each problem.
//!
//! An entry's last word also holds a tag of its key (the key's top 16 bits), next
//! to the generation: a probe or a store reads that word first and passes over the slots
//! of other keys and other generations without checking their key (a hash of all four
//! words, below), which most slots of a cluster are.
//!
//! # Shared by threads
//!
//! A table is probed and written through `&self` by every thread of a parallel search, with
//! no lock: each entry is four atomic words written and read one by one (relaxed), so a
//! reader may see an entry half-written by another thread (*torn*), and two writers may
//! race for a slot. The first word holds the key XORed with a hash of the other three
//! (`checked_key`): a torn entry's words do not hash to their key, so it reads as some
//! other position's entry and is ignored; it passes only when the hash of mixed words
//! happens to equal, as rarely as two positions' 64-bit keys collide, which every table
//! keyed by Zobrist hashes accepts already. What a race can do, then, is lose an entry (a
//! slot overwritten, or cleared as redundant, by another thread's store), which costs a
//! search, never an answer:
//! - a *proven* or *disproven* entry read intact is a proof or disproof some thread made,
//!   and holds whatever else the table holds;
//! - an *unknown* entry is only an estimate: one from a racing thread steers the search,
//!   and cannot make it prove or disprove anything;
//! - the fill rate ([`Table::hashfull`]) is sampled from the slots, not counted, so no
//!   counter is shared between threads;
//! - while one thread moves the entries of a growing table, the others may miss an entry
//!   not yet moved, or store one where it is not found again: a lost entry again.

use std::sync::atomic::{
    AtomicBool, AtomicU64, AtomicUsize,
    Ordering::{Acquire, Relaxed, Release},
};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::hand::Hand;
use crate::moves::Move;

/// Proof/disproof numbers at or above this are infinite.
pub const INF: u32 = u32::MAX / 2;
/// A length bound meaning "no mate at any length".
pub const NO_MATE: u16 = u16::MAX;

/// Slots per cluster: the entries one board key may occupy (see the module doc).
pub const CLUSTER: usize = 8;

/// The cluster of a key is chosen by bits `CLUSTER_SHIFT ..` of the key times an odd
/// constant, and a table has at most `1 << MAX_CLUSTER_BITS` clusters (32 TiB).
const CLUSTER_SHIFT: u32 = 20;
const MAX_CLUSTER_BITS: u32 = 37;

/// Key bits from this one up choose no cluster in any table: the low bits of a product
/// depend only on the low bits of its factors. A salt made of such bits alone keeps the
/// entries of one position in two games in one cluster, so a search that reads the other
/// game's entry of the position it just probed finds it in the cache lines already loaded.
pub(crate) const CLUSTER_FREE_BITS: u32 = CLUSTER_SHIFT + MAX_CLUSTER_BITS;

/// The state of a node's proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Neither proven nor disproven yet (both numbers non-zero).
    Unknown,
    /// Mate (proof number 0).
    Proven,
    /// No mate, within the length bound (disproof number 0).
    Disproven,
}

impl Kind {
    /// The state a pair of proof and disproof numbers stands for.
    #[inline]
    pub fn of(pn: u32, dn: u32) -> Kind {
        if pn == 0 {
            Kind::Proven
        } else if dn == 0 {
            Kind::Disproven
        } else {
            Kind::Unknown
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    hand: Hand,
    pn: u32,
    dn: u32,
    /// Proven: mate length. Disproven: no mate within this many plies. Unknown: the
    /// remaining length it was searched with.
    len: u16,
    best: u16,
    /// Work spent below this entry; 0 marks an empty slot.
    amount: u32,
    /// The table's generation when the entry was written (see [`Table::clear`]).
    generation: u16,
}

/// The tag of a key kept in its entry's last word, next to the generation (see the module
/// doc): the key's top bits, which include the salts of the games that share a table
/// ([`CLUSTER_FREE_BITS`]), so one position's entries in two games have different tags.
#[inline]
fn tag_of(key: u64) -> u16 {
    (key >> 48) as u16
}

/// What the top half of the last word of a live entry of `key` holds in generation
/// `generation` (see [`Entry::pack`]).
#[inline]
fn meta_of(key: u64, generation: u16) -> u32 {
    generation as u32 | (tag_of(key) as u32) << 16
}

/// The first word of an entry: its key bound to the other three words by a hash of them,
/// so that words from two different writes (a torn entry) do not pass for an entry of the
/// key (see the module doc). An empty slot (all zero) has key `checked_key(0, [0; 3])`,
/// but no `amount`, which marks it empty.
#[inline]
fn checked_key(key: u64, w: [u64; 3]) -> u64 {
    const M: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = w[0].wrapping_mul(M);
    h = (h ^ (h >> 29) ^ w[1]).wrapping_mul(M);
    h = (h ^ (h >> 29) ^ w[2]).wrapping_mul(M);
    key ^ h ^ (h >> 32)
}

impl Entry {
    /// Four words: the checked key (see [`checked_key`]); hand | pn << 32; dn | len << 32 |
    /// best << 48; amount | generation << 32 | the key's tag << 48 (see [`meta_of`]).
    #[inline]
    fn pack(&self) -> [u64; 4] {
        let data = [
            self.hand.raw() as u64 | (self.pn as u64) << 32,
            self.dn as u64 | (self.len as u64) << 32 | (self.best as u64) << 48,
            self.amount as u64 | (meta_of(self.key, self.generation) as u64) << 32,
        ];
        [checked_key(self.key, data), data[0], data[1], data[2]]
    }

    /// The entry whose words these are; a torn entry comes out with a key of no position.
    #[inline]
    fn unpack(w: [u64; 4]) -> Entry {
        Entry {
            key: checked_key(w[0], [w[1], w[2], w[3]]),
            hand: Hand::from_raw(w[1] as u32),
            pn: (w[1] >> 32) as u32,
            dn: w[2] as u32,
            len: (w[2] >> 32) as u16,
            best: (w[2] >> 48) as u16,
            amount: w[3] as u32,
            generation: (w[3] >> 32) as u16,
        }
    }

    #[inline]
    fn kind(&self) -> Kind {
        Kind::of(self.pn, self.dn)
    }
}

/// What the table knows about a position with a given hand and remaining length.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// Proof number: 0 proven, [`INF`] disproven; unknown, the largest of the unknown
    /// entries for the same length with this or a stronger hand (holding less is at least
    /// as hard to prove), 1 when none.
    pub pn: u32,
    /// Disproof number: 0 disproven, [`INF`] proven; unknown, the largest of the unknown
    /// entries for the same length with this or a weaker hand, 1 when none.
    pub dn: u32,
    /// Proven: mate length; disproven: the bound; unknown: 0.
    pub len: u16,
    /// Proof hand (proven) or disproof hand (disproven).
    pub hand: Hand,
    /// The best move stored with the entry used (a proof, a disproof, or the unknown entry
    /// of this very hand), when any.
    pub best: Option<Move>,
    /// Whether the table had anything for this exact position (final or unknown).
    pub found: bool,
}

impl Probe {
    /// Proven, disproven or still unknown.
    #[inline]
    pub fn kind(&self) -> Kind {
        Kind::of(self.pn, self.dn)
    }
}

/// A transposition table that could not be allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableAllocError {
    /// The size asked for, in MiB.
    pub megabytes: usize,
}

impl std::fmt::Display for TableAllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate a transposition table of {} MiB: not enough memory (a smaller --hash / USI_Hash may fit)",
            self.megabytes
        )
    }
}

impl std::error::Error for TableAllocError {}

/// See the module doc: a fixed-size table of entries with hand superiority, shared by the
/// threads of a search.
pub struct Table {
    /// Entries packed as four words each (see [`Entry::pack`]): a zeroed buffer is
    /// allocated lazily by the OS, so a large table costs nothing until it is used.
    slots: Arc<Slots>,
    /// The thread faulting in the clusters of the next doubling, if one was started (see
    /// [`Table::fault_in_ahead`]).
    fault_in: Mutex<Option<FaultIn>>,
    /// The clusters allocated, less one (a power of two less one).
    mask: usize,
    /// The clusters in use, less one: the table starts on [`FIRST_IN_USE_BYTES`] and
    /// doubles while it fills (see [`Table::grow_when_full`]).
    in_use: AtomicUsize,
    /// Set while one thread doubles the clusters in use.
    growing: AtomicBool,
    /// Entries of other generations are empty slots.
    generation: u16,
    /// The clusters ever in use, less one, since the slots were last zeroed: those a wrap of
    /// the generation zeroes (see [`Table::clear`]).
    high_water: AtomicUsize,
}

impl Table {
    /// A table using at most `megabytes` MiB (at least one cluster).
    ///
    /// Panics when the memory cannot be had; [`Table::try_new`] reports it instead.
    pub fn new(megabytes: usize) -> Table {
        Table::try_new(megabytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Table::new`], or an error when the memory cannot be allocated (a `--hash` larger
    /// than the machine or the address-space limit), instead of an abort.
    pub fn try_new(megabytes: usize) -> Result<Table, TableAllocError> {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let clusters = (bytes / (CLUSTER * std::mem::size_of::<Entry>())).max(1);
        let clusters = (1usize << (usize::BITS - 1 - clusters.leading_zeros()))
            .min(1 << MAX_CLUSTER_BITS.min(usize::BITS - 1));
        let len = clusters * CLUSTER;
        // The zeroed buffer below comes from the allocator's zeroed path (pages the OS
        // zeroes on first touch), which has no fallible form: reserve the same size
        // fallibly first, so that a refusal is an error here rather than an abort there.
        let mut probe: Vec<u64> = Vec::new();
        probe
            .try_reserve_exact(4 * len + ALIGNMENT_WORDS)
            .map_err(|_| TableAllocError { megabytes })?;
        drop(probe);
        let slots = zeroed_atomic_slots(len);
        let mask = clusters - 1;
        Ok(Table {
            slots: Arc::new(slots),
            fault_in: Mutex::new(None),
            mask,
            in_use: AtomicUsize::new(first_in_use(mask)),
            growing: AtomicBool::new(false),
            generation: 0,
            high_water: AtomicUsize::new(first_in_use(mask)),
        })
    }

    /// Forgets every entry, in constant time: a new generation starts (the memory is only
    /// zeroed when the generation counter wraps, once in 65,536 clears, and only the
    /// clusters ever in use since the last time: a table that small searches keep on its
    /// first clusters does not fault in the rest).
    pub fn clear(&mut self) {
        match self.generation.checked_add(1) {
            Some(g) => self.generation = g,
            None => {
                let used = (*self.high_water.get_mut() + 1) * CLUSTER;
                self.zero_slots(used);
                self.generation = 0;
                *self.high_water.get_mut() = first_in_use(self.mask);
            }
        }
        *self.in_use.get_mut() = first_in_use(self.mask);
    }

    /// Writes every slot once (empty), so that no later probe or store pays for the first
    /// touch of a page: for timing harnesses that must not count the table's memory being
    /// faulted in ([`Table::clear`] no longer touches it).
    pub fn fault_in(&mut self) {
        self.zero_slots(self.slots.len());
    }

    /// Writes the first `n` slots empty.
    fn zero_slots(&mut self, n: usize) {
        self.join_fault_in();
        for slot in &self.slots[..n] {
            for word in slot {
                word.store(0, Relaxed);
            }
        }
    }

    /// Stops the thread of [`Table::fault_in_ahead`], if one runs, and waits for it.
    fn join_fault_in(&self) {
        let current = self
            .fault_in
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(current) = current {
            current.stop_and_join();
        }
    }

    /// Faults in, on a thread of its own, the pages of the clusters that the next doubling
    /// of `in_use` clusters (less one) will move entries to, once per `in_use`.
    ///
    /// The system zeroes a page at its first write, which the search would otherwise wait
    /// for as the table grows (with huge pages, 8 % of 寿's solve: benches/RESULTS.md §47c;
    /// without them, two searching threads faulting pages in spent 1.9–3.7 s in the kernel,
    /// §57c). Started when the clusters in use are [`FAULT_IN_FILL_PER_MILLE`] full, the
    /// zeroing runs beside the search, and mostly on memory that the table is about to
    /// use. Where no thread can be started, the search faults the pages in itself, as
    /// before.
    fn fault_in_ahead(&self, in_use: usize) {
        let clusters = in_use + 1..(2 * (in_use + 1)).min(self.mask + 1);
        if clusters.is_empty() {
            return;
        }
        let mut current = self.fault_in.lock().unwrap_or_else(|e| e.into_inner());
        if current.as_ref().is_some_and(|f| f.in_use == in_use) {
            return;
        }
        if let Some(earlier) = current.take() {
            // Its clusters are in use now: the search faults in what is left of them.
            earlier.stop_and_join();
        }
        let slots = Arc::clone(&self.slots);
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("tsume-table-fault-in".into())
            .spawn(move || fault_in(&slots, clusters, &stopped));
        if let Ok(thread) = thread {
            *current = Some(FaultIn {
                in_use,
                stop,
                thread,
            });
        }
    }

    /// Bytes allocated.
    pub fn size_bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<[u64; 4]>()
    }

    /// Fill rate of the whole table in per mille (as USI `hashfull`): that of the clusters
    /// in use, sampled from the first 8,192 slots (entries are spread evenly over them by
    /// their keys), times the share of the clusters in use.
    pub fn hashfull(&self) -> usize {
        // Both counts are powers of two: the ratio is exact.
        let in_use = self.in_use.load(Relaxed) + 1;
        self.in_use_fill() / ((self.mask + 1) / in_use)
    }

    /// Fill rate of the clusters in use in per mille, sampled as [`Table::hashfull`].
    fn in_use_fill(&self) -> usize {
        let sample = self.slots.len().min(HASHFULL_SAMPLE);
        let live = (0..sample).filter(|&i| self.is_live_slot(i)).count();
        live * 1000 / sample
    }

    /// Doubles the clusters in use when their sampled fill has reached
    /// [`GROWTH_FILL_PER_MILLE`] and the table has clusters left: each entry of cluster `i`
    /// whose key now chooses cluster `i + n` (`n` clusters were in use) moves there. A
    /// search only ever touches the pages of the clusters in use, so a large `--hash` costs
    /// a search that fills little of it no more memory to fault in, and no more cache and
    /// TLB misses, than a small one (benches/RESULTS.md §37a).
    ///
    /// Other threads may probe and store while the entries move: a probe that misses an
    /// entry not yet moved, or a store made with the old number of clusters in use that is
    /// never found again, loses a result, which costs a search and never an answer (as a
    /// replaced entry; see the module doc). One thread moves the entries at a time.
    fn grow_when_full(&self) {
        let in_use = self.in_use.load(Relaxed);
        if in_use == self.mask {
            return;
        }
        let fill = self.in_use_fill();
        if fill >= FAULT_IN_FILL_PER_MILLE {
            self.fault_in_ahead(in_use);
        }
        if fill < GROWTH_FILL_PER_MILLE {
            return;
        }
        // Acquire and Release on the flag: whoever takes it next sees this thread's moves
        // and its `in_use`, so two doublings never overlap; one that another thread made
        // since the fill was sampled is not made again.
        if self
            .growing
            .compare_exchange(false, true, Acquire, Relaxed)
            .is_err()
        {
            return;
        }
        if self.in_use.load(Relaxed) == in_use {
            let n = in_use + 1;
            let wider = 2 * n - 1;
            // Published first, so that the other threads' new entries go where they will
            // be found; until an entry has moved, they miss it.
            self.in_use.store(wider, Relaxed);
            self.high_water.fetch_max(wider, Relaxed);
            for i in 0..n {
                for j in i * CLUSTER..(i + 1) * CLUSTER {
                    if !self.is_live_slot(j) {
                        continue;
                    }
                    let e = self.entry(j);
                    let to = cluster_index(e.key, wider);
                    if to == i {
                        continue;
                    }
                    // An entry that belongs in neither cluster (stored by another thread with
                    // an older number of clusters in use, or torn) is dropped. The new cluster
                    // was out of use in this generation: it has room for every entry that
                    // moves there, unless other threads filled it since.
                    if to == i + n {
                        let mut new_slots = to * CLUSTER..(to + 1) * CLUSTER;
                        if let Some(free) = new_slots.find(|&f| !self.is_live_slot(f)) {
                            self.set_entry(free, e);
                        }
                    }
                    self.set_entry(j, Entry::default());
                }
            }
        }
        self.growing.store(false, Release);
    }

    #[inline]
    fn entry(&self, i: usize) -> Entry {
        let s = &self.slots[i];
        Entry::unpack([
            s[0].load(Relaxed),
            s[1].load(Relaxed),
            s[2].load(Relaxed),
            s[3].load(Relaxed),
        ])
    }

    /// The entry in slot `i` when its last word, already read as `last`, is that of a live
    /// entry of `key` (tag and generation; see [`meta_of`]) and its words check as `key`'s.
    #[inline]
    fn entry_of(&self, i: usize, key: u64, last: u64) -> Option<Entry> {
        if (last >> 32) as u32 != meta_of(key, self.generation) || last as u32 == 0 {
            return None;
        }
        let s = &self.slots[i];
        let e = Entry::unpack([
            s[0].load(Relaxed),
            s[1].load(Relaxed),
            s[2].load(Relaxed),
            last,
        ]);
        (e.key == key).then_some(e)
    }

    /// The last word of slot `i` (amount, generation and tag).
    #[inline]
    fn last_word(&self, i: usize) -> u64 {
        self.slots[i][3].load(Relaxed)
    }

    /// Whether a last word is that of an entry of this generation (not an empty slot).
    #[inline]
    fn is_live_word(&self, last: u64) -> bool {
        last as u32 != 0 && (last >> 32) as u16 == self.generation
    }

    /// How much keeping the entry in slot `i` (last word `last`) is worth, for replacement:
    /// its work, final results counting more. Read without checking its key (a torn entry's
    /// value only steers the replacement).
    #[inline]
    fn slot_value(&self, i: usize, last: u64) -> u64 {
        let s = &self.slots[i];
        let pn = (s[1].load(Relaxed) >> 32) as u32;
        let dn = s[2].load(Relaxed) as u32;
        let bonus = if Kind::of(pn, dn) == Kind::Unknown {
            1
        } else {
            4
        };
        (last as u32) as u64 * bonus
    }

    /// Whether slot `i` holds an entry of this generation.
    #[inline]
    fn is_live_slot(&self, i: usize) -> bool {
        self.is_live_word(self.last_word(i))
    }

    #[inline]
    fn set_entry(&self, i: usize, e: Entry) {
        let s = &self.slots[i];
        for (word, value) in s.iter().zip(e.pack()) {
            word.store(value, Relaxed);
        }
    }

    #[inline]
    fn cluster(&self, key: u64) -> std::ops::Range<usize> {
        let i = cluster_index(key, self.in_use.load(Relaxed));
        i * CLUSTER..(i + 1) * CLUSTER
    }

    /// Asks the CPU to start loading the cluster of `key`, so that a [`Table::probe`] of it
    /// a little later does not wait for memory: a node probes all its children, and the
    /// loads overlap when they are requested first.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let start = self.cluster(key).start;
        let lines = &self.slots[start..start + CLUSTER];
        for line in lines.chunks(2) {
            prefetch_line(line.as_ptr());
        }
    }

    /// Looks up `key` with attacker hand `hand`, for a search allowed `remaining` plies.
    pub fn probe(&self, key: u64, hand: Hand, remaining: u16) -> Probe {
        let mut out = Probe {
            pn: 1,
            dn: 1,
            len: 0,
            hand,
            best: None,
            found: false,
        };
        let mut proven: Option<Entry> = None;
        for i in self.cluster(key) {
            let Some(e) = &self.entry_of(i, key, self.last_word(i)) else {
                continue;
            };
            match e.kind() {
                Kind::Proven => {
                    if hand.is_superset_of(e.hand)
                        && e.len <= remaining
                        && proven.is_none_or(|p| e.len < p.len)
                    {
                        proven = Some(*e);
                    }
                }
                Kind::Disproven => {
                    if e.hand.is_superset_of(hand) && e.len >= remaining {
                        return Probe {
                            pn: INF,
                            dn: 0,
                            len: e.len,
                            hand: e.hand,
                            best: Some(Move::from_raw(e.best)),
                            found: true,
                        };
                    }
                }
                Kind::Unknown if e.len == remaining => {
                    if e.hand == hand {
                        out.pn = out.pn.max(e.pn);
                        out.dn = out.dn.max(e.dn);
                        out.best = Some(Move::from_raw(e.best));
                        out.found = true;
                    } else if hand.is_superset_of(e.hand) {
                        // We hold more: at least as hard to disprove.
                        out.dn = out.dn.max(e.dn);
                    } else if e.hand.is_superset_of(hand) {
                        // We hold less: at least as hard to prove.
                        out.pn = out.pn.max(e.pn);
                    }
                }
                Kind::Unknown => {}
            }
        }
        if let Some(e) = proven {
            return Probe {
                pn: 0,
                dn: INF,
                len: e.len,
                hand: e.hand,
                best: Some(Move::from_raw(e.best)),
                found: true,
            };
        }
        out
    }

    /// Stores an unknown result for exactly (`key`, `hand`, `remaining`).
    #[allow(clippy::too_many_arguments)]
    pub fn store_unknown(
        &self,
        key: u64,
        hand: Hand,
        remaining: u16,
        pn: u32,
        dn: u32,
        best: Option<Move>,
        amount: u32,
    ) {
        debug_assert!(pn > 0 && dn > 0 && pn < INF && dn < INF);
        let e = Entry {
            key,
            hand,
            pn,
            dn,
            len: remaining,
            best: best.map_or(0, Move::raw),
            amount: amount.max(1),
            generation: self.generation,
        };
        self.store(e, |old| {
            old.kind() == Kind::Unknown && old.hand == hand && old.len == remaining
        });
    }

    /// Stores a proof: mate within `len` plies for every hand ⊇ `proof_hand`.
    pub fn store_proven(
        &self,
        key: u64,
        proof_hand: Hand,
        len: u16,
        best: Option<Move>,
        amount: u32,
    ) {
        let e = Entry {
            key,
            hand: proof_hand,
            pn: 0,
            dn: INF,
            len,
            best: best.map_or(0, Move::raw),
            amount: amount.max(1),
            generation: self.generation,
        };
        // The new proof makes these redundant: unknown entries it covers, and proofs that are
        // no shorter and need at least as much.
        self.store(e, |old| match old.kind() {
            Kind::Unknown => old.hand.is_superset_of(proof_hand) && old.len >= len,
            Kind::Proven => old.hand.is_superset_of(proof_hand) && old.len >= len,
            Kind::Disproven => false,
        });
    }

    /// Stores a disproof: no mate within `bound` plies for every hand ⊆ `disproof_hand`.
    pub fn store_disproven(&self, key: u64, disproof_hand: Hand, bound: u16, amount: u32) {
        let e = Entry {
            key,
            hand: disproof_hand,
            pn: INF,
            dn: 0,
            len: bound,
            best: 0,
            amount: amount.max(1),
            generation: self.generation,
        };
        self.store(e, |old| match old.kind() {
            Kind::Unknown => disproof_hand.is_superset_of(old.hand) && old.len <= bound,
            Kind::Disproven => disproof_hand.is_superset_of(old.hand) && old.len <= bound,
            Kind::Proven => false,
        });
    }

    /// Writes `new` over the first entry of its key that `replaces` accepts (clearing any
    /// further ones), else into an empty slot, else over the least valuable entry.
    fn store(&self, new: Entry, replaces: impl Fn(&Entry) -> bool) {
        let range = self.cluster(new.key);
        let mut target: Option<usize> = None;
        let mut empty: Option<usize> = None;
        let mut weakest: Option<(u64, usize)> = None;
        for i in range {
            let last = self.last_word(i);
            if !self.is_live_word(last) {
                empty.get_or_insert(i);
                continue;
            }
            if self
                .entry_of(i, new.key, last)
                .is_some_and(|e| replaces(&e))
            {
                if target.is_none() {
                    target = Some(i);
                } else {
                    self.set_entry(i, Entry::default());
                    empty.get_or_insert(i);
                }
                continue;
            }
            let value = self.slot_value(i, last);
            if weakest.is_none_or(|(v, _)| value < v) {
                weakest = Some((value, i));
            }
        }
        let slot = match (target, empty) {
            (Some(i), _) => i,
            (None, Some(i)) => i,
            (None, None) => weakest.expect("a full cluster has a weakest entry").1,
        };
        let mut new = new;
        if target.is_some() {
            new.amount = new.amount.max(self.entry(slot).amount);
        }
        self.set_entry(slot, new);
        // A new entry in one of the first few clusters (one store of a new entry in some
        // thousands) checks whether the clusters in use are full.
        if target.is_none() && empty.is_some() && slot < GROWTH_CHECK_CLUSTERS * CLUSTER {
            self.grow_when_full();
        }
    }
}

/// The slots [`Table::hashfull`] samples.
const HASHFULL_SAMPLE: usize = 8192;

/// A table starts on this many bytes of its clusters (or all of them, if fewer).
const FIRST_IN_USE_BYTES: usize = 16 << 20;

/// The clusters in use double when the sampled fill reaches this (per mille).
const GROWTH_FILL_PER_MILLE: usize = 500;

/// The pages of the next doubling are faulted in ahead from this sampled fill (per mille;
/// see [`Table::fault_in_ahead`]). From 250 ‰ the solves of 寿 and 煙詰 were as fast, with
/// twice the memory resident (benches/RESULTS.md §47c).
const FAULT_IN_FILL_PER_MILLE: usize = 400;

/// A new entry in one of the first this many clusters checks the fill (see
/// [`Table::grow_when_full`]).
const GROWTH_CHECK_CLUSTERS: usize = 16;

/// The clusters first in use, less one, in a table of `mask + 1` clusters.
fn first_in_use(mask: usize) -> usize {
    let first = (FIRST_IN_USE_BYTES / (CLUSTER * std::mem::size_of::<[u64; 4]>())).max(1);
    (first - 1).min(mask)
}

/// Bytes a cache line holds, to which the slots are aligned.
const CACHE_LINE: usize = 64;

/// The table's slots, each four words, starting on a cache line: a cluster is then exactly
/// four lines, and no entry straddles two. (The allocator's large blocks start 16 bytes
/// past a page boundary, which put every cluster on five lines and half the entries on
/// two: benches/RESULTS.md §38a.) The allocation is one cache line larger than the slots.
struct Slots {
    /// The allocation: the slots, and [`ALIGNMENT_WORDS`] words in all before and after them.
    words: Box<[AtomicU64]>,
    /// The index in `words` of the first word of the first slot.
    start: usize,
}

impl Slots {
    /// The slots of `words` (the slots and [`ALIGNMENT_WORDS`] more) from its first word
    /// on a cache line.
    fn aligned(words: Box<[AtomicU64]>) -> Slots {
        let misalignment = words.as_ptr() as usize % CACHE_LINE;
        let start = (CACHE_LINE - misalignment) % CACHE_LINE / WORD;
        Slots { words, start }
    }

    /// The words of the slots within `words`.
    #[inline]
    fn range(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.words.len() - ALIGNMENT_WORDS
    }
}

impl std::ops::Deref for Slots {
    type Target = [[AtomicU64; 4]];

    #[inline]
    fn deref(&self) -> &[[AtomicU64; 4]] {
        self.words[self.range()].as_chunks::<4>().0
    }
}

/// Bytes of a word of the slots.
const WORD: usize = std::mem::size_of::<AtomicU64>();

/// Words added to an allocation of slots so that they can start on a cache line.
const ALIGNMENT_WORDS: usize = CACHE_LINE / WORD;

/// The thread of [`Table::fault_in_ahead`].
struct FaultIn {
    /// The clusters in use (less one) it was started for.
    in_use: usize,
    /// Raised to stop it (the table is dropped or zeroed, or the clusters are in use).
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl FaultIn {
    fn stop_and_join(self) {
        self.stop.store(true, Relaxed);
        // The thread only touches memory; it cannot panic.
        let _ = self.thread.join();
    }
}

/// Writes to one word of every 4 KiB page of `clusters`, so that the system backs the pages
/// with memory, without changing any word, until `stop` is raised: a `compare_exchange(0,
/// 0)` writes back what it finds, where a store of 0 could tear an entry that a growing table
/// has just moved there. (An idempotent `fetch_or(0)` would not do: the compiler turns it
/// into a load, which faults nothing in.)
fn fault_in(slots: &[[AtomicU64; 4]], clusters: std::ops::Range<usize>, stop: &AtomicBool) {
    const SLOTS_PER_PAGE: usize = 4096 / std::mem::size_of::<[u64; 4]>();
    for i in (clusters.start * CLUSTER..clusters.end * CLUSTER).step_by(SLOTS_PER_PAGE) {
        if stop.load(Relaxed) {
            return;
        }
        let _ = slots[i][0].compare_exchange(0, 0, Relaxed, Relaxed);
    }
}

/// `len` zeroed slots, allocated as zeroed memory, which the OS provides lazily (a large
/// table costs nothing until it is used).
fn zeroed_atomic_slots(len: usize) -> Slots {
    let words: Box<[u64]> = vec![0u64; 4 * len + ALIGNMENT_WORDS].into_boxed_slice();
    // SAFETY: `AtomicU64` has the same size, alignment and bit validity as `u64` (its
    // documentation guarantees the same in-memory representation), so `[u64]` and
    // `[AtomicU64]` have one layout, and the allocation is handed over whole, with the
    // same length and the same allocator. The safe counterpart,
    // [`zeroed_atomic_slots_by_writing`], writes every word (touching every page);
    // `tests::both_allocations_give_the_same_empty_table` checks they agree.
    let words = unsafe { Box::from_raw(Box::into_raw(words) as *mut [AtomicU64]) };
    Slots::aligned(words)
}

/// [`zeroed_atomic_slots`] without `unsafe`: every word written, so every page touched.
#[cfg(test)]
fn zeroed_atomic_slots_by_writing(len: usize) -> Slots {
    let words = (0..4 * len + ALIGNMENT_WORDS)
        .map(|_| AtomicU64::new(0))
        .collect();
    Slots::aligned(words)
}

/// The cluster of `key` in a table of `mask + 1` clusters: the key is mixed so that
/// clusters are chosen by bits independent of the hand-free layout.
#[inline]
fn cluster_index(key: u64, mask: usize) -> usize {
    ((key.wrapping_mul(0x9e37_79b9_7f4a_7c15)) >> CLUSTER_SHIFT) as usize & mask
}

/// Hints the CPU to fetch the cache line holding `p` (a no-op where no hint exists).
#[inline(always)]
fn prefetch_line<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` only needs SSE, which every x86-64 CPU has; a prefetch never
    // faults and never reads memory into the program's view, whatever the address (here
    // always inside `slots`). Its safe counterpart is doing nothing, which the other
    // targets do; `tests::prefetch_changes_nothing` checks that probes agree either way.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

impl Drop for Table {
    /// Waits for the thread faulting in pages ahead, which holds the slots too.
    fn drop(&mut self) {
        self.join_fault_in();
    }
}

#[cfg(test)]
mod tests;
