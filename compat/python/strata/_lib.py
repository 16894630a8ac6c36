"""Finding and binding the shared library that exports RocksDB's C API.

The module speaks only the C functions of RocksDB 7.8.3's ``rocksdb/c.h``.
Strata ships them in ``libstrata-rocksdb.so``; Debian's ``librocksdb.so.7.8``
exports the same names, which is what the tests use until Strata's library
is built.

Where the library is looked for, first hit wins:

1. the file named by the environment variable ``STRATA_ROCKSDB_LIBRARY``
   (if it is set and cannot be loaded, that is the error: no fallback);
2. ``libstrata-rocksdb.so`` in the package's folder or the folder holding it;
3. ``libstrata-rocksdb.so`` under the install prefix's lib folder: the one
   recorded at install time in ``_install_config.py``, then the prefix
   derived from where the package sits (``<prefix>/lib/pythonX.Y/...``);
4. ``ctypes.util.find_library("strata-rocksdb")``.

The library is loaded on first use, not at import, so ``import strata``
works on a machine where only the package is present.

Thread-safety: load() may be called from several threads; the first caller
loads and binds, the others wait on a lock.
"""

import ctypes
import ctypes.util
import glob
import os
import sys
import threading

LIBRARY_NAME = "libstrata-rocksdb.so"
ENV_VAR = "STRATA_ROCKSDB_LIBRARY"

c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
c_size_t = ctypes.c_size_t
c_int = ctypes.c_int
c_uchar = ctypes.c_ubyte
c_uint32 = ctypes.c_uint32
c_uint64 = ctypes.c_uint64
c_double = ctypes.c_double
p_size_t = ctypes.POINTER(c_size_t)
p_errptr = ctypes.POINTER(c_void_p)  # char** errptr; read as a raw pointer
p_char_p = ctypes.POINTER(c_char_p)
p_void_p = ctypes.POINTER(c_void_p)

