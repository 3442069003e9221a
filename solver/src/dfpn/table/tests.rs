use super::*;
use crate::piece::PieceKind::*;

fn words(t: &Table, i: usize) -> [u64; 4] {
    let s = &t.slots[i];
    [0, 1, 2, 3].map(|w| s[w].load(Relaxed))
}

fn all_zero(t: &Table) -> bool {
    (0..t.slots.len()).all(|i| words(t, i) == [0; 4])
}

/// Live entries, counted.
fn live(t: &Table) -> usize {
    (0..t.slots.len()).filter(|&i| t.is_live_slot(i)).count()
}

#[test]
fn superiority() {
    let t = Table::new(1);
    let key = 42;
    let g = Hand::EMPTY.add(Gold);
    let gs = g.add(Silver);
    t.store_proven(key, g, 5, None, 10);
    assert_eq!(t.probe(key, gs, 7).kind(), Kind::Proven);
    assert_eq!(t.probe(key, g, 5).kind(), Kind::Proven);
    // Too long for the remaining length, or not enough pieces.
    assert_eq!(t.probe(key, g, 3).kind(), Kind::Unknown);
    assert_eq!(
        t.probe(key, Hand::EMPTY.add(Silver), 7).kind(),
        Kind::Unknown
    );
    t.store_disproven(key + 1, g, NO_MATE, 10);
    assert_eq!(t.probe(key + 1, Hand::EMPTY, 99).kind(), Kind::Disproven);
    assert_eq!(t.probe(key + 1, gs, 99).kind(), Kind::Unknown);
    t.store_disproven(key + 2, g, 7, 10);
    assert_eq!(t.probe(key + 2, g, 7).kind(), Kind::Disproven);
    assert_eq!(t.probe(key + 2, g, 9).kind(), Kind::Unknown);
}

#[test]
fn a_table_too_large_for_memory_is_an_error_not_an_abort() {
    let e = Table::try_new(1 << 40).err().expect("a 2^60-byte table");
    assert!(e.to_string().contains("1099511627776 MiB"), "{e}");
    assert!(Table::try_new(1).is_ok());
}

#[test]
fn prefetch_changes_nothing() {
    // The prefetch hint (unsafe on x86-64) against its safe counterpart, doing nothing:
    // every probe answers the same with and without it, for keys in every cluster.
    let t = Table::new(1);
    let g = Hand::EMPTY.add(Gold);
    let keys: Vec<u64> = (0..20_000u64)
        .map(|i| i.wrapping_mul(0x2545_f491_4f6c_dd1d))
        .collect();
    for (i, &k) in keys.iter().enumerate() {
        match i % 3 {
            0 => t.store_proven(k, g, 5, None, 3),
            1 => t.store_disproven(k, g, NO_MATE, 3),
            _ => t.store_unknown(k, g, 9, 4, 6, None, 3),
        }
    }
    for &k in &keys {
        let plain = t.probe(k, g, 9);
        t.prefetch(k);
        let hinted = t.probe(k, g, 9);
        assert_eq!(
            (plain.pn, plain.dn, plain.len, plain.found),
            (hinted.pn, hinted.dn, hinted.len, hinted.found)
        );
    }
}

#[test]
fn entries_pack_losslessly() {
    let e = Entry {
        key: u64::MAX - 5,
        hand: Hand::EMPTY
            .with_count(Pawn, 18)
            .with_count(Rook, 2)
            .with_count(Gold, 4),
        pn: INF,
        dn: INF - 1,
        len: NO_MATE,
        best: 0xfedc,
        amount: u32::MAX,
        generation: u16::MAX - 1,
    };
    let back = Entry::unpack(e.pack());
    assert_eq!(back.key, e.key);
    assert_eq!(
        (
            back.key,
            back.hand,
            back.pn,
            back.dn,
            back.len,
            back.best,
            back.amount,
            back.generation
        ),
        (
            e.key,
            e.hand,
            e.pn,
            e.dn,
            e.len,
            e.best,
            e.amount,
            e.generation
        )
    );
    assert_eq!(Entry::unpack([0; 4]).amount, 0, "a zeroed slot is empty");
}

