"""Iteration: db.iterator() with prefix/start/stop/reverse and the raw
iterator's seek/next/prev, checked against a dict model."""

import pytest

import strata


def _fill(db, keys):
    for k in keys:
        db.put(k, b"v-" + k)


def test_iterator_full_and_reverse(db):
    keys = [b"a", b"b", b"ba", b"c", b"\x00", b"\xff", b"\xff\xff"]
    _fill(db, keys)
    expect = sorted(keys)
    assert [k for k, _ in db.iterator()] == expect
    assert [k for k, _ in db.iterator(reverse=True)] == expect[::-1]
    assert [v for _, v in db.iterator()] == [b"v-" + k for k in expect]
    assert list(db.keys()) == expect
    assert list(db.values()) == [b"v-" + k for k in expect]
    assert list(db.items()) == [(k, b"v-" + k) for k in expect]


def test_iterator_empty_db(db):
    assert list(db.iterator()) == []
    assert list(db.iterator(reverse=True)) == []


def test_iterator_start_stop(db):
    _fill(db, [b"%02d" % i for i in range(20)])
    assert list(db.keys(start=b"05", stop=b"08")) == [b"05", b"06", b"07"]
    assert list(db.keys(start=b"05", stop=b"08", reverse=True)) == [b"07", b"06", b"05"]
    assert list(db.keys(start=b"055", stop=b"07")) == [b"06"]
    assert list(db.keys(start=b"18")) == [b"18", b"19"]
    assert list(db.keys(stop=b"02")) == [b"00", b"01"]
    assert list(db.keys(stop=b"02", reverse=True)) == [b"01", b"00"]
    assert list(db.keys(start=b"08", stop=b"05")) == []
    assert list(db.keys(start=b"05", stop=b"05")) == []
    assert list(db.keys(start="05", stop="06")) == [b"05"]


def test_iterator_prefix(db):
    _fill(db, [b"a", b"ab", b"abc", b"abd", b"ac", b"b", b"ab\xff", b"ab\xff\x01", b"\xff", b"\xff\xffz"])
    assert list(db.keys(prefix=b"ab")) == [b"ab", b"abc", b"abd", b"ab\xff", b"ab\xff\x01"]
    assert list(db.keys(prefix=b"ab", reverse=True)) == [b"ab\xff\x01", b"ab\xff", b"abd", b"abc", b"ab"]
    assert list(db.keys(prefix=b"ab\xff")) == [b"ab\xff", b"ab\xff\x01"]
    assert list(db.keys(prefix=b"\xff")) == [b"\xff", b"\xff\xffz"]
    assert list(db.keys(prefix=b"\xff", reverse=True)) == [b"\xff\xffz", b"\xff"]
    assert list(db.keys(prefix=b"")) == list(db.keys())
    assert list(db.keys(prefix=b"zz")) == []
    # prefix and bounds together: the intersection
    assert list(db.keys(prefix=b"ab", start=b"abc", stop=b"ab\xff")) == [b"abc", b"abd"]
    assert list(db.keys(prefix=b"ab", start=b"b")) == []


def test_keys_only_and_values_only_exclude_each_other(db):
    with pytest.raises(strata.InvalidArgument, match="exclude"):
        db.iterator(keys_only=True, values_only=True)


def test_iterator_sees_flushed_and_memtable_data(db):
    _fill(db, [b"%03d" % i for i in range(0, 100, 2)])
    db.flush()
    _fill(db, [b"%03d" % i for i in range(1, 100, 2)])
    db.delete(b"050")
    keys = list(db.keys())
    assert len(keys) == 99 and b"050" not in keys
    assert keys == sorted(keys)


def test_iterator_close_and_context_manager(db):
    _fill(db, [b"a", b"b", b"c"])
    it = db.iterator()
    assert next(it) == (b"a", b"v-a")
    it.close()
    assert list(it) == []
    with db.iterator(reverse=True) as it2:
        assert next(it2)[0] == b"c"
    assert list(it2) == []


def test_iterator_is_a_point_in_time_view(db):
    _fill(db, [b"a", b"b"])
    it = db.iterator()
    db.put(b"c", b"new")
    db.delete(b"b")
    assert [k for k, _ in it] == [b"a", b"b"]


def test_raw_iterator_moves(db):
    _fill(db, [b"b", b"d", b"f"])
    it = db.raw_iterator()
    assert not it.valid()
    it.seek_to_first()
    assert it.valid() and it.key() == b"b" and it.value() == b"v-b"
    it.next()
    assert it.key() == b"d"
    it.prev()
    assert it.key() == b"b"
    it.prev()
    assert not it.valid()
    it.seek_to_last()
    assert it.item() == (b"f", b"v-f")
    it.next()
    assert not it.valid()
    it.seek(b"c")
    assert it.key() == b"d"
    it.seek(b"d")
    assert it.key() == b"d"
    it.seek(b"g")
    assert not it.valid()
    it.seek_for_prev(b"e")
    assert it.key() == b"d"
    it.seek_for_prev(b"d")
    assert it.key() == b"d"
    it.seek_for_prev(b"a")
    assert not it.valid()
    it.seek("b")
    assert it.key() == b"b"
    it.status()
    it.close()
    it.close()
    with pytest.raises(strata.InvalidArgument, match="iterator is closed"):
        it.seek_to_first()