# name: (restype, argtypes). Opaque C handles are c_void_p. Functions that
# return malloc()ed memory return c_void_p so the pointer can be handed back
# to rocksdb_free (a c_char_p restype would copy and lose it).
_PROTOTYPES = {
    "rocksdb_free": (None, [c_void_p]),
    # options
    "rocksdb_options_create": (c_void_p, []),
    "rocksdb_options_destroy": (None, [c_void_p]),
    "rocksdb_options_set_create_if_missing": (None, [c_void_p, c_uchar]),
    "rocksdb_options_set_create_missing_column_families": (None, [c_void_p, c_uchar]),
    "rocksdb_options_set_error_if_exists": (None, [c_void_p, c_uchar]),
    "rocksdb_options_set_paranoid_checks": (None, [c_void_p, c_uchar]),
    "rocksdb_options_set_compression": (None, [c_void_p, c_int]),
    "rocksdb_options_set_bottommost_compression": (None, [c_void_p, c_int]),
    "rocksdb_options_set_write_buffer_size": (None, [c_void_p, c_size_t]),
    "rocksdb_options_set_max_write_buffer_number": (None, [c_void_p, c_int]),
    "rocksdb_options_set_max_open_files": (None, [c_void_p, c_int]),
    "rocksdb_options_set_max_background_jobs": (None, [c_void_p, c_int]),
    "rocksdb_options_set_target_file_size_base": (None, [c_void_p, c_uint64]),
    "rocksdb_options_set_max_bytes_for_level_base": (None, [c_void_p, c_uint64]),
    "rocksdb_options_set_level0_file_num_compaction_trigger": (None, [c_void_p, c_int]),
    "rocksdb_options_set_num_levels": (None, [c_void_p, c_int]),
    "rocksdb_options_increase_parallelism": (None, [c_void_p, c_int]),
    "rocksdb_options_set_uint64add_merge_operator": (None, [c_void_p]),
    "rocksdb_options_set_block_based_table_factory": (None, [c_void_p, c_void_p]),
    # block-based table options, caches, filters
    "rocksdb_block_based_options_create": (c_void_p, []),
    "rocksdb_block_based_options_destroy": (None, [c_void_p]),
    "rocksdb_block_based_options_set_block_size": (None, [c_void_p, c_size_t]),
    "rocksdb_block_based_options_set_block_cache": (None, [c_void_p, c_void_p]),
    "rocksdb_block_based_options_set_no_block_cache": (None, [c_void_p, c_uchar]),
    "rocksdb_block_based_options_set_filter_policy": (None, [c_void_p, c_void_p]),
    "rocksdb_block_based_options_set_cache_index_and_filter_blocks": (None, [c_void_p, c_uchar]),
    "rocksdb_block_based_options_set_format_version": (None, [c_void_p, c_int]),
    "rocksdb_cache_create_lru": (c_void_p, [c_size_t]),
    "rocksdb_cache_destroy": (None, [c_void_p]),
    "rocksdb_filterpolicy_create_bloom_full": (c_void_p, [c_double]),
    # read and write options
    "rocksdb_readoptions_create": (c_void_p, []),
    "rocksdb_readoptions_destroy": (None, [c_void_p]),
    "rocksdb_readoptions_set_snapshot": (None, [c_void_p, c_void_p]),
    "rocksdb_readoptions_set_iterate_upper_bound": (None, [c_void_p, c_char_p, c_size_t]),
    "rocksdb_readoptions_set_iterate_lower_bound": (None, [c_void_p, c_char_p, c_size_t]),
    "rocksdb_readoptions_set_verify_checksums": (None, [c_void_p, c_uchar]),
    "rocksdb_readoptions_set_fill_cache": (None, [c_void_p, c_uchar]),
    "rocksdb_writeoptions_create": (c_void_p, []),
    "rocksdb_writeoptions_destroy": (None, [c_void_p]),
    "rocksdb_writeoptions_set_sync": (None, [c_void_p, c_uchar]),
    "rocksdb_writeoptions_disable_WAL": (None, [c_void_p, c_int]),
    "rocksdb_flushoptions_create": (c_void_p, []),
    "rocksdb_flushoptions_destroy": (None, [c_void_p]),
    "rocksdb_flushoptions_set_wait": (None, [c_void_p, c_uchar]),
    # open, close, column families
    "rocksdb_open": (c_void_p, [c_void_p, c_char_p, p_errptr]),
    "rocksdb_open_column_families": (
        c_void_p,
        [c_void_p, c_char_p, c_int, p_char_p, p_void_p, p_void_p, p_errptr],
    ),
    "rocksdb_open_for_read_only_column_families": (
        c_void_p,
        [c_void_p, c_char_p, c_int, p_char_p, p_void_p, p_void_p, c_uchar, p_errptr],
    ),
    "rocksdb_close": (None, [c_void_p]),
    "rocksdb_list_column_families": (c_void_p, [c_void_p, c_char_p, p_size_t, p_errptr]),
    "rocksdb_list_column_families_destroy": (None, [c_void_p, c_size_t]),
    "rocksdb_create_column_family": (c_void_p, [c_void_p, c_void_p, c_char_p, p_errptr]),
    "rocksdb_drop_column_family": (None, [c_void_p, c_void_p, p_errptr]),
    "rocksdb_column_family_handle_destroy": (None, [c_void_p]),
    "rocksdb_column_family_handle_get_id": (c_uint32, [c_void_p]),
    "rocksdb_destroy_db": (None, [c_void_p, c_char_p, p_errptr]),
    "rocksdb_repair_db": (None, [c_void_p, c_char_p, p_errptr]),
    # reads and writes
    "rocksdb_put_cf": (
        None,
        [c_void_p, c_void_p, c_void_p, c_char_p, c_size_t, c_char_p, c_size_t, p_errptr],
    ),
    "rocksdb_delete_cf": (None, [c_void_p, c_void_p, c_void_p, c_char_p, c_size_t, p_errptr]),
    "rocksdb_delete_range_cf": (
        None,
        [c_void_p, c_void_p, c_void_p, c_char_p, c_size_t, c_char_p, c_size_t, p_errptr],
    ),
    "rocksdb_merge_cf": (
        None,
        [c_void_p, c_void_p, c_void_p, c_char_p, c_size_t, c_char_p, c_size_t, p_errptr],
    ),
    "rocksdb_get_cf": (
        c_void_p,
        [c_void_p, c_void_p, c_void_p, c_char_p, c_size_t, p_size_t, p_errptr],
    ),
    "rocksdb_multi_get_cf": (
        None,
        [c_void_p, c_void_p, p_void_p, c_size_t, p_char_p, p_size_t, p_void_p, p_size_t, p_void_p],
    ),
    "rocksdb_write": (None, [c_void_p, c_void_p, c_void_p, p_errptr]),
    "rocksdb_flush_cf": (None, [c_void_p, c_void_p, c_void_p, p_errptr]),
    "rocksdb_compact_range_cf": (None, [c_void_p, c_void_p, c_char_p, c_size_t, c_char_p, c_size_t]),
    "rocksdb_property_value_cf": (c_void_p, [c_void_p, c_void_p, c_char_p]),
    # snapshots
    "rocksdb_create_snapshot": (c_void_p, [c_void_p]),
    "rocksdb_release_snapshot": (None, [c_void_p, c_void_p]),
    # iterators
    "rocksdb_create_iterator_cf": (c_void_p, [c_void_p, c_void_p, c_void_p]),
    "rocksdb_iter_destroy": (None, [c_void_p]),
    "rocksdb_iter_valid": (c_uchar, [c_void_p]),
    "rocksdb_iter_seek_to_first": (None, [c_void_p]),
    "rocksdb_iter_seek_to_last": (None, [c_void_p]),
    "rocksdb_iter_seek": (None, [c_void_p, c_char_p, c_size_t]),
    "rocksdb_iter_seek_for_prev": (None, [c_void_p, c_char_p, c_size_t]),
    "rocksdb_iter_next": (None, [c_void_p]),
    "rocksdb_iter_prev": (None, [c_void_p]),
    "rocksdb_iter_key": (c_void_p, [c_void_p, p_size_t]),
    "rocksdb_iter_value": (c_void_p, [c_void_p, p_size_t]),
    "rocksdb_iter_get_error": (None, [c_void_p, p_errptr]),
    # write batches
    "rocksdb_writebatch_create": (c_void_p, []),
    "rocksdb_writebatch_destroy": (None, [c_void_p]),
    "rocksdb_writebatch_clear": (None, [c_void_p]),
    "rocksdb_writebatch_count": (c_int, [c_void_p]),
    "rocksdb_writebatch_put": (None, [c_void_p, c_char_p, c_size_t, c_char_p, c_size_t]),
    "rocksdb_writebatch_delete": (None, [c_void_p, c_char_p, c_size_t]),
    "rocksdb_writebatch_delete_range": (None, [c_void_p, c_char_p, c_size_t, c_char_p, c_size_t]),
    "rocksdb_writebatch_merge": (None, [c_void_p, c_char_p, c_size_t, c_char_p, c_size_t]),
    "rocksdb_writebatch_put_cf": (None, [c_void_p, c_void_p, c_char_p, c_size_t, c_char_p, c_size_t]),
    "rocksdb_writebatch_delete_cf": (None, [c_void_p, c_void_p, c_char_p, c_size_t]),
    "rocksdb_writebatch_delete_range_cf": (
        None,
        [c_void_p, c_void_p, c_char_p, c_size_t, c_char_p, c_size_t],
    ),
    "rocksdb_writebatch_merge_cf": (None, [c_void_p, c_void_p, c_char_p, c_size_t, c_char_p, c_size_t]),
}


