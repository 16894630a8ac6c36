"""Snapshots: reads and iteration at a point in time, release and lifetime."""

import gc

import pytest

import strata


def test_snapshot_reads(db):
    db.put(b"a", b"1")
    db.put(b"b", b"1")
    with db.snapshot() as snap:
        db.put(b"a", b"2")
        db.delete(b"b")
        db.put(b"c", b"new")
        db.flush()
        assert snap.get(b"a") == b"1"
        assert db.get(b"a", snapshot=snap) == b"1"
        assert db.get(b"b", snapshot=snap) == b"1"
        assert db.get(b"c", snapshot=snap) is None
        assert db.multi_get([b"a", b"b", b"c"], snapshot=snap) == [b"1", b"1", None]
        assert list(db.iterator(snapshot=snap)) == [(b"a", b"1"), (b"b", b"1")]
        assert list(snap.iterator(reverse=True)) == [(b"b", b"1"), (b"a", b"1")]
        with db.raw_iterator(snapshot=snap) as it:
            it.seek_to_last()
            assert it.key() == b"b"
        assert db.get(b"a") == b"2"
        assert db.get(b"b") is None
    assert snap.released
    with pytest.raises(strata.InvalidArgument, match="snapshot was released"):
        db.get(b"a", snapshot=snap)
    with pytest.raises(strata.InvalidArgument, match="snapshot was released"):
        db.iterator(snapshot=snap)


def test_snapshot_survives_compaction(db):
    for i in range(100):
        db.put(b"k%03d" % i, b"old")
    snap = db.snapshot()
    for i in range(100):
        db.put(b"k%03d" % i, b"new")
    db.flush()
    db.compact_range()
    assert all(v == b"old" for _, v in db.iterator(snapshot=snap))
    assert all(v == b"new" for _, v in db.iterator())
    snap.release()
    snap.release()


def test_several_snapshots_model(db, rng):
    model = {}
    snaps = []
    for step in range(400):
        k = b"k%d" % rng.randrange(40)
        if rng.random() < 0.7:
            v = b"v%d" % step
            db.put(k, v)
            model[k] = v
        else:
            db.delete(k)
            model.pop(k, None)
        if step % 50 == 0:
            snaps.append((db.snapshot(), dict(model)))
    for snap, frozen in snaps:
        assert list(db.iterator(snapshot=snap)) == sorted(frozen.items())
        for i in range(40):
            k = b"k%d" % i
            assert db.get(k, snapshot=snap) == frozen.get(k)
        snap.release()


def test_snapshot_of_other_db(tmp_path):
    with strata.DB(str(tmp_path / "a")) as a, strata.DB(str(tmp_path / "b")) as b:
        with a.snapshot() as snap:
            with pytest.raises(strata.InvalidArgument, match="another DB"):
                b.get(b"k", snapshot=snap)
            with pytest.raises(strata.InvalidArgument, match="another DB"):
                b.iterator(snapshot=snap)
    with pytest.raises(TypeError, match="Snapshot"):
        strata.DB(str(tmp_path / "c")).get(b"k", snapshot=object())


def test_db_close_releases_snapshots(path):
    db = strata.DB(path)
    snap = db.snapshot()
    db.close()
    assert snap.released
    snap.release()


def test_unreferenced_snapshot_is_released(db):
    db.snapshot()  # dropped at once: __del__ releases it
    gc.collect()
    assert len(db._children) == 0
    assert int(db.get_property("rocksdb.num-snapshots")) == 0
    s = db.snapshot()
    assert int(db.get_property("rocksdb.num-snapshots")) == 1
    del s
    gc.collect()
    assert int(db.get_property("rocksdb.num-snapshots")) == 0
