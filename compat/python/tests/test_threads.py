"""One DB used from several threads at once (ctypes releases the GIL around
each C call, so the calls really overlap)."""

import threading

import strata


def test_threads_write_and_read(path):
    n_threads, n_keys = 4, 1500
    errors = []
    with strata.DB(path, write_buffer_size=256 << 10) as db:

        def writer(t):
            try:
                for i in range(n_keys):
                    k = b"t%d-%05d" % (t, i)
                    db.put(k, b"v%d" % i)
                    assert db.get(k) == b"v%d" % i
                    if i % 3 == 0:
                        db.delete(k)
                        assert db.get(k) is None
                    if i % 500 == 0:
                        with db.write_batch() as b:
                            b.put(b"batch-%d-%d" % (t, i), b"x")
            except Exception as e:  # reported below: asserts in threads are lost
                errors.append(e)

        def reader():
            try:
                for _ in range(30):
                    keys = list(db.keys())
                    assert keys == sorted(keys)
            except Exception as e:
                errors.append(e)

        threads = [threading.Thread(target=writer, args=(t,)) for t in range(n_threads)]
        threads.append(threading.Thread(target=reader))
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert errors == []
        expect = {}
        for t in range(n_threads):
            for i in range(n_keys):
                if i % 3 != 0:
                    expect[b"t%d-%05d" % (t, i)] = b"v%d" % i
            for i in range(0, n_keys, 500):
                expect[b"batch-%d-%d" % (t, i)] = b"x"
        assert list(db.items()) == sorted(expect.items())
