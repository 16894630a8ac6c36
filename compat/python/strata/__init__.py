"""strata: a Python module for the Strata key-value store.

It calls RocksDB 7.8.3's C API (``rocksdb/c.h``) through ctypes, in
``libstrata-rocksdb.so`` (see strata._lib for where it is looked for; the
environment variable STRATA_ROCKSDB_LIBRARY overrides). No compiled
extension is involved.

    import strata
    with strata.DB("/tmp/example", compression="lz4", bloom_bits=10) as db:
        db.put(b"k", b"v")
        assert db.get(b"k") == b"v"
        with db.write_batch() as b:
            b.put(b"a", b"1")
            b.delete(b"k")
        for key, value in db.iterator(prefix=b"a"):
            print(key, value)

Errors are strata.Error subclasses named after RocksDB's status codes
(InvalidArgument, IOError, Corruption, NotSupported, ...). A missing key
is not an error: get() returns None.
"""

from strata._lib import library_path
from strata._options import COMPRESSION, MERGE_OPERATORS, OPTIONS
from strata.db import (
    DB,
    ColumnFamily,
    Iterator,
    RawIterator,
    Snapshot,
    WriteBatch,
    destroy,
    list_column_families,
    repair,
)
from strata.errors import (
    Aborted,
    Busy,
    ColumnFamilyDropped,
    CompactionTooLarge,
    Corruption,
    Error,
    Expired,
    Incomplete,
    InvalidArgument,
    IOError,
    MergeInProgress,
    NotFound,
    NotSupported,
    ShutdownInProgress,
    TimedOut,
    TryAgain,
)

__version__ = "0.1.0"

__all__ = [
    "DB",
    "ColumnFamily",
    "Iterator",
    "RawIterator",
    "Snapshot",
    "WriteBatch",
    "destroy",
    "repair",
    "list_column_families",
    "library_path",
    "COMPRESSION",
    "MERGE_OPERATORS",
    "OPTIONS",
    "Error",
    "NotFound",
    "Corruption",
    "NotSupported",
    "InvalidArgument",
    "IOError",
    "MergeInProgress",
    "Incomplete",
    "ShutdownInProgress",
    "TimedOut",
    "Aborted",
    "Busy",
    "Expired",
    "TryAgain",
    "CompactionTooLarge",
    "ColumnFamilyDropped",
]