#[test]
fn a_torn_entry_is_not_read_as_its_key() {
    // Every mix of the words of two writes of one key (a proof and a disproof, or two
    // estimates) reads as another key, unless the mix is one of the two writes.
    let g = Hand::EMPTY.add(Gold);
    let writes = [
        (
            Entry {
                key: 99,
                hand: g,
                pn: 0,
                dn: INF,
                len: 7,
                best: 3,
                amount: 5,
                generation: 0,
            },
            Entry {
                key: 99,
                hand: g,
                pn: INF,
                dn: 0,
                len: 5,
                best: 0,
                amount: 9,
                generation: 0,
            },
        ),
        (
            Entry {
                key: 99,
                hand: g,
                pn: 4,
                dn: 6,
                len: 9,
                best: 3,
                amount: 5,
                generation: 0,
            },
            Entry {
                key: 99,
                hand: g,
                pn: 5,
                dn: 6,
                len: 9,
                best: 4,
                amount: 5,
                generation: 0,
            },
        ),
    ];
    for (a, b) in writes {
        let (a, b) = (a.pack(), b.pack());
        for mask in 1..15u32 {
            let torn: [u64; 4] =
                std::array::from_fn(|w| if mask >> w & 1 == 1 { b[w] } else { a[w] });
            if torn != a && torn != b {
                assert_ne!(Entry::unpack(torn).key, 99, "mask {mask:04b}");
            }
        }
    }
}

#[test]
fn threads_storing_and_probing_at_once_never_see_a_wrong_result() {
    // Four threads write proofs (hand G, length = key % 50) and disproofs (hand G,
    // bound = key % 50) of keys that collide in few clusters, and probe them meanwhile:
    // whatever survives the races, a result read is one that was written.
    let t = Table::new(1);
    let g = Hand::EMPTY.add(Gold);
    let keys: Vec<u64> = (0..64u64).map(|i| i << 44 | i).collect();
    std::thread::scope(|s| {
        for thread in 0..4u64 {
            let (t, keys) = (&t, &keys);
            s.spawn(move || {
                for round in 0..2_000u64 {
                    for &k in keys {
                        let len = (k % 50) as u16 + 1;
                        if (k + round + thread) % 2 == 0 {
                            t.store_proven(k, g, len, None, (round % 7) as u32 + 1);
                        } else {
                            t.store_disproven(k ^ 1, g, len, (round % 5) as u32 + 1);
                        }
                        let p = t.probe(k, g, NO_MATE - 1);
                        match p.kind() {
                            Kind::Proven => assert_eq!((p.len, p.hand), (len, g)),
                            Kind::Disproven => panic!("{k}: no disproof was stored"),
                            Kind::Unknown => {}
                        }
                        let q = t.probe(k ^ 1, g, len);
                        match q.kind() {
                            Kind::Disproven => assert_eq!((q.len, q.hand), (len, g)),
                            Kind::Proven => panic!("{}: no proof was stored", k ^ 1),
                            Kind::Unknown => {}
                        }
                    }
                }
            });
        }
    });
}

#[test]
fn both_allocations_give_the_same_empty_table() {
    // The zeroed allocation (unsafe) against its safe counterpart that writes each word.
    for len in [8, 4096] {
        let fast = zeroed_atomic_slots(len);
        let slow = zeroed_atomic_slots_by_writing(len);
        assert_eq!(fast.len(), slow.len());
        for (f, s) in fast.iter().zip(slow.iter()) {
            for (a, b) in f.iter().zip(s.iter()) {
                assert_eq!(a.load(Relaxed), b.load(Relaxed));
            }
        }
        fast[len - 1][3].store(7, Relaxed);
        assert_eq!(fast[len - 1][3].load(Relaxed), 7);
    }
}

