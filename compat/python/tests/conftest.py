"""Shared fixtures. The tests import the package from this source tree
(compat/python), not an installed copy, and need the C library: set
STRATA_ROCKSDB_LIBRARY to libstrata-rocksdb.so or to a RocksDB 7.8
librocksdb.so (CTest does). Randomized tests print their seed; set
STRATA_TEST_SEED to replay one."""

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import strata  # noqa: E402


def pytest_configure(config):
    try:
        path = strata.library_path()
    except strata.Error as e:
        pytest.exit("strata tests: %s" % e, returncode=2)
    config.strata_library = path


def pytest_report_header(config):
    return "strata library: %s" % getattr(config, "strata_library", "?")


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "db")


@pytest.fixture
def db(path):
    d = strata.DB(path)
    yield d
    d.close()


@pytest.fixture
def rng(request):
    seed = int(os.environ.get("STRATA_TEST_SEED", random.randrange(1 << 32)))
    print("%s: seed %d (STRATA_TEST_SEED=%d replays it)" % (request.node.name, seed, seed))
    return random.Random(seed)
