"""Open/close, get/put/delete, key types, options, properties, merge,
destroy/repair and the error paths of each."""

import os
import struct
import subprocess
import sys

import pytest

import strata


def test_put_get_delete(db):
    assert db.get(b"missing") is None
    assert db.get(b"missing", default=b"d") == b"d"
    db.put(b"k1", b"v1")
    db.put(b"k2", b"")
    assert db.get(b"k1") == b"v1"
    assert db.get(b"k2") == b""
    db.put(b"k1", b"v1b")
    assert db.get(b"k1") == b"v1b"
    db.delete(b"k1")
    assert db.get(b"k1") is None
    db.delete(b"never-written")  # deleting a missing key is not an error
    assert db.get(b"k2") == b""


def test_binary_and_str_keys(db):
    key = bytes(range(256))
    db.put(key, b"\x00\xff\x00")
    assert db.get(key) == b"\x00\xff\x00"
    db.put("clé", "valeur")
    assert db.get("clé".encode("utf-8")) == "valeur".encode("utf-8")
    assert db.get("clé") == b"valeur"
    db.put(bytearray(b"ba"), memoryview(b"mv"))
    assert db.get(b"ba") == b"mv"
    big = os.urandom(1 << 20)
    db.put(b"big", big)
    assert db.get(b"big") == big


def test_wrong_types_are_type_errors(db):
    with pytest.raises(TypeError, match="key must be bytes or str"):
        db.put(1, b"v")
    with pytest.raises(TypeError, match="value must be bytes or str"):
        db.put(b"k", 2)
    with pytest.raises(TypeError, match="key must be bytes or str"):
        db.get(None)


def test_mapping_protocol(db):
    db[b"a"] = b"1"
    assert db[b"a"] == b"1"
    assert b"a" in db
    del db[b"a"]
    assert b"a" not in db
    with pytest.raises(KeyError):
        db[b"a"]


def test_sync_and_disable_wal_writes(db):
    db.put(b"s", b"1", sync=True)
    db.put(b"w", b"2", disable_wal=True)
    db.delete(b"s", sync=True)
    assert db.get(b"s") is None
    assert db.get(b"w") == b"2"


def test_persistence_across_reopen(path):
    with strata.DB(path) as db:
        for i in range(1000):
            db.put(b"key%05d" % i, b"value%d" % i)
        db.delete(b"key00007")
    assert db.closed
    with strata.DB(path, create_if_missing=False) as db:
        assert db.get(b"key00000") == b"value0"
        assert db.get(b"key00999") == b"value999"
        assert db.get(b"key00007") is None
        assert len(list(db.keys())) == 999


def test_close_is_idempotent_and_use_after_close_raises(path):
    db = strata.DB(path)
    db.put(b"a", b"1")
    db.close()
    db.close()
    with pytest.raises(strata.InvalidArgument, match="closed"):
        db.get(b"a")
    with pytest.raises(strata.InvalidArgument, match="closed"):
        db.put(b"a", b"1")
    with pytest.raises(strata.InvalidArgument, match="closed"):
        db.iterator()
    with pytest.raises(strata.InvalidArgument, match="closed"):
        db.snapshot()


def test_context_manager_closes_on_exception(path):
    with pytest.raises(RuntimeError):
        with strata.DB(path) as db:
            db.put(b"a", b"1")
            raise RuntimeError("boom")
    assert db.closed
    with strata.DB(path) as db2:  # the lock was released
        assert db2.get(b"a") == b"1"


def test_missing_db_without_create_if_missing(tmp_path):
    p = str(tmp_path / "nope")
    with pytest.raises(strata.InvalidArgument) as ei:
        strata.DB(p, create_if_missing=False)
    assert "does not exist" in str(ei.value)
    assert ei.value.code == "InvalidArgument"
    assert isinstance(ei.value, strata.Error)


def test_error_if_exists(path):
    strata.DB(path).close()
    with pytest.raises(strata.InvalidArgument, match="exists"):
        strata.DB(path, error_if_exists=True)