#[test]
fn clear_forgets_everything() {
    let g = Hand::EMPTY.add(Gold);
    let mut t = Table::new(1);
    for wrap in [false, true] {
        if wrap {
            // The last generation before the counter wraps: the next clear zeroes.
            t.generation = u16::MAX;
        }
        for k in 0..100u64 {
            t.store_proven(k, g, 5, None, 3);
            t.store_disproven(k + 1000, g, NO_MATE, 3);
            t.store_unknown(k + 2000, g, 9, 4, 6, None, 3);
        }
        assert!(live(&t) >= 300);
        t.clear();
        assert_eq!(live(&t), 0);
        for k in 0..100u64 {
            for key in [k, k + 1000, k + 2000] {
                assert!(!t.probe(key, g, 9).found, "key {key} survived a clear");
            }
        }
        // Old entries are empty slots: a new entry goes into the first slot of its
        // cluster, as in a zeroed table.
        t.store_unknown(7, g, 9, 4, 6, None, 3);
        let first = t.cluster(7).start;
        assert_eq!(t.entry(first).key, 7);
        assert_eq!(live(&t), 1);
        assert_eq!(t.probe(7, g, 9).pn, 4);
        if wrap {
            assert_eq!(t.generation, 0);
            let zeroed = (0..t.slots.len())
                .filter(|&i| words(&t, i) != [0; 4])
                .count();
            assert_eq!(zeroed, 1, "only the new entry after the wrap");
        }
    }
}

#[test]
fn replacement_keeps_memory_bounded() {
    let t = Table::new(1);
    let n = t.slots.len();
    for k in 0..(n as u64 * 4) {
        t.store_unknown(k, Hand::EMPTY, 5, 1, 1, None, (k % 7) as u32 + 1);
    }
    assert_eq!(t.slots.len(), n);
    assert!(t.hashfull() <= 1000);
}

#[test]
fn a_salt_of_cluster_free_bits_keeps_the_cluster() {
    let largest = (1usize << MAX_CLUSTER_BITS) - 1;
    let two_ply = crate::dfpn::search::TWO_PLY_SALT;
    let lowest_free = 1u64 << CLUSTER_FREE_BITS;
    let below_free = 1u64 << (CLUSTER_FREE_BITS - 1);
    let mut key = 0x0123_4567_89ab_cdefu64;
    let mut moved_by_lower_bit = 0;
    for _ in 0..1000 {
        key = key
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        for mask in [0, 7, (1 << 21) - 1, largest] {
            assert_eq!(cluster_index(key, mask), cluster_index(key ^ two_ply, mask));
            assert_eq!(
                cluster_index(key, mask),
                cluster_index(key ^ lowest_free, mask)
            );
        }
        moved_by_lower_bit +=
            (cluster_index(key, largest) != cluster_index(key ^ below_free, largest)) as u32;
    }
    // The bound is tight: one bit lower, the largest tables put the salted key elsewhere.
    assert!(moved_by_lower_bit > 0);
}

/// Keys spread over the clusters like a search's (a linear congruential sequence).
fn spread_keys(n: usize) -> Vec<u64> {
    let mut key = 0x0123_4567_89ab_cdefu64;
    (0..n)
        .map(|_| {
            key = key
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            key
        })
        .collect()
}

