"""Column families: open with a list, create, drop, the cf argument of every
operation, and reopen."""

import pytest

import strata


def test_new_db_has_only_default(db):
    assert list(db.column_families) == ["default"]
    assert db.column_families["default"].name == "default"
    assert db.column_families["default"].id == 0


def test_create_use_drop(path):
    with strata.DB(path) as db:
        users = db.create_column_family("users")
        assert isinstance(users, strata.ColumnFamily)
        assert sorted(db.column_families) == ["default", "users"]
        assert users.id != 0
        db.put(b"k", b"u", cf=users)
        db.put(b"k", b"d")
        assert db.get(b"k", cf="users") == b"u"
        assert db.get(b"k") == b"d"
        db.delete(b"k", cf=users)
        assert db.get(b"k", cf=users) is None
        assert db.get(b"k") == b"d"
        db.put(b"x1", b"1", cf=users)
        db.put(b"x2", b"2", cf=users)
        db.delete_range(b"x1", b"x2", cf=users)
        assert db.multi_get([b"x1", b"x2"], cf=users) == [None, b"2"]
        db.flush(cf=users)
        assert db.get_property("rocksdb.num-files-at-level0", cf=users) == "1"
        assert db.get_property("rocksdb.num-files-at-level0") == "0"
        db.compact_range(cf=users)
        with pytest.raises(strata.InvalidArgument, match="already open"):
            db.create_column_family("users")
        db.drop_column_family("users")
        assert list(db.column_families) == ["default"]
        assert users.dropped
        with pytest.raises(strata.InvalidArgument, match="was dropped"):
            db.get(b"x2", cf=users)
        with pytest.raises(strata.InvalidArgument, match="no column family 'users'"):
            db.get(b"x2", cf="users")
    assert strata.list_column_families(path) == ["default"]


def test_reopen_opens_every_family_by_default(path):
    with strata.DB(path) as db:
        for name in ("a", "b", "c"):
            db.create_column_family(name)
            db.put(b"key", name.encode(), cf=name)
    assert sorted(strata.list_column_families(path)) == ["a", "b", "c", "default"]
    with strata.DB(path) as db:
        assert sorted(db.column_families) == ["a", "b", "c", "default"]
        for name in ("a", "b", "c"):
            assert db.get(b"key", cf=name) == name.encode()


def test_open_with_listed_families(path):
    with strata.DB(path, column_families=["x", "y"], create_missing_column_families=True) as db:
        assert sorted(db.column_families) == ["default", "x", "y"]
        db.put(b"k", b"vx", cf="x")
    with strata.DB(path, column_families=["default", "x", "y"]) as db:
        assert db.get(b"k", cf="x") == b"vx"


def test_missing_family_without_create_missing(path):
    with pytest.raises(strata.InvalidArgument) as ei:
        strata.DB(path, column_families=["x"])
    assert "open " in str(ei.value)


def test_existing_family_not_listed_is_an_error(path):
    with strata.DB(path) as db:
        db.create_column_family("x")
    # The library names the family left out (RocksDB: "Column families not
    # opened: x").
    with pytest.raises(strata.InvalidArgument, match=r"open .*: Invalid argument: .*\bx\b"):
        strata.DB(path, column_families=[])


def test_bad_column_family_arguments(path):
    with pytest.raises(TypeError, match="list of names"):
        strata.DB(path, column_families="x")
    with pytest.raises(TypeError, match="must be str"):
        strata.DB(path, column_families=[b"x"])
    with pytest.raises(strata.InvalidArgument, match="twice"):
        strata.DB(path, column_families=["x", "x"], create_missing_column_families=True)
    with strata.DB(path) as db:
        with pytest.raises(strata.InvalidArgument, match="default column family cannot be dropped"):
            db.drop_column_family("default")
        with pytest.raises(strata.InvalidArgument, match="no column family 'nope'"):
            db.drop_column_family("nope")
        with pytest.raises(strata.InvalidArgument, match="no column family 'nope'"):
            db.put(b"k", b"v", cf="nope")
        with pytest.raises(strata.InvalidArgument, match="no column family 'nope'"):
            db.column_family("nope")
        with pytest.raises(TypeError, match="cf must be"):
            db.get(b"k", cf=3)
        with pytest.raises(TypeError, match="must be str"):
            db.create_column_family(b"bytes-name")


def test_family_of_other_db(tmp_path):
    with strata.DB(str(tmp_path / "a")) as a, strata.DB(str(tmp_path / "b")) as b:
        fa = a.create_column_family("f")
        b.create_column_family("f")
        with pytest.raises(strata.InvalidArgument, match="belongs to another DB"):
            b.put(b"k", b"v", cf=fa)


def test_handles_unusable_after_close(path):
    db = strata.DB(path)
    f = db.create_column_family("f")
    db.close()
    with pytest.raises(strata.InvalidArgument, match="DB is closed"):
        f.id


def test_drop_closes_iterators_on_that_family(path):
    with strata.DB(path) as db:
        f = db.create_column_family("f")
        db.put(b"a", b"1", cf=f)
        db.put(b"a", b"1")
        it_f = db.raw_iterator(cf=f)
        it_d = db.raw_iterator()
        db.drop_column_family(f)
        assert it_f.closed
        assert not it_d.closed
        it_d.seek_to_first()
        assert it_d.key() == b"a"


def test_families_against_dict_model(path, rng):
    names = ["default", "f1", "f2"]
    models = {n: {} for n in names}
    with strata.DB(path, column_families=names[1:], create_missing_column_families=True) as db:
        for step in range(1500):
            n = rng.choice(names)
            k = b"%d" % rng.randrange(100)
            r = rng.random()
            if r < 0.6:
                v = b"%s-%d" % (n.encode(), step)
                db.put(k, v, cf=n)
                models[n][k] = v
            elif r < 0.9:
                db.delete(k, cf=n)
                models[n].pop(k, None)
            else:
                with db.write_batch() as b:
                    for _ in range(5):
                        n2 = rng.choice(names)
                        k2 = b"%d" % rng.randrange(100)
                        b.put(k2, b"batch", cf=n2)
                        models[n2][k2] = b"batch"
            if step == 700:
                db.flush(cf="f1")
        for n in names:
            assert list(db.iterator(cf=n)) == sorted(models[n].items())
            assert list(db.iterator(cf=n, reverse=True)) == sorted(models[n].items(), reverse=True)
    with strata.DB(path) as db:
        for n in names:
            assert list(db.iterator(cf=n)) == sorted(models[n].items())