def test_second_open_is_an_io_error(path):
    with strata.DB(path):
        with pytest.raises(strata.IOError) as ei:
            strata.DB(path)
        assert "lock" in str(ei.value).lower()
        assert isinstance(ei.value, OSError)


def test_all_accepted_options_open(path):
    opts = dict(
        error_if_exists=False,
        paranoid_checks=True,
        compression="lz4",
        bottommost_compression="zstd",
        write_buffer_size=1 << 20,
        max_write_buffer_number=3,
        max_open_files=100,
        max_background_jobs=2,
        increase_parallelism=2,
        target_file_size_base=1 << 20,
        max_bytes_for_level_base=4 << 20,
        level0_file_num_compaction_trigger=2,
        num_levels=5,
        block_cache_size=1 << 20,
        block_size=4096,
        bloom_bits=10,
        cache_index_and_filter_blocks=True,
        format_version=5,
        merge_operator=None,
    )
    assert set(opts) | {"create_if_missing", "create_missing_column_families"} == set(strata.OPTIONS)
    with strata.DB(path, **opts) as db:
        for i in range(3000):
            db.put(b"k%06d" % i, b"v" * 100)
        db.flush()
        db.compact_range()
        assert db.get(b"k000123") == b"v" * 100
        assert db.get(b"absent") is None


@pytest.mark.parametrize("codec", sorted(["none", "snappy", "zlib", "lz4", "lz4hc", "zstd"]))
def test_compressions_round_trip(path, codec):
    with strata.DB(path, compression=codec) as db:
        for i in range(500):
            db.put(b"k%04d" % i, b"abc" * 50)
        db.flush()
    with strata.DB(path, compression=codec) as db:
        assert db.get(b"k0499") == b"abc" * 50


def test_no_block_cache(path):
    with strata.DB(path, block_cache_size=0) as db:
        db.put(b"a", b"1")
        db.flush()
        assert db.get(b"a") == b"1"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"no_such_option": 1}, "unknown option 'no_such_option'"),
        ({"compression": "brotli"}, "option compression='brotli' is not one of"),
        ({"compression": 3}, "option compression=3"),
        ({"write_buffer_size": 0}, r"option write_buffer_size=0 is out of range"),
        ({"write_buffer_size": "big"}, "option write_buffer_size must be an integer"),
        ({"error_if_exists": 1}, "option error_if_exists must be True or False"),
        ({"bloom_bits": -1}, "option bloom_bits=-1"),
        ({"format_version": 9}, r"option format_version=9 is out of range"),
        ({"merge_operator": "stringappend"}, "option merge_operator='stringappend'"),
        ({"num_levels": 0}, "option num_levels=0"),
    ],
)
def test_bad_options_are_refused_by_name(path, kwargs, message):
    with pytest.raises(strata.InvalidArgument, match=message):
        strata.DB(path, **kwargs)
    assert not os.path.exists(path)  # refused before anything was created


def test_bad_path_type(tmp_path):
    with pytest.raises(TypeError):
        strata.DB(12)


def test_get_property(db):
    for i in range(100):
        db.put(b"k%03d" % i, b"v")
    n = db.get_property("rocksdb.estimate-num-keys")
    assert n is not None and int(n) == 100
    assert db.get_property("rocksdb.no-such-property") is None
    db.flush()
    assert db.get_property("rocksdb.num-files-at-level0") == "1"
    db.compact_range()
    assert db.get_property("rocksdb.num-files-at-level0") == "0"
    assert "Compaction Stats" in db.get_property("rocksdb.stats")
    with pytest.raises(TypeError):
        db.get_property(b"rocksdb.stats")


def test_compact_range_bounds_keep_data(db):
    for i in range(200):
        db.put(b"%03d" % i, b"x%d" % i)
        if i % 50 == 49:
            db.flush()
    db.delete(b"010")
    db.compact_range(b"000", b"100")
    db.compact_range(start=b"150")
    db.compact_range(stop=b"020")
    db.compact_range()
    assert db.get(b"010") is None
    assert db.get(b"199") == b"x199"
    assert len(list(db.keys())) == 199


