"""DB, column families, snapshots, write batches and iterators over the C API.

Keys and values are bytes; a str is accepted and encoded as UTF-8 (bytearray
and memoryview are copied to bytes). Results are always bytes.

Lifetime: every C object (the DB, its column family handles, snapshots,
iterators, options, batches) belongs to exactly one Python object, which
frees it in close() -- or on leaving its ``with`` block -- and in __del__ as a
fallback. Closing a DB first closes the iterators and snapshots still open
on it and its column family handles, because the C library forbids them to
outlive the DB. Using a closed object raises InvalidArgument.

Thread-safety: a DB may be used from several threads at once (the C library
is thread-safe and ctypes releases the GIL around each call), except that
close() must not run while another thread uses the DB. Iterators, snapshots
and write batches are for one thread at a time.
"""

import ctypes
import weakref

from strata import _lib
from strata._options import Options
from strata.errors import InvalidArgument, NotSupported, check

_DEFAULT = "default"


def _bytes(v, what):
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, (bytearray, memoryview)):
        return bytes(v)
    raise TypeError("%s must be bytes or str, not %s" % (what, type(v).__name__))


def _err():
    return ctypes.c_void_p()


def _take_string(lib, ptr, length):
    """Copies ``length`` bytes at a malloc()ed ``ptr`` and frees it."""
    try:
        return ctypes.string_at(ptr, length)
    finally:
        lib.rocksdb_free(ptr)


def _prefix_successor(prefix):
    """The smallest key greater than every key that starts with prefix, or
    None when there is none (the prefix is empty or all 0xff)."""
    b = bytearray(prefix)
    while b and b[-1] == 0xFF:
        b.pop()
    if not b:
        return None
    b[-1] += 1
    return bytes(b)


def destroy(path, **options):
    """Deletes the database at ``path`` and its files (rocksdb_destroy_db)."""
    lib = _lib.load()
    opts = Options(lib, options)
    try:
        err = _err()
        lib.rocksdb_destroy_db(opts.ptr, _path(path), ctypes.byref(err))
        check(lib, err, "destroy %s" % path)
    finally:
        opts.close()


def repair(path, **options):
    """Rebuilds the metadata of the database at ``path`` from its files
    (rocksdb_repair_db); data in corrupt files may be lost."""
    lib = _lib.load()
    opts = Options(lib, options)
    try:
        err = _err()
        lib.rocksdb_repair_db(opts.ptr, _path(path), ctypes.byref(err))
        check(lib, err, "repair %s" % path)
    finally:
        opts.close()


def list_column_families(path, **options):
    """The names of the column families of the database at ``path``."""
    lib = _lib.load()
    opts = Options(lib, options)
    try:
        return _list_column_families(lib, opts, path)
    finally:
        opts.close()


def _list_column_families(lib, opts, path):
    err = _err()
    n = ctypes.c_size_t()
    arr = lib.rocksdb_list_column_families(opts.ptr, _path(path), ctypes.byref(n), ctypes.byref(err))
    if err.value:
        if arr:
            lib.rocksdb_list_column_families_destroy(arr, n.value)
        check(lib, err, "list column families of %s" % path)
    names = []
    if arr:
        ptrs = ctypes.cast(arr, ctypes.POINTER(ctypes.c_char_p))
        try:
            for i in range(n.value):
                names.append(ptrs[i].decode("utf-8"))
        finally:
            lib.rocksdb_list_column_families_destroy(arr, n.value)
    return names


class _Resource:
    """One C object of a DB (an iterator, a snapshot) and how to free it.

    The DB holds its open resources strongly and the Python object holds
    its own; whichever closes first frees the C object, exactly once. The
    record refers to neither, so when a DB and its children die together in
    a reference cycle -- where the collector clears weak references and runs
    finalizers in no set order -- the DB still finds and frees them before it
    closes, and a child finalized afterwards finds nothing left to free.
    """

    __slots__ = ("ptr", "cf", "_free")

    def __init__(self, ptr, free, cf=None):
        self.ptr = ptr
        self.cf = cf
        self._free = free

    def free(self):
        ptr, self.ptr = self.ptr, None
        if ptr:
            self._free(ptr)


