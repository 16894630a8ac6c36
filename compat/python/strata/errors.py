"""Exceptions: one class per status code of the C API, all under Error.

A C function reports failure through ``char** errptr``: a malloc()ed string
that begins with the status code's text ("Invalid argument: ...", "IO error:
..."). check() turns it into the matching exception and frees the string
with rocksdb_free. A key that is not found is not an error: get() returns
None.
"""

import ctypes


class Error(Exception):
    """Any failure reported by the library or refused by this module.

    ``code`` is the status code's name ("InvalidArgument", "IOError", ...)
    and ``message`` the text after the code's prefix.
    """

    code = "Error"

    def __init__(self, message):
        super().__init__(message)
        self.message = message


class NotFound(Error):
    code = "NotFound"


class Corruption(Error):
    code = "Corruption"


class NotSupported(Error):
    code = "NotSupported"


class InvalidArgument(Error, ValueError):
    code = "InvalidArgument"


class IOError(Error, OSError):  # noqa: A001 - RocksDB's name for the code
    code = "IOError"

    def __init__(self, message):
        Error.__init__(self, message)

    def __str__(self):
        return self.message


class MergeInProgress(Error):
    code = "MergeInProgress"


class Incomplete(Error):
    code = "Incomplete"


class ShutdownInProgress(Error):
    code = "ShutdownInProgress"


class TimedOut(Error):
    code = "TimedOut"


class Aborted(Error):
    code = "Aborted"


class Busy(Error):
    code = "Busy"


class Expired(Error):
    code = "Expired"


class TryAgain(Error):
    code = "TryAgain"


class CompactionTooLarge(Error):
    code = "CompactionTooLarge"


class ColumnFamilyDropped(Error):
    code = "ColumnFamilyDropped"


# The prefixes Status::ToString() writes before the message.
_PREFIXES = (
    ("NotFound: ", NotFound),
    ("Corruption: ", Corruption),
    ("Not implemented: ", NotSupported),
    ("Invalid argument: ", InvalidArgument),
    ("IO error: ", IOError),
    ("Merge in progress: ", MergeInProgress),
    ("Result incomplete: ", Incomplete),
    ("Shutdown in progress: ", ShutdownInProgress),
    ("Operation timed out: ", TimedOut),
    ("Operation aborted: ", Aborted),
    ("Resource busy: ", Busy),
    ("Operation expired: ", Expired),
    ("Operation failed. Try again.: ", TryAgain),
    ("Compaction too large: ", CompactionTooLarge),
    ("Column family dropped: ", ColumnFamilyDropped),
)


def from_status_string(text):
    """The exception for a status string as the C API reports it."""
    for prefix, cls in _PREFIXES:
        if text.startswith(prefix):
            return cls(text)
    return Error(text)


def check(lib, errptr, context=None):
    """Raises the error stored in ``errptr`` (a c_void_p), freeing it first.

    ``context`` (e.g. "put", "open /tmp/db") is prefixed to the message so
    the exception says what was being done.
    """
    if not errptr.value:
        return
    try:
        text = ctypes.string_at(errptr.value).decode("utf-8", "replace")
    finally:
        lib.rocksdb_free(errptr.value)
        errptr.value = None
    exc = from_status_string(text)
    if context:
        exc.args = ("%s: %s" % (context, text),)
        exc.message = exc.args[0]
    raise exc