def test_merge_uint64add(path):
    with strata.DB(path, merge_operator="uint64add") as db:
        for i in range(10):
            db.merge(b"counter", struct.pack("<Q", i))
        assert struct.unpack("<Q", db.get(b"counter"))[0] == 45
        db.flush()
        db.merge(b"counter", struct.pack("<Q", 5))
        assert struct.unpack("<Q", db.get(b"counter"))[0] == 50
        with db.write_batch() as b:
            b.merge(b"counter", struct.pack("<Q", 50))
        assert struct.unpack("<Q", db.get(b"counter"))[0] == 100
    with strata.DB(path, merge_operator="uint64add") as db:
        assert struct.unpack("<Q", db.get(b"counter"))[0] == 100


def test_merge_without_operator_is_refused(db):
    with pytest.raises(strata.InvalidArgument, match="without a merge operator"):
        db.merge(b"k", b"\x01" + b"\x00" * 7)
    with pytest.raises(strata.InvalidArgument, match="without a merge operator"):
        with db.write_batch() as b:
            b.merge(b"k", b"x")
    assert db.get(b"k") is None


def test_delete_range(db):
    for i in range(100):
        db.put(b"%02d" % i, b"v")
    db.delete_range(b"10", b"20")
    assert db.get(b"09") == b"v"
    assert db.get(b"10") is None
    assert db.get(b"19") is None
    assert db.get(b"20") == b"v"
    assert len(list(db.keys())) == 90


def test_multi_get(db):
    db.put(b"a", b"1")
    db.put(b"c", b"3")
    assert db.multi_get([b"a", b"b", "c"]) == [b"1", None, b"3"]
    assert db.multi_get([]) == []


def test_destroy(path):
    with strata.DB(path) as db:
        db.put(b"a", b"1")
    strata.destroy(path)
    with pytest.raises(strata.InvalidArgument, match="does not exist"):
        strata.DB(path, create_if_missing=False)
    with strata.DB(path) as db:
        assert db.get(b"a") is None


def test_destroy_open_db_fails(path):
    with strata.DB(path) as db:
        db.put(b"a", b"1")
        with pytest.raises(strata.IOError):
            strata.destroy(path)
        assert db.get(b"a") == b"1"


def test_repair(path):
    with strata.DB(path) as db:
        for i in range(100):
            db.put(b"k%03d" % i, b"v%d" % i)
        db.flush()
        db.put(b"late", b"in-wal")
    for name in os.listdir(path):
        if name.startswith("MANIFEST-"):
            os.remove(os.path.join(path, name))
    with pytest.raises(strata.Error):
        strata.DB(path, create_if_missing=False)
    strata.repair(path)
    with strata.DB(path, create_if_missing=False) as db:
        assert db.get(b"k050") == b"v50"
        assert db.get(b"late") == b"in-wal"


def test_repair_and_destroy_on_a_file_are_io_errors(tmp_path):
    f = tmp_path / "plain-file"
    f.write_bytes(b"not a database")
    with pytest.raises(strata.IOError, match="repair .*plain-file"):
        strata.repair(str(f))
    with pytest.raises(strata.IOError, match="destroy .*plain-file"):
        strata.destroy(str(f / "db"))
    assert f.read_bytes() == b"not a database"


def test_error_classes():
    e = strata.errors.from_status_string("Corruption: bad block in 000012.sst")
    assert type(e) is strata.Corruption and e.code == "Corruption"
    assert type(strata.errors.from_status_string("Not implemented: x")) is strata.NotSupported
    assert type(strata.errors.from_status_string("Resource busy: x")) is strata.Busy
    assert type(strata.errors.from_status_string("Column family dropped: x")) is strata.ColumnFamilyDropped
    assert type(strata.errors.from_status_string("something else")) is strata.Error
    assert issubclass(strata.InvalidArgument, ValueError)


def _run(code, env_updates):
    env = dict(os.environ)
    env.update(env_updates)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd="/"
    )