class _Missing:
    """Stands in for a c.h function the loaded library does not export."""

    def __init__(self, name, path):
        self.name = name
        self.path = path

    def __call__(self, *args):
        from strata.errors import NotSupported

        raise NotSupported(
            "Not implemented: %s is not exported by %s" % (self.name, self.path)
        )


class Library:
    """The loaded library with every function of _PROTOTYPES bound."""

    def __init__(self, path, cdll):
        self.path = path
        self.cdll = cdll
        self.missing = []
        for name, (restype, argtypes) in _PROTOTYPES.items():
            try:
                fn = getattr(cdll, name)
            except AttributeError:
                self.missing.append(name)
                setattr(self, name, _Missing(name, path))
                continue
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)
        if "rocksdb_free" in self.missing:
            from strata.errors import Error

            raise Error(
                "%s does not export rocksdb_free: it is not a RocksDB C API library" % path
            )


_lock = threading.Lock()
_loaded = None


def _package_dir():
    return os.path.dirname(os.path.abspath(__file__))


def _prefix_lib_dirs():
    """Lib folders of the install prefix, most specific first."""
    dirs = []
    try:
        from strata import _install_config  # written by `make install`

        dirs.append(_install_config.LIBDIR)
    except ImportError:
        pass
    # <prefix>/lib/pythonX.Y/{site,dist}-packages/strata or
    # <prefix>/lib/python3/dist-packages/strata
    pkg = _package_dir()
    site = os.path.dirname(pkg)
    pyver = os.path.dirname(site)
    libdir = os.path.dirname(pyver)
    if os.path.basename(pyver).startswith("python") and os.path.basename(site) in (
        "site-packages",
        "dist-packages",
    ):
        prefix = os.path.dirname(libdir)
        dirs.append(libdir)
        dirs.append(os.path.join(prefix, "lib64"))
        multiarch = getattr(sys.implementation, "_multiarch", None)
        if multiarch:
            dirs.append(os.path.join(prefix, "lib", multiarch))
    seen = []
    for d in dirs:
        if d not in seen:
            seen.append(d)
    return seen