def _path(path):
    if isinstance(path, bytes):
        return path
    import os

    return os.fsencode(path)


class ColumnFamily:
    """A handle on one column family of an open DB.

    Obtained from ``db.column_families[name]`` or create_column_family();
    valid until the family is dropped or the DB is closed.
    """

    def __init__(self, db, name, handle):
        self._db = weakref.ref(db)
        self.name = name
        self._handle = handle
        self.dropped = False

    @property
    def id(self):
        handle = self._live()
        db = self._db()
        if db is None:
            raise InvalidArgument("column family %r: its DB is gone" % self.name)
        return db._lib.rocksdb_column_family_handle_get_id(handle)

    def _live(self):
        if self.dropped:
            raise InvalidArgument("column family %r was dropped" % self.name)
        if not self._handle:
            raise InvalidArgument("column family %r: its DB is closed" % self.name)
        return self._handle

    def _destroy(self, lib):
        if self._handle:
            lib.rocksdb_column_family_handle_destroy(self._handle)
            self._handle = None

    def __repr__(self):
        state = " dropped" if self.dropped else ""
        return "<strata.ColumnFamily %r%s>" % (self.name, state)


class Snapshot:
    """A consistent read view of a DB; pass it as ``snapshot=`` to get(),
    multi_get() and iterator(), or call its own get() and iterator().

    Released by release()/close(), on leaving its ``with`` block, when its
    DB closes, or in __del__.
    """

    def __init__(self, db):
        self._db = db
        self._lib = lib = db._lib
        db_ptr = db._live()
        ptr = lib.rocksdb_create_snapshot(db_ptr)
        if not ptr:
            raise NotSupported("rocksdb_create_snapshot returned NULL (%s)" % lib.path)
        self._res = _Resource(ptr, lambda p: lib.rocksdb_release_snapshot(db_ptr, p))
        db._children.add(self._res)

    def _live(self):
        if not self._res.ptr:
            raise InvalidArgument("the snapshot was released")
        return self._res.ptr

    @property
    def released(self):
        return not self._res.ptr

    def get(self, key, cf=None):
        return self._db.get(key, cf=cf, snapshot=self)

    def iterator(self, **kwargs):
        return self._db.iterator(snapshot=self, **kwargs)

    def release(self):
        res = getattr(self, "_res", None)
        if res is not None:
            self._db._children.discard(res)
            res.free()

    close = release

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()
        return False

    def __del__(self):
        try:
            self.release()
        except Exception:
            pass