#[test]
fn a_large_table_starts_on_a_part_of_its_clusters_and_doubles_as_it_fills() {
    let mut t = Table::new(256);
    let first = t.in_use.load(Relaxed);
    assert_eq!((first + 1) * CLUSTER * 32, FIRST_IN_USE_BYTES);
    assert!(first < t.mask);
    let g = Hand::EMPTY.add(Gold);
    // Few entries: no cluster overflows, so every one is there after each doubling.
    let few = spread_keys(2_000);
    for (i, &k) in few.iter().enumerate() {
        t.store_proven(k, g, (i % 50) as u16 + 1, None, 2 + i as u32);
    }
    // Enough entries to pass the fill at which the clusters in use double, twice.
    let slots_in_use = (first + 1) * CLUSTER;
    let many = spread_keys(2_000 + slots_in_use * 3 / 2);
    for &k in &many[2_000..] {
        t.store_disproven(k, Hand::EMPTY, 7, 1);
    }
    let grown = t.in_use.load(Relaxed);
    assert!(grown >= 4 * first + 3, "{first} -> {grown}");
    // The entries stored before the doublings were moved with them, none lost (they are
    // worth more than the later ones, so no overflow replaced them either).
    for (i, &k) in few.iter().enumerate() {
        let p = t.probe(k, g, 60);
        assert_eq!(
            (p.kind(), p.len),
            (Kind::Proven, (i % 50) as u16 + 1),
            "entry {i}"
        );
    }
    // The fill reported is that of the whole table, not of the clusters in use.
    assert!(
        t.hashfull() < t.in_use_fill(),
        "{} {}",
        t.hashfull(),
        t.in_use_fill()
    );
    // A cleared table starts again on the first clusters.
    t.clear();
    assert_eq!(t.in_use.load(Relaxed), first);
    assert!(!t.probe(few[0], g, 60).found);
    // When the generation wraps, the clusters used since the last zeroing are zeroed,
    // those of the doublings included, and the table starts on its first clusters again.
    t.store_proven(few[0], g, 5, None, 3);
    t.generation = u16::MAX;
    t.clear();
    assert!(all_zero(&t), "a slot survived the wrap");
    assert_eq!(t.generation, 0);
    assert_eq!(*t.high_water.get_mut(), first);
    assert!(!t.probe(few[0], g, 60).found);
}

#[test]
fn a_probe_passes_over_the_entries_of_other_tags() {
    // Two keys with one cluster and one tag but different keys, and two with one cluster
    // and different tags: each probe finds its own key's entry only.
    let t = Table::new(1);
    let g = Hand::EMPTY.add(Gold);
    let a = 0x1234_0000_0000_0001u64;
    let same_tag = (a..)
        .skip(1)
        .find(|&k| tag_of(k) == tag_of(a) && t.cluster(k) == t.cluster(a))
        .unwrap();
    let other_tag = (1u64..)
        .map(|i| a ^ i << 48)
        .find(|&k| t.cluster(k) == t.cluster(a))
        .unwrap();
    assert_ne!(tag_of(other_tag), tag_of(a));
    t.store_proven(a, g, 5, None, 3);
    t.store_disproven(same_tag, g, NO_MATE, 3);
    t.store_unknown(other_tag, g, 9, 4, 6, None, 3);
    assert_eq!(
        (t.probe(a, g, 9).kind(), t.probe(a, g, 9).len),
        (Kind::Proven, 5)
    );
    assert_eq!(t.probe(same_tag, g, 9).kind(), Kind::Disproven);
    assert_eq!(t.probe(other_tag, g, 9).pn, 4);
    // A store of one key replaces nothing of the others.
    t.store_proven(same_tag, g, 3, None, 3);
    assert_eq!(t.probe(a, g, 9).len, 5);
    assert_eq!(live(&t), 3 + 1);
}

#[test]
fn a_small_table_uses_all_its_clusters_from_the_start() {
    let t = Table::new(1);
    assert_eq!(t.in_use.load(Relaxed), t.mask);
}