def test_import_does_not_need_the_library():
    r = _run("import strata; print(strata.__version__)", {"STRATA_ROCKSDB_LIBRARY": "/nonexistent/lib.so"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == strata.__version__


def test_bad_library_env_names_the_variable(tmp_path):
    code = (
        "import strata\n"
        "try:\n"
        "    strata.DB(%r)\n"
        "except strata.Error as e:\n"
        "    print(e)\n" % str(tmp_path / "db")
    )
    r = _run(code, {"STRATA_ROCKSDB_LIBRARY": "/nonexistent/libx.so"})
    assert r.returncode == 0, r.stderr
    assert "STRATA_ROCKSDB_LIBRARY=/nonexistent/libx.so" in r.stdout


def test_library_without_c_api_is_refused(tmp_path):
    libc = "libc.so.6"
    code = "import strata\ntry:\n    strata.library_path()\nexcept strata.Error as e:\n    print(e)\n"
    r = _run(code, {"STRATA_ROCKSDB_LIBRARY": libc})
    assert r.returncode == 0, r.stderr
    assert "does not export rocksdb_free" in r.stdout


def test_library_not_found_lists_places(tmp_path):
    code = (
        "import ctypes.util, strata\n"
        "ctypes.util.find_library = lambda name: None\n"
        "try:\n"
        "    strata.library_path()\n"
        "except strata.Error as e:\n"
        "    print(e)\n"
    )
    env = {"STRATA_ROCKSDB_LIBRARY": ""}
    r = _run(code, env)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "cannot find libstrata-rocksdb.so" in out
    assert "STRATA_ROCKSDB_LIBRARY" in out
    assert "next to the package" in out
    assert 'find_library("strata-rocksdb")' in out


def test_library_found_next_to_package(tmp_path):
    # A copy of the package with the library beside it, no env variable.
    import shutil

    pkg_src = os.path.dirname(strata.__file__)
    dst = tmp_path / "site"
    shutil.copytree(pkg_src, dst / "strata", ignore=shutil.ignore_patterns("__pycache__"))
    os.symlink(strata.library_path(), dst / "strata" / "libstrata-rocksdb.so")
    code = "import strata; print(strata.library_path())"
    env = dict(os.environ)
    env.pop("STRATA_ROCKSDB_LIBRARY", None)
    env["PYTHONPATH"] = str(dst)
    r = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=str(tmp_path)
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(dst / "strata" / "libstrata-rocksdb.so")


def test_library_found_under_install_prefix(tmp_path):
    # The layout `make install` makes: <prefix>/lib/pythonX.Y/dist-packages/strata
    # and <prefix>/lib/libstrata-rocksdb.so.
    import shutil

    prefix = tmp_path / "prefix"
    site = prefix / "lib" / ("python%d.%d" % sys.version_info[:2]) / "dist-packages"
    shutil.copytree(
        os.path.dirname(strata.__file__), site / "strata", ignore=shutil.ignore_patterns("__pycache__")
    )
    os.symlink(strata.library_path(), prefix / "lib" / "libstrata-rocksdb.so")
    env = dict(os.environ)
    env.pop("STRATA_ROCKSDB_LIBRARY", None)
    env["PYTHONPATH"] = str(site)
    code = "import strata; print(strata.library_path())"
    r = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=str(tmp_path)
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(prefix / "lib" / "libstrata-rocksdb.so")


def test_read_only(path):
    with strata.DB(path, column_families=["f"], create_missing_column_families=True) as db:
        db.put(b"a", b"1")
        db.put(b"b", b"2", cf="f")
    with strata.DB(path, read_only=True) as ro:
        assert ro.read_only
        assert ro.get(b"a") == b"1"
        assert list(ro.items(cf="f")) == [(b"b", b"2")]
        with pytest.raises(strata.NotSupported, match="put"):
            ro.put(b"c", b"3")
        with pytest.raises(strata.NotSupported):
            with ro.write_batch() as b:
                b.put(b"c", b"3")
        # A read-only open takes no lock: a second one may sit beside it.
        with strata.DB(path, read_only=True) as ro2:
            assert ro2.get(b"a") == b"1"
    with pytest.raises(strata.Error):
        strata.DB(str(path) + "-missing", read_only=True)