def candidates():
    """The (description, path) pairs looked at, in order, without loading."""
    out = []
    pkg = _package_dir()
    for d in (pkg, os.path.dirname(pkg)):
        out.append(("next to the package", os.path.join(d, LIBRARY_NAME)))
    for d in _prefix_lib_dirs():
        out.append(("under the install prefix", os.path.join(d, LIBRARY_NAME)))
        # An install may carry only the versioned name.
        for versioned in sorted(glob.glob(os.path.join(d, LIBRARY_NAME + ".*"))):
            out.append(("under the install prefix", versioned))
    return out


def _try_load(path):
    return Library(path, ctypes.CDLL(path))


def load():
    """Returns the bound Library, loading it on the first call.

    Raises strata.Error naming every place looked at when none has it.
    """
    global _loaded
    if _loaded is not None:
        return _loaded
    with _lock:
        if _loaded is not None:
            return _loaded
        from strata.errors import Error

        env = os.environ.get(ENV_VAR)
        if env:
            try:
                _loaded = _try_load(env)
            except OSError as e:
                raise Error("cannot load %s=%s: %s" % (ENV_VAR, env, e)) from None
            return _loaded
        tried = []
        for where, path in candidates():
            if not os.path.exists(path):
                tried.append("%s (%s: no such file)" % (path, where))
                continue
            try:
                _loaded = _try_load(path)
                return _loaded
            except OSError as e:
                tried.append("%s (%s: %s)" % (path, where, e))
        found = ctypes.util.find_library("strata-rocksdb")
        if found:
            try:
                _loaded = _try_load(found)
                return _loaded
            except OSError as e:
                tried.append("%s (find_library: %s)" % (found, e))
        else:
            tried.append('ctypes.util.find_library("strata-rocksdb") (not found)')
        raise Error(
            "cannot find %s; set %s to its path. Looked at:\n  %s"
            % (LIBRARY_NAME, ENV_VAR, "\n  ".join(tried))
        )


def library_path():
    """The path of the library in use (loads it if needed)."""
    return load().path