class WriteBatch:
    """Writes applied atomically by DB.write(); a batch may be written more
    than once and reused after clear().

    put/delete/merge/delete_range take ``cf=`` (a ColumnFamily; a family
    name works only for a batch made by db.write_batch()).
    """

    def __init__(self, db=None):
        self._lib = _lib.load()
        self._db = db
        self._ptr = self._lib.rocksdb_writebatch_create()
        if not self._ptr:
            raise MemoryError("rocksdb_writebatch_create returned NULL")

    def _live(self):
        if not self._ptr:
            raise InvalidArgument("the write batch is closed")
        return self._ptr

    def _cf(self, cf):
        if isinstance(cf, ColumnFamily):
            return cf._live()
        if cf is None or isinstance(cf, str):
            if self._db is None:
                if cf is None:
                    return None
                raise InvalidArgument(
                    "write batch: column family %r given by name; pass a ColumnFamily "
                    "(a standalone WriteBatch is not tied to a DB)" % cf
                )
            return self._db._cf(cf)
        raise TypeError("cf must be a ColumnFamily, a name or None, not %s" % type(cf).__name__)

    def put(self, key, value, cf=None):
        k = _bytes(key, "key")
        v = _bytes(value, "value")
        ptr = self._live()
        h = self._cf(cf)
        if h is None:
            self._lib.rocksdb_writebatch_put(ptr, k, len(k), v, len(v))
        else:
            self._lib.rocksdb_writebatch_put_cf(ptr, h, k, len(k), v, len(v))

    def delete(self, key, cf=None):
        k = _bytes(key, "key")
        ptr = self._live()
        h = self._cf(cf)
        if h is None:
            self._lib.rocksdb_writebatch_delete(ptr, k, len(k))
        else:
            self._lib.rocksdb_writebatch_delete_cf(ptr, h, k, len(k))

    def delete_range(self, start, stop, cf=None):
        """Deletes every key in [start, stop)."""
        s = _bytes(start, "start")
        e = _bytes(stop, "stop")
        ptr = self._live()
        h = self._cf(cf)
        if h is None:
            self._lib.rocksdb_writebatch_delete_range(ptr, s, len(s), e, len(e))
        else:
            self._lib.rocksdb_writebatch_delete_range_cf(ptr, h, s, len(s), e, len(e))

    def merge(self, key, value, cf=None):
        """A merge operand for key; the DB it is written to must have a merge
        operator (see DB.merge)."""
        k = _bytes(key, "key")
        v = _bytes(value, "value")
        ptr = self._live()
        if self._db is not None:
            self._db._check_merge()
        h = self._cf(cf)
        if h is None:
            self._lib.rocksdb_writebatch_merge(ptr, k, len(k), v, len(v))
        else:
            self._lib.rocksdb_writebatch_merge_cf(ptr, h, k, len(k), v, len(v))

    def clear(self):
        self._lib.rocksdb_writebatch_clear(self._live())

    def count(self):
        return self._lib.rocksdb_writebatch_count(self._live())

    __len__ = count

    def close(self):
        if self._ptr:
            ptr, self._ptr = self._ptr, None
            self._lib.rocksdb_writebatch_destroy(ptr)

    @property
    def closed(self):
        return not self._ptr

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class _BatchContext:
    """db.write_batch(): yields a WriteBatch, writes it when the block ends
    normally, discards it when the block raises."""

    def __init__(self, db, sync, disable_wal):
        self._db = db
        self._sync = sync
        self._disable_wal = disable_wal
        self._batch = None

    def __enter__(self):
        self._db._live()
        self._batch = WriteBatch(self._db)
        return self._batch

    def __exit__(self, exc_type, exc, tb):
        batch, self._batch = self._batch, None
        try:
            if exc_type is None:
                self._db.write(batch, sync=self._sync, disable_wal=self._disable_wal)
        finally:
            batch.close()
        return False


