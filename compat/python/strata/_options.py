"""The DB options this module accepts, and how each becomes C API calls.

Every keyword of DB(path, **options) is listed in OPTIONS; an unknown name,
or a value of the wrong kind, is refused with InvalidArgument naming it, so
no option is silently ignored.

Ownership: Options owns the rocksdb_options_t and releases it in close().
The block cache and the block-based table options are only borrowed by the
C options (it copies them), so they are released as soon as they are set;
the filter policy is handed over to the table options, which own it.
"""

from strata.errors import InvalidArgument

COMPRESSION = {
    "none": 0,
    "snappy": 1,
    "zlib": 2,
    "bz2": 3,
    "lz4": 4,
    "lz4hc": 5,
    "xpress": 6,
    "zstd": 7,
}

MERGE_OPERATORS = ("uint64add",)


def _bool(name, v):
    if not isinstance(v, bool):
        raise InvalidArgument("option %s must be True or False, not %r" % (name, v))
    return 1 if v else 0


def _int(name, v, lo, hi):
    if isinstance(v, bool) or not isinstance(v, int):
        raise InvalidArgument("option %s must be an integer, not %r" % (name, v))
    if v < lo or v > hi:
        raise InvalidArgument("option %s=%d is out of range [%d, %d]" % (name, v, lo, hi))
    return v


def _compression(name, v):
    if v is None:
        v = "none"
    if not isinstance(v, str) or v.lower() not in COMPRESSION:
        raise InvalidArgument(
            "option %s=%r is not one of %s" % (name, v, ", ".join(sorted(COMPRESSION)))
        )
    return COMPRESSION[v.lower()]


_INT_MAX = 2**31 - 1
_SIZE_MAX = 2**64 - 1

# name -> (C setter or None when handled by hand, converter)
OPTIONS = {
    "create_if_missing": ("rocksdb_options_set_create_if_missing", _bool),
    "create_missing_column_families": (
        "rocksdb_options_set_create_missing_column_families",
        _bool,
    ),
    "error_if_exists": ("rocksdb_options_set_error_if_exists", _bool),
    "paranoid_checks": ("rocksdb_options_set_paranoid_checks", _bool),
    "compression": ("rocksdb_options_set_compression", _compression),
    "bottommost_compression": ("rocksdb_options_set_bottommost_compression", _compression),
    "write_buffer_size": (
        "rocksdb_options_set_write_buffer_size",
        lambda n, v: _int(n, v, 1, _SIZE_MAX),
    ),
    "max_write_buffer_number": (
        "rocksdb_options_set_max_write_buffer_number",
        lambda n, v: _int(n, v, 1, _INT_MAX),
    ),
    "max_open_files": (
        "rocksdb_options_set_max_open_files",
        lambda n, v: _int(n, v, -1, _INT_MAX),
    ),
    "max_background_jobs": (
        "rocksdb_options_set_max_background_jobs",
        lambda n, v: _int(n, v, 1, _INT_MAX),
    ),
    "increase_parallelism": (
        "rocksdb_options_increase_parallelism",
        lambda n, v: _int(n, v, 1, _INT_MAX),
    ),
    "target_file_size_base": (
        "rocksdb_options_set_target_file_size_base",
        lambda n, v: _int(n, v, 1, _SIZE_MAX),
    ),
    "max_bytes_for_level_base": (
        "rocksdb_options_set_max_bytes_for_level_base",
        lambda n, v: _int(n, v, 1, _SIZE_MAX),
    ),
    "level0_file_num_compaction_trigger": (
        "rocksdb_options_set_level0_file_num_compaction_trigger",
        lambda n, v: _int(n, v, 1, _INT_MAX),
    ),
    "num_levels": ("rocksdb_options_set_num_levels", lambda n, v: _int(n, v, 1, 64)),
    # Table options: applied together through one block-based table factory.
    "block_cache_size": (None, lambda n, v: _int(n, v, 0, _SIZE_MAX)),
    "block_size": (None, lambda n, v: _int(n, v, 1, _INT_MAX)),
    "bloom_bits": (None, None),
    "cache_index_and_filter_blocks": (None, _bool),
    "format_version": (None, lambda n, v: _int(n, v, 0, 5)),
    "merge_operator": (None, None),
}

