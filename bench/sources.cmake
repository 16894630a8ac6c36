# bench/: Google Benchmark micro-benchmarks of hot internals. Included by the
# top-level CMakeLists.txt after find_package(benchmark) succeeded. Run them
# from a Release build (-DCMAKE_BUILD_TYPE=Release).

# strata_bench(<source>): one executable per file, named after it.
function(strata_bench bench_src)
  if(NOT EXISTS ${CMAKE_SOURCE_DIR}/${bench_src})
    return()
  endif()
  get_filename_component(bench_name ${bench_src} NAME_WE)
  add_executable(${bench_name} ${bench_src})
  target_link_libraries(${bench_name} PRIVATE strata benchmark::benchmark)
endfunction()

strata_bench(bench/coding_bench.cc)
strata_bench(bench/crc32c_bench.cc)
if(EXISTS ${CMAKE_SOURCE_DIR}/bench/skiplist_bench.cc)
  strata_bench(bench/skiplist_bench.cc)
endif()
strata_bench(bench/memtable_index_bench.cc)
strata_bench(bench/table_bench.cc)
strata_bench(bench/cache_bench.cc)
# The lock manager is internal (not in include/strata/): linked from its own
# layer, so the benchmark does not need the whole library built.
if(EXISTS ${CMAKE_SOURCE_DIR}/bench/lock_manager_bench.cc)
  add_executable(lock_manager_bench bench/lock_manager_bench.cc)
  target_link_libraries(lock_manager_bench PRIVATE strata_transaction_lock benchmark::benchmark)
endif()
