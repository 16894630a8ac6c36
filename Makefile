# The README's commands. Each first installs missing Debian packages.
#   make bench          Release build + a quick db_bench run on a temp dir
#   make check          build + every test through CTest
#   make check-quick    build + the tests not labelled slow (ctest -LE slow)
#   make bench-compare  our db_bench vs db_bench_leveldb vs /usr/bin/db_bench
#   make check-asan     the tests under ASan+UBSan
#   make check-clang    everything built by clang with -Wthread-safety -Werror, quick tests run
#   make check-tsan     the tests under TSan (check-tsan-concurrency: the concurrency tests only)
#   make crashtest      db_stress killed and verified (CRASHTEST_SECONDS, default 600)
#   make fuzz           every libFuzzer target (clang) for FUZZ_SECONDS each
#   make install PREFIX=/dir   libstrata and libstrata-rocksdb (.a, .so), headers, strata.pc,
#                       strata-rocksdb.pc, CMake packages Strata and StrataRocksDB
.PHONY: all deps build release check check-quick check-clang bench bench-compare check-asan check-tsan check-tsan-concurrency crashtest fuzz install clean

PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
CMAKE_GEN := -G Ninja
CTEST_ARGS ?=

all: build

deps:
	@scripts/install-deps.sh

build: deps
	cmake -S . -B build $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build build -j $(JOBS)

release: deps
	cmake -S . -B build-release $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release \
	  -DSTRATA_BUILD_TESTS=OFF >/dev/null
	cmake --build build-release -j $(JOBS)

check: build
	cd build && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

check-quick: build
	cd build && ctest --output-on-failure -j $(JOBS) -LE slow $(CTEST_ARGS)

bench: release
	scripts/bench.sh build-release

bench-compare: release
	scripts/bench_compare.sh build-release

# Debug (-O0, assertions on) with line tables only: -g1 is enough for
# symbolized reports and far cheaper to build than full debug information.
SAN_FLAGS := -g1
check-asan: deps
	cmake -S . -B build-asan $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DSTRATA_SANITIZE=asan \
	  -DSTRATA_BUILD_BENCH=OFF "-DCMAKE_CXX_FLAGS_DEBUG=$(SAN_FLAGS)" \
	  "-DCMAKE_C_FLAGS_DEBUG=$(SAN_FLAGS)" >/dev/null
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The lock discipline checked by the compiler (DESIGN.md section 5): clang
# with -Wthread-safety (CMakeLists.txt adds it for clang) and -Werror, every
# target; then the quick tests of that build.
# No debug information and -O1: the analysis is the compiler's front end, and
# CI's time goes to code generation otherwise.
CLANG_FLAGS := -O1 -DNDEBUG
check-clang: deps
	cmake -S . -B build-clang $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DSTRATA_BUILD_BENCH=OFF -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$(CLANG_FLAGS)" \
	  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$(CLANG_FLAGS)" >/dev/null
	cmake --build build-clang -j $(JOBS)
	cd build-clang && ctest --output-on-failure -j $(JOBS) -LE slow $(CTEST_ARGS)

check-tsan: deps
	cmake -S . -B build-tsan $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DSTRATA_SANITIZE=tsan -DSTRATA_BUILD_BENCH=OFF -DCMAKE_C_COMPILER=clang \
	  -DCMAKE_CXX_COMPILER=clang++ >/dev/null
	cmake --build build-tsan -j $(JOBS)
	cd build-tsan && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

CRASHTEST_SECONDS ?= 600
crashtest: release
	scripts/crashtest.sh build-release $(CRASHTEST_SECONDS)

FUZZ_SECONDS ?= 60
fuzz: deps
	cmake -S . -B build-fuzz $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DSTRATA_SANITIZE=asan -DSTRATA_BUILD_BENCH=OFF -DSTRATA_BUILD_TESTS=OFF \
	  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
	cmake --build build-fuzz -j $(JOBS) --target strata_fuzzers
	scripts/fuzz.sh build-fuzz $(FUZZ_SECONDS)

# The concurrency tests under TSan, for CI: only these targets are built.
TSAN_TESTS ?= write_thread_test inline_skiplist_test btree_index_test lru_cache_test thread_pool_test \
  memtable_test db_concurrency_test db_compaction_test column_family_test \
  db_error_handler_test sync_point_test db_compaction_race_test db_options_test \
  checkpoint_test db_wal_tailing_test point_lock_manager_test transaction_test \
  optimistic_transaction_test transaction_lock_test transaction_model_test \
  write_buffer_manager_test clock_cache_test db_memory_test rate_limiter_test \
  sst_file_manager_test db_paced_io_test write_throttle_test db_write_throttle_test
empty :=
space := $(empty) $(empty)
check-tsan-concurrency: deps
	cmake -S . -B build-tsan $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DSTRATA_SANITIZE=tsan -DSTRATA_BUILD_BENCH=OFF -DCMAKE_C_COMPILER=clang \
	  -DCMAKE_CXX_COMPILER=clang++ >/dev/null
	cmake --build build-tsan -j $(JOBS) --target $(TSAN_TESTS)
	cd build-tsan && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j $(JOBS) \
	  -R '^($(subst $(space),|,$(strip $(TSAN_TESTS))))$$'

install: release
	cmake --install build-release --prefix $(PREFIX)

clean:
	rm -rf build build-release build-asan build-tsan build-fuzz build-clang