def test_raw_iterator_invalid_use_raises(db):
    _fill(db, [b"a"])
    with db.raw_iterator() as it:
        for op in (it.next, it.prev, it.key, it.value):
            with pytest.raises(strata.InvalidArgument, match="not valid"):
                op()
        it.seek(b"b")
        assert not it.valid()
        with pytest.raises(strata.InvalidArgument, match=r"next\(\): the iterator is not valid"):
            it.next()
    assert it.closed


def test_raw_iterator_bounds(db):
    _fill(db, [b"%d" % i for i in range(10)])
    with db.raw_iterator(lower_bound=b"3", upper_bound=b"6") as it:
        it.seek_to_first()
        assert it.key() == b"3"
        it.seek_to_last()
        assert it.key() == b"5"
        it.next()
        assert not it.valid()
        it.seek(b"0")
        assert it.key() == b"3"
        it.seek_for_prev(b"9")
        assert it.key() == b"5"
        it.seek(b"7")
        assert not it.valid()


def test_db_close_closes_open_iterators(path):
    db = strata.DB(path)
    _fill(db, [b"a", b"b"])
    it = db.raw_iterator()
    it.seek_to_first()
    py_it = db.iterator()
    next(py_it)
    db.close()
    assert it.closed
    with pytest.raises(strata.InvalidArgument, match="closed"):
        it.next()
    with pytest.raises(strata.InvalidArgument, match="iterator is closed"):
        next(py_it)


def test_iterator_of_other_family(path):
    with strata.DB(path) as db:
        db.create_column_family("x")
        db.put(b"k", b"default")
        db.put(b"kx", b"x", cf="x")
        assert list(db.items(cf="x")) == [(b"kx", b"x")]
        assert list(db.items()) == [(b"k", b"default")]
        with db.raw_iterator(cf="x") as it:
            it.seek_to_first()
            assert it.key() == b"kx"


def _model_range(model, prefix, start, stop, reverse):
    out = []
    for k in sorted(model):
        if prefix is not None and not k.startswith(prefix):
            continue
        if start is not None and k < start:
            continue
        if stop is not None and k >= stop:
            continue
        out.append((k, model[k]))
    return out[::-1] if reverse else out


def _rand_key(rng):
    alphabet = b"\x00\x01abc\xfe\xff"
    return bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 4)))


def test_randomized_iteration_against_dict(path, rng):
    model = {}
    with strata.DB(path, write_buffer_size=64 << 10) as db:
        for step in range(3000):
            k = _rand_key(rng)
            op = rng.random()
            if op < 0.6:
                v = bytes(rng.randrange(256) for _ in range(rng.randint(0, 20)))
                db.put(k, v)
                model[k] = v
            elif op < 0.85:
                db.delete(k)
                model.pop(k, None)
            elif op < 0.9:
                with db.write_batch() as b:
                    for _ in range(rng.randint(1, 10)):
                        bk = _rand_key(rng)
                        if rng.random() < 0.7:
                            b.put(bk, bk * 2)
                            model[bk] = bk * 2
                        else:
                            b.delete(bk)
                            model.pop(bk, None)
            elif op < 0.91:
                db.flush()
            if step % 100 == 0:
                for _ in range(5):
                    prefix = _rand_key(rng) if rng.random() < 0.3 else None
                    start = _rand_key(rng) if rng.random() < 0.5 else None
                    stop = _rand_key(rng) if rng.random() < 0.5 else None
                    reverse = rng.random() < 0.5
                    got = list(db.iterator(prefix=prefix, start=start, stop=stop, reverse=reverse))
                    assert got == _model_range(model, prefix, start, stop, reverse), (
                        step, prefix, start, stop, reverse)
        # Both directions over the whole range, and point reads of every key.
        assert list(db.iterator()) == sorted(model.items())
        assert list(db.iterator(reverse=True)) == sorted(model.items(), reverse=True)
        for k, v in model.items():
            assert db.get(k) == v
        # Raw iterator: seek / seek_for_prev to random targets, then walk.
        ordered = sorted(model)
        with db.raw_iterator() as it:
            for _ in range(300):
                target = _rand_key(rng)
                if rng.random() < 0.5:
                    it.seek(target)
                    expect = [k for k in ordered if k >= target]
                    step_fn = it.next
                else:
                    it.seek_for_prev(target)
                    expect = [k for k in ordered if k <= target][::-1]
                    step_fn = it.prev
                walked = []
                while it.valid() and len(walked) < 5:
                    walked.append(it.key())
                    assert it.value() == model[it.key()]
                    step_fn()
                assert walked == expect[:5], (target, walked, expect[:5])
            # Direction changes mid-walk.
            if ordered:
                it.seek_to_first()
                pos = 0
                for _ in range(200):
                    if rng.random() < 0.5:
                        it.next()
                        pos += 1
                    else:
                        it.prev()
                        pos -= 1
                    if 0 <= pos < len(ordered):
                        assert it.valid() and it.key() == ordered[pos]
                    else:
                        assert not it.valid()
                        it.seek_to_first() if pos < 0 else it.seek_to_last()
                        pos = 0 if pos < 0 else len(ordered) - 1
    # And after a reopen.
    with strata.DB(path) as db:
        assert list(db.iterator()) == sorted(model.items())
        assert list(db.iterator(reverse=True)) == sorted(model.items(), reverse=True)