_TABLE_OPTIONS = (
    "block_cache_size",
    "block_size",
    "bloom_bits",
    "cache_index_and_filter_blocks",
    "format_version",
)


def _bloom_bits(v):
    if v is None or v == 0:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not (0 < v <= 100):
        raise InvalidArgument(
            "option bloom_bits=%r must be a number of bits per key in (0, 100], or None" % (v,)
        )
    return float(v)


def _merge_operator(v):
    if v is None:
        return None
    if v not in MERGE_OPERATORS:
        raise InvalidArgument(
            "option merge_operator=%r: the merge operators that can be chosen by "
            "name are %s (or None)" % (v, ", ".join(MERGE_OPERATORS))
        )
    return v


def validate(options):
    """Checks every name and value; returns the converted values by name."""
    out = {}
    for name, value in options.items():
        if name not in OPTIONS:
            raise InvalidArgument(
                "unknown option %r; the options accepted are: %s"
                % (name, ", ".join(sorted(OPTIONS)))
            )
        setter, conv = OPTIONS[name]
        if name == "bloom_bits":
            out[name] = _bloom_bits(value)
        elif name == "merge_operator":
            out[name] = _merge_operator(value)
        else:
            out[name] = conv(name, value)
    return out


class Options:
    """A rocksdb_options_t built from validated keyword options."""

    def __init__(self, lib, options):
        values = validate(options)
        self._lib = lib
        self.merge_operator = values.get("merge_operator")
        self.ptr = lib.rocksdb_options_create()
        if not self.ptr:
            raise MemoryError("rocksdb_options_create returned NULL")
        try:
            for name, value in values.items():
                setter = OPTIONS[name][0]
                if setter is not None:
                    getattr(lib, setter)(self.ptr, value)
            if self.merge_operator == "uint64add":
                lib.rocksdb_options_set_uint64add_merge_operator(self.ptr)
            if any(n in values for n in _TABLE_OPTIONS):
                self._set_table_options(values)
        except BaseException:
            self.close()
            raise

    def _set_table_options(self, values):
        lib = self._lib
        bbto = lib.rocksdb_block_based_options_create()
        try:
            if "block_cache_size" in values:
                size = values["block_cache_size"]
                if size == 0:
                    lib.rocksdb_block_based_options_set_no_block_cache(bbto, 1)
                else:
                    cache = lib.rocksdb_cache_create_lru(size)
                    lib.rocksdb_block_based_options_set_block_cache(bbto, cache)
                    # The table options hold their own reference.
                    lib.rocksdb_cache_destroy(cache)
            if "block_size" in values:
                lib.rocksdb_block_based_options_set_block_size(bbto, values["block_size"])
            if values.get("bloom_bits") is not None:
                policy = lib.rocksdb_filterpolicy_create_bloom_full(values["bloom_bits"])
                # Ownership passes to the table options.
                lib.rocksdb_block_based_options_set_filter_policy(bbto, policy)
            if "cache_index_and_filter_blocks" in values:
                lib.rocksdb_block_based_options_set_cache_index_and_filter_blocks(
                    bbto, values["cache_index_and_filter_blocks"]
                )
            if "format_version" in values:
                lib.rocksdb_block_based_options_set_format_version(bbto, values["format_version"])
            lib.rocksdb_options_set_block_based_table_factory(self.ptr, bbto)
        finally:
            lib.rocksdb_block_based_options_destroy(bbto)

    def close(self):
        if self.ptr:
            self._lib.rocksdb_options_destroy(self.ptr)
            self.ptr = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
