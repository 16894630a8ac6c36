"""Write batches: db.write_batch() commits on exit and discards on an
exception; WriteBatch objects written with db.write()."""

import pytest

import strata


def test_write_batch_commits_on_exit(db):
    db.put(b"gone", b"x")
    with db.write_batch() as b:
        b.put(b"a", b"1")
        b.put("b", "2")
        b.delete(b"gone")
        assert len(b) == 3
        assert db.get(b"a") is None  # nothing is visible before the end
    assert db.get(b"a") == b"1"
    assert db.get(b"b") == b"2"
    assert db.get(b"gone") is None


def test_write_batch_discards_on_exception(db):
    db.put(b"keep", b"1")
    with pytest.raises(KeyError):
        with db.write_batch() as b:
            b.put(b"a", b"1")
            b.delete(b"keep")
            raise KeyError("abort")
    assert db.get(b"a") is None
    assert db.get(b"keep") == b"1"
    assert b.closed


def test_write_batch_sync(db):
    with db.write_batch(sync=True) as b:
        b.put(b"a", b"1")
    assert db.get(b"a") == b"1"


def test_standalone_batch_reuse_and_clear(db):
    batch = strata.WriteBatch()
    batch.put(b"k1", b"v1")
    batch.put(b"k2", b"v2")
    batch.delete_range(b"k2", b"k3")
    assert batch.count() == 3
    db.write(batch, sync=True)
    assert db.get(b"k1") == b"v1"
    assert db.get(b"k2") is None
    batch.clear()
    assert len(batch) == 0
    batch.put(b"k3", b"v3")
    db.write(batch)
    db.write(batch)  # writing twice is allowed and idempotent for puts
    assert db.get(b"k3") == b"v3"
    batch.close()
    batch.close()
    with pytest.raises(strata.InvalidArgument, match="write batch is closed"):
        batch.put(b"x", b"y")
    with pytest.raises(strata.InvalidArgument, match="write batch is closed"):
        db.write(batch)


def test_batch_context_manager(db):
    with strata.WriteBatch() as batch:
        batch.put(b"a", b"1")
        db.write(batch)
    assert batch.closed
    assert db.get(b"a") == b"1"


def test_write_requires_a_batch(db):
    with pytest.raises(TypeError, match="WriteBatch"):
        db.write([(b"a", b"1")])


def test_batch_with_column_families(path):
    with strata.DB(path) as db:
        users = db.create_column_family("users")
        with db.write_batch() as b:
            b.put(b"k", b"default")
            b.put(b"k", b"users", cf="users")
            b.put(b"k2", b"users2", cf=users)
        assert db.get(b"k") == b"default"
        assert db.get(b"k", cf="users") == b"users"
        assert db.get(b"k2", cf=users) == b"users2"
        assert db.get(b"k2") is None
        standalone = strata.WriteBatch()
        standalone.delete(b"k", cf=users)
        with pytest.raises(strata.InvalidArgument, match="given by name"):
            standalone.put(b"x", b"y", cf="users")
        db.write(standalone)
        standalone.close()
        assert db.get(b"k", cf=users) is None
        assert db.get(b"k") == b"default"
        with pytest.raises(strata.InvalidArgument, match="no column family 'nope'"):
            with db.write_batch() as b:
                b.put(b"z", b"1")
                b.put(b"z", b"1", cf="nope")
        assert db.get(b"z") is None


def test_large_batch(db):
    with db.write_batch() as b:
        for i in range(20000):
            b.put(b"k%06d" % i, b"v%d" % i)
    assert db.get(b"k019999") == b"v19999"
    assert len(list(db.keys())) == 20000


def test_batch_to_closed_db(path):
    db = strata.DB(path)
    batch = strata.WriteBatch()
    batch.put(b"a", b"1")
    db.close()
    with pytest.raises(strata.InvalidArgument, match="closed"):
        db.write(batch)
    with pytest.raises(strata.InvalidArgument, match="closed"):
        with db.write_batch():
            pass
    batch.close()