#[test]
fn threads_storing_and_probing_while_the_table_grows_read_only_what_was_stored() {
    // Half the keys are stored proven with a length of their own, the others disproven, by
    // two threads at once while a third probes; the clusters in use double several times on
    // the way. A probe may miss an entry (moved, or stored with the old clusters in use),
    // never read one that was not stored.
    let t = Table::new(256);
    let first = t.in_use.load(Relaxed);
    let keys = spread_keys(600_000);
    let len_of = |k: u64| (k >> 40) as u16 % 100 + 1;
    // By a high bit: the keys' low bit alternates, so each thread stores both kinds.
    let proven = |k: u64| k >> 50 & 1 == 0;
    std::thread::scope(|s| {
        for part in 0..2 {
            let (t, keys) = (&t, &keys);
            s.spawn(move || {
                for &k in keys.iter().skip(part).step_by(2) {
                    if proven(k) {
                        t.store_proven(k, Hand::EMPTY, len_of(k), None, 3);
                    } else {
                        t.store_disproven(k, Hand::EMPTY, NO_MATE, 3);
                    }
                }
            });
        }
        let (t, keys) = (&t, &keys);
        s.spawn(move || {
            for &k in keys.iter().cycle().step_by(7).take(400_000) {
                let p = t.probe(k, Hand::EMPTY, 200);
                match p.kind() {
                    Kind::Proven => assert!(proven(k) && p.len == len_of(k), "{k}"),
                    Kind::Disproven => assert!(!proven(k) && p.len == NO_MATE, "{k}"),
                    Kind::Unknown => assert!(!p.found, "{k}"),
                }
            }
        });
    });
    assert!(t.in_use.load(Relaxed) > 2 * first);
    let found = keys
        .iter()
        .filter(|&&k| t.probe(k, Hand::EMPTY, 200).found)
        .count();
    assert!(found > keys.len() * 9 / 10, "{found} of {}", keys.len());
}

#[test]
fn slots_start_on_a_cache_line() {
    // Whatever the allocator's offset, both allocations put the first slot on a line, so
    // a cluster is exactly `CLUSTER / 2` lines.
    for len in [8, 4096, 1 << 16] {
        for slots in [
            zeroed_atomic_slots(len),
            zeroed_atomic_slots_by_writing(len),
        ] {
            assert_eq!(slots.as_ptr() as usize % CACHE_LINE, 0);
            assert_eq!(slots.len(), len);
        }
    }
    assert_eq!(Table::new(64).slots.as_ptr() as usize % CACHE_LINE, 0);
}

#[test]
fn faulting_pages_in_changes_no_word() {
    let t = Table::new(64);
    assert!(t.in_use.load(Relaxed) < t.mask);
    let g = Hand::EMPTY.add(Gold);
    for (i, &k) in spread_keys(100_000).iter().enumerate() {
        t.store_proven(k, g, (i % 50) as u16 + 1, None, 2 + i as u32);
    }
    let before: Vec<[u64; 4]> = (0..t.slots.len()).map(|i| words(&t, i)).collect();
    assert!(before.iter().filter(|w| **w != [0; 4]).count() > 10_000);
    // Every page of the table, those holding entries included.
    fault_in(&t.slots, 0..t.mask + 1, &AtomicBool::new(false));
    let after: Vec<[u64; 4]> = (0..t.slots.len()).map(|i| words(&t, i)).collect();
    assert!(before == after, "faulting pages in changed a word");
}

#[test]
fn the_pages_of_the_next_doubling_are_faulted_in_once_and_the_table_waits_for_them() {
    let t = Table::new(64);
    let in_use = t.in_use.load(Relaxed);
    let thread_of = |t: &Table| {
        let current = t.fault_in.lock().unwrap();
        current.as_ref().map(|f| (f.in_use, f.thread.thread().id()))
    };
    t.fault_in_ahead(in_use);
    let first = thread_of(&t).expect("a thread started");
    assert_eq!(first.0, in_use);
    t.fault_in_ahead(in_use);
    assert_eq!(
        thread_of(&t),
        Some(first),
        "started again for the same clusters"
    );
    // A table that uses all its clusters has nothing ahead.
    let small = Table::new(1);
    small.fault_in_ahead(small.in_use.load(Relaxed));
    assert!(thread_of(&small).is_none());
    drop(t);
}