class RawIterator:
    """A cursor over one column family, as the C API gives it.

    After any positioning call, valid() says whether it is on an entry;
    key(), value(), next() and prev() need a valid iterator and raise
    InvalidArgument otherwise. A positioning call that ends invalid because
    of an I/O or corruption error raises that error.

    ``lower_bound`` (inclusive) and ``upper_bound`` (exclusive) limit the
    keys it sees, as ReadOptions' iterate bounds do.
    """

    def __init__(self, db, cf=None, snapshot=None, lower_bound=None, upper_bound=None,
                 fill_cache=True, verify_checksums=True):
        self._db = db
        self._lib = lib = db._lib
        self._res = _Resource(None, None)
        self._snapshot = snapshot  # keeps it referenced while we read it
        # The read options and the bound buffers are borrowed by the C
        # iterator for its whole life: they are kept here and released after it.
        self._lower = None if lower_bound is None else _bytes(lower_bound, "lower_bound")
        self._upper = None if upper_bound is None else _bytes(upper_bound, "upper_bound")
        handle = db._cf(cf)
        db_ptr = db._live()
        if snapshot is not None:
            if not isinstance(snapshot, Snapshot):
                raise TypeError("snapshot must be a Snapshot, not %s" % type(snapshot).__name__)
            if snapshot._db is not db:
                raise InvalidArgument("the snapshot belongs to another DB")
            snap_ptr = snapshot._live()
        ropts = lib.rocksdb_readoptions_create()
        try:
            if snapshot is not None:
                lib.rocksdb_readoptions_set_snapshot(ropts, snap_ptr)
            if self._lower is not None:
                lib.rocksdb_readoptions_set_iterate_lower_bound(ropts, self._lower, len(self._lower))
            if self._upper is not None:
                lib.rocksdb_readoptions_set_iterate_upper_bound(ropts, self._upper, len(self._upper))
            if not fill_cache:
                lib.rocksdb_readoptions_set_fill_cache(ropts, 0)
            if not verify_checksums:
                lib.rocksdb_readoptions_set_verify_checksums(ropts, 0)
            ptr = lib.rocksdb_create_iterator_cf(db_ptr, ropts, handle)
            if not ptr:
                raise NotSupported("rocksdb_create_iterator_cf returned NULL (%s)" % lib.path)
        except BaseException:
            lib.rocksdb_readoptions_destroy(ropts)
            raise
        # The bound buffers are captured so they live as long as the C iterator.
        bounds = (self._lower, self._upper)

        def free(p, bounds=bounds):
            lib.rocksdb_iter_destroy(p)
            lib.rocksdb_readoptions_destroy(ropts)

        self._res = _Resource(ptr, free, cf=handle)
        db._children.add(self._res)

    def _live(self):
        ptr = self._res.ptr
        if not ptr:
            raise InvalidArgument("the iterator is closed")
        return ptr

    def _after_move(self):
        ptr = self._res.ptr
        if not self._lib.rocksdb_iter_valid(ptr):
            err = _err()
            self._lib.rocksdb_iter_get_error(ptr, ctypes.byref(err))
            check(self._lib, err, "iterator")

    def _need_valid(self, what):
        ptr = self._live()
        if not self._lib.rocksdb_iter_valid(ptr):
            raise InvalidArgument("iterator %s: the iterator is not valid" % what)
        return ptr

    def valid(self):
        return bool(self._lib.rocksdb_iter_valid(self._live()))

    def seek_to_first(self):
        self._lib.rocksdb_iter_seek_to_first(self._live())
        self._after_move()

    def seek_to_last(self):
        self._lib.rocksdb_iter_seek_to_last(self._live())
        self._after_move()

    def seek(self, target):
        """Moves to the first key >= target."""
        t = _bytes(target, "target")
        self._lib.rocksdb_iter_seek(self._live(), t, len(t))
        self._after_move()

    def seek_for_prev(self, target):
        """Moves to the last key <= target."""
        t = _bytes(target, "target")
        self._lib.rocksdb_iter_seek_for_prev(self._live(), t, len(t))
        self._after_move()

    def next(self):
        self._lib.rocksdb_iter_next(self._need_valid("next()"))
        self._after_move()

    def prev(self):
        self._lib.rocksdb_iter_prev(self._need_valid("prev()"))
        self._after_move()

    def key(self):
        ptr = self._need_valid("key()")
        n = ctypes.c_size_t()
        p = self._lib.rocksdb_iter_key(ptr, ctypes.byref(n))
        return ctypes.string_at(p, n.value) if n.value else b""

    def value(self):
        ptr = self._need_valid("value()")
        n = ctypes.c_size_t()
        p = self._lib.rocksdb_iter_value(ptr, ctypes.byref(n))
        return ctypes.string_at(p, n.value) if n.value else b""

    def item(self):
        return self.key(), self.value()

    def status(self):
        """Raises the iterator's error, if it has one."""
        err = _err()
        self._lib.rocksdb_iter_get_error(self._live(), ctypes.byref(err))
        check(self._lib, err, "iterator")

    def close(self):
        res = getattr(self, "_res", None)
        if res is not None:
            self._db._children.discard(res)
            res.free()
        self._snapshot = None

    @property
    def closed(self):
        return not self._res.ptr

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Iterator:
    """db.iterator(...): a Python iterator of (key, value) pairs, in key
    order (reversed with reverse=True), closing its cursor when exhausted,
    on close(), on leaving its ``with`` block, or in __del__. After close()
    it yields nothing; if its DB is closed first, next() raises
    InvalidArgument."""

    def __init__(self, db, prefix=None, start=None, stop=None, reverse=False,
                 snapshot=None, cf=None, keys_only=False, values_only=False,
                 fill_cache=True):
        if keys_only and values_only:
            raise InvalidArgument("iterator: keys_only and values_only exclude each other")
        lower = None if start is None else _bytes(start, "start")
        upper = None if stop is None else _bytes(stop, "stop")
        if prefix is not None:
            p = _bytes(prefix, "prefix")
            if lower is None or p > lower:
                lower = p
            succ = _prefix_successor(p)
            if succ is not None and (upper is None or succ < upper):
                upper = succ
        self._empty = lower is not None and upper is not None and lower >= upper
        self._raw = RawIterator(db, cf=cf, snapshot=snapshot, lower_bound=lower,
                                upper_bound=upper, fill_cache=fill_cache)
        self._reverse = reverse
        self._keys_only = keys_only
        self._values_only = values_only
        self._started = False
        self._done = False

    def __iter__(self):
        return self

    def __next__(self):
        if self._done:
            raise StopIteration
        raw = self._raw
        if not self._started:
            self._started = True
            if self._empty:
                self.close()
                raise StopIteration
            if self._reverse:
                raw.seek_to_last()
            else:
                raw.seek_to_first()
        elif self._reverse:
            raw.prev()
        else:
            raw.next()
        # A cursor closed under us (its DB was closed) raises here.
        if not raw.valid():
            self.close()
            raise StopIteration
        if self._keys_only:
            return raw.key()
        if self._values_only:
            return raw.value()
        return raw.key(), raw.value()

    def close(self):
        self._done = True
        self._raw.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class DB:
    """An open database.

    DB(path, create_if_missing=True, column_families=None,
       create_missing_column_families=False, read_only=False, **options)

    ``column_families``: None opens every family the database has (only
    "default" for a new one); a list of names opens "default" and those
    names (a family that exists but is not named is an error of the
    library). ``options``: see strata._options.OPTIONS; an unknown one is
    refused with InvalidArgument.
    """

    def __init__(self, path, create_if_missing=True, column_families=None,
                 create_missing_column_families=False, read_only=False, **options):
        self._ptr = None
        self._opts = None
        self._cfs = {}
        self._children = set()  # _Resource of each open iterator and snapshot
        self._wopts = {}
        self._ropts = None
        self.path = path
        self._lib = lib = _lib.load()
        options = dict(options)
        options["create_if_missing"] = create_if_missing
        options["create_missing_column_families"] = create_missing_column_families
        self._opts = opts = Options(lib, options)
        self.merge_operator = opts.merge_operator
        self.read_only = bool(read_only)
        try:
            if column_families is None:
                try:
                    names = _list_column_families(lib, opts, path)
                except Exception:
                    names = []  # no database yet: let open report or create it
            else:
                if isinstance(column_families, (str, bytes)):
                    raise TypeError("column_families must be a list of names, not a string")
                names = []
                for n in column_families:
                    if not isinstance(n, str):
                        raise TypeError("column family names must be str, not %s" % type(n).__name__)
                    names.append(n)
            if _DEFAULT not in names:
                names.insert(0, _DEFAULT)
            if len(set(names)) != len(names):
                raise InvalidArgument("column_families names a family twice: %r" % (names,))
            self._open(path, names)
            self._ropts = lib.rocksdb_readoptions_create()
        except BaseException:
            self.close()
            raise

    def _open(self, path, names):
        lib = self._lib
        n = len(names)
        encoded = [nm.encode("utf-8") for nm in names]
        c_names = (ctypes.c_char_p * n)(*encoded)
        c_opts = (ctypes.c_void_p * n)(*([self._opts.ptr] * n))
        handles = (ctypes.c_void_p * n)()
        err = _err()
        if self.read_only:
            db = lib.rocksdb_open_for_read_only_column_families(
                self._opts.ptr, _path(path), n, c_names, c_opts, handles, 0, ctypes.byref(err))
        else:
            db = lib.rocksdb_open_column_families(
                self._opts.ptr, _path(path), n, c_names, c_opts, handles, ctypes.byref(err))
        check(lib, err, "open %s" % (path,))
        if not db:
            raise InvalidArgument("open %s: the library returned no DB and no error" % (path,))
        self._ptr = db
        for nm, h in zip(names, handles):
            self._cfs[nm] = ColumnFamily(self, nm, h)

    # ---- lifetime ----

    def _live(self):
        if not self._ptr:
            raise InvalidArgument("the DB at %s is closed" % (self.path,))
        return self._ptr

    @property
    def closed(self):
        return not self._ptr

    def close(self):
        """Closes open iterators and snapshots, then the DB. Idempotent."""
        lib = getattr(self, "_lib", None)
        if lib is None:
            return
        # Iterators before snapshots: an iterator may read at a snapshot.
        children = list(self._children)
        self._children = set()
        for res in children:
            if res.cf is not None:
                res.free()
        for res in children:
            res.free()
        for cf in self._cfs.values():
            cf._destroy(lib)
        if self._ptr:
            ptr, self._ptr = self._ptr, None
            lib.rocksdb_close(ptr)
        if self._ropts:
            lib.rocksdb_readoptions_destroy(self._ropts)
            self._ropts = None
        for w in self._wopts.values():
            lib.rocksdb_writeoptions_destroy(w)
        self._wopts = {}
        if self._opts is not None:
            self._opts.close()
            self._opts = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        return "<strata.DB %r%s>" % (self.path, " closed" if self.closed else "")

    # ---- helpers ----

    def _cf(self, cf):
        """The C handle for cf: None (the default family), a name or a
        ColumnFamily of this DB."""
        if cf is None:
            cf = _DEFAULT
        if isinstance(cf, str):
            fam = self._cfs.get(cf)
            if fam is None:
                raise InvalidArgument("no column family %r is open in %s" % (cf, self.path))
            return fam._live()
        if isinstance(cf, ColumnFamily):
            if cf._db() is not self:
                raise InvalidArgument("column family %r belongs to another DB" % cf.name)
            return cf._live()
        raise TypeError("cf must be a ColumnFamily, a name or None, not %s" % type(cf).__name__)

    def _write_options(self, sync, disable_wal):
        key = (bool(sync), bool(disable_wal))
        w = self._wopts.get(key)
        if w is None:
            w = self._lib.rocksdb_writeoptions_create()
            self._lib.rocksdb_writeoptions_set_sync(w, 1 if sync else 0)
            if disable_wal:
                self._lib.rocksdb_writeoptions_disable_WAL(w, 1)
            self._wopts[key] = w
        return w

    def _read_call(self, snapshot, fn):
        """Runs fn(read_options) with the snapshot set, if any."""
        if snapshot is None:
            return fn(self._ropts)
        if not isinstance(snapshot, Snapshot):
            raise TypeError("snapshot must be a Snapshot, not %s" % type(snapshot).__name__)
        if snapshot._db is not self:
            raise InvalidArgument("the snapshot belongs to another DB")
        lib = self._lib
        ro = lib.rocksdb_readoptions_create()
        try:
            lib.rocksdb_readoptions_set_snapshot(ro, snapshot._live())
            return fn(ro)
        finally:
            lib.rocksdb_readoptions_destroy(ro)

    def _check_merge(self):
        if self.merge_operator is None:
            raise InvalidArgument(
                "merge: the DB at %s was opened without a merge operator "
                "(open it with merge_operator='uint64add')" % (self.path,))

    # ---- writes ----

    def put(self, key, value, cf=None, sync=False, disable_wal=False):
        k = _bytes(key, "key")
        v = _bytes(value, "value")
        h = self._cf(cf)
        err = _err()
        self._lib.rocksdb_put_cf(self._live(), self._write_options(sync, disable_wal), h,
                                 k, len(k), v, len(v), ctypes.byref(err))
        check(self._lib, err, "put")

    def delete(self, key, cf=None, sync=False, disable_wal=False):
        k = _bytes(key, "key")
        h = self._cf(cf)
        err = _err()
        self._lib.rocksdb_delete_cf(self._live(), self._write_options(sync, disable_wal), h,
                                    k, len(k), ctypes.byref(err))
        check(self._lib, err, "delete")

    def delete_range(self, start, stop, cf=None, sync=False, disable_wal=False):
        """Deletes every key in [start, stop)."""
        s = _bytes(start, "start")
        e = _bytes(stop, "stop")
        h = self._cf(cf)
        err = _err()
        self._lib.rocksdb_delete_range_cf(self._live(), self._write_options(sync, disable_wal), h,
                                          s, len(s), e, len(e), ctypes.byref(err))
        check(self._lib, err, "delete_range")

    def merge(self, key, value, cf=None, sync=False, disable_wal=False):
        """Applies the DB's merge operator (chosen by name at open: only
        'uint64add', whose operands are 8-byte little-endian integers)."""
        self._check_merge()
        k = _bytes(key, "key")
        v = _bytes(value, "value")
        h = self._cf(cf)
        err = _err()
        self._lib.rocksdb_merge_cf(self._live(), self._write_options(sync, disable_wal), h,
                                   k, len(k), v, len(v), ctypes.byref(err))
        check(self._lib, err, "merge")

    def write(self, batch, sync=False, disable_wal=False):
        if not isinstance(batch, WriteBatch):
            raise TypeError("write() takes a WriteBatch, not %s" % type(batch).__name__)
        err = _err()
        self._lib.rocksdb_write(self._live(), self._write_options(sync, disable_wal),
                                batch._live(), ctypes.byref(err))
        check(self._lib, err, "write")

    def write_batch(self, sync=False, disable_wal=False):
        """A context manager giving a WriteBatch that is written when the
        block ends normally and discarded when it raises."""
        return _BatchContext(self, sync, disable_wal)

    # ---- reads ----

    def get(self, key, default=None, cf=None, snapshot=None):
        """The value of key, or ``default`` (None) when there is none."""
        k = _bytes(key, "key")
        h = self._cf(cf)
        db = self._live()
        lib = self._lib

        def call(ro):
            n = ctypes.c_size_t()
            err = _err()
            p = lib.rocksdb_get_cf(db, ro, h, k, len(k), ctypes.byref(n), ctypes.byref(err))
            if err.value:
                if p:
                    lib.rocksdb_free(p)
                check(lib, err, "get")
            if not p:
                return default
            return _take_string(lib, p, n.value)

        return self._read_call(snapshot, call)

    def multi_get(self, keys, cf=None, snapshot=None):
        """A list of values (None where a key has none), in keys' order."""
        ks = [_bytes(k, "key") for k in keys]
        n = len(ks)
        if n == 0:
            return []
        h = self._cf(cf)
        db = self._live()
        lib = self._lib
        c_keys = (ctypes.c_char_p * n)(*ks)
        c_sizes = (ctypes.c_size_t * n)(*[len(k) for k in ks])
        c_cfs = (ctypes.c_void_p * n)(*([h] * n))

        def call(ro):
            vals = (ctypes.c_void_p * n)()
            vsizes = (ctypes.c_size_t * n)()
            errs = (ctypes.c_void_p * n)()
            lib.rocksdb_multi_get_cf(db, ro, c_cfs, n, c_keys, c_sizes, vals, vsizes, errs)
            out = []
            first_err = None
            for i in range(n):
                if errs[i]:
                    e = ctypes.c_void_p(errs[i])
                    try:
                        check(lib, e, "multi_get key %r" % ks[i])
                    except Exception as exc:
                        if first_err is None:
                            first_err = exc
                if vals[i]:
                    out.append(_take_string(lib, vals[i], vsizes[i]))
                else:
                    out.append(None)
            if first_err is not None:
                raise first_err
            return out

        return self._read_call(snapshot, call)

    def __getitem__(self, key):
        v = self.get(key)
        if v is None:
            raise KeyError(key)
        return v

    def __setitem__(self, key, value):
        self.put(key, value)

    def __delitem__(self, key):
        self.delete(key)

    def __contains__(self, key):
        return self.get(key) is not None

    def iterator(self, prefix=None, start=None, stop=None, reverse=False, snapshot=None,
                 cf=None, keys_only=False, values_only=False, fill_cache=True):
        """(key, value) pairs with start <= key < stop and key starting with
        prefix, ascending or (reverse=True) descending."""
        return Iterator(self, prefix=prefix, start=start, stop=stop, reverse=reverse,
                        snapshot=snapshot, cf=cf, keys_only=keys_only,
                        values_only=values_only, fill_cache=fill_cache)

    def keys(self, **kwargs):
        return self.iterator(keys_only=True, **kwargs)

    def values(self, **kwargs):
        return self.iterator(values_only=True, **kwargs)

    def items(self, **kwargs):
        return self.iterator(**kwargs)

    def raw_iterator(self, cf=None, snapshot=None, lower_bound=None, upper_bound=None,
                     fill_cache=True):
        return RawIterator(self, cf=cf, snapshot=snapshot, lower_bound=lower_bound,
                           upper_bound=upper_bound, fill_cache=fill_cache)

    def snapshot(self):
        """A Snapshot of the DB now; usable as a context manager."""
        return Snapshot(self)

    # ---- column families ----

    @property
    def column_families(self):
        """{name: ColumnFamily} of the open families (a copy)."""
        self._live()
        return dict(self._cfs)

    def column_family(self, name):
        self._live()
        fam = self._cfs.get(name)
        if fam is None:
            raise InvalidArgument("no column family %r is open in %s" % (name, self.path))
        return fam

    def create_column_family(self, name):
        if not isinstance(name, str):
            raise TypeError("a column family name must be str, not %s" % type(name).__name__)
        if name in self._cfs:
            raise InvalidArgument("column family %r is already open in %s" % (name, self.path))
        err = _err()
        h = self._lib.rocksdb_create_column_family(self._live(), self._opts.ptr,
                                                   name.encode("utf-8"), ctypes.byref(err))
        if err.value and h:
            self._lib.rocksdb_column_family_handle_destroy(h)
        check(self._lib, err, "create_column_family %r" % name)
        fam = ColumnFamily(self, name, h)
        self._cfs[name] = fam
        return fam

    def drop_column_family(self, cf):
        """Drops a family (by name or ColumnFamily); its handle becomes unusable."""
        name = cf.name if isinstance(cf, ColumnFamily) else cf
        h = self._cf(cf)
        if name == _DEFAULT:
            raise InvalidArgument("the default column family cannot be dropped")
        fam = self._cfs[name]
        for res in list(self._children):
            if res.cf == h:
                self._children.discard(res)
                res.free()
        err = _err()
        self._lib.rocksdb_drop_column_family(self._live(), h, ctypes.byref(err))
        check(self._lib, err, "drop_column_family %r" % name)
        fam._destroy(self._lib)
        fam.dropped = True
        del self._cfs[name]

    # ---- maintenance ----

    def get_property(self, name, cf=None):
        """The property's value as str ("rocksdb.stats", "rocksdb.estimate-num-keys",
        ...), or None when the library does not know the name."""
        if not isinstance(name, str):
            raise TypeError("a property name must be str, not %s" % type(name).__name__)
        h = self._cf(cf)
        p = self._lib.rocksdb_property_value_cf(self._live(), h, name.encode("utf-8"))
        if not p:
            return None
        try:
            return ctypes.string_at(p).decode("utf-8", "replace")
        finally:
            self._lib.rocksdb_free(p)

    def compact_range(self, start=None, stop=None, cf=None):
        """Compacts the keys in [start, stop] (None: unbounded on that side)."""
        s = None if start is None else _bytes(start, "start")
        e = None if stop is None else _bytes(stop, "stop")
        h = self._cf(cf)
        self._lib.rocksdb_compact_range_cf(self._live(), h, s, 0 if s is None else len(s),
                                           e, 0 if e is None else len(e))

    def flush(self, cf=None, wait=True):
        """Writes the family's memtable to a table file."""
        h = self._cf(cf)
        lib = self._lib
        fo = lib.rocksdb_flushoptions_create()
        try:
            lib.rocksdb_flushoptions_set_wait(fo, 1 if wait else 0)
            err = _err()
            lib.rocksdb_flush_cf(self._live(), fo, h, ctypes.byref(err))
            check(lib, err, "flush")
        finally:
            lib.rocksdb_flushoptions_destroy(fo)
