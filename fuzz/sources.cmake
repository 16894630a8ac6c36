# fuzz/: fuzz targets, one executable per fuzz/<name>_fuzzer.cc, and the
# custom target `strata_fuzzers` that builds them all (make fuzz).
#
# Engine: with clang, when -fsanitize=fuzzer links, the targets are libFuzzer
# programs (plus whatever STRATA_SANITIZE adds) and link a copy of the
# library compiled with -fsanitize=fuzzer-no-link, so coverage guides the
# fuzzer through Strata's own code. Otherwise (g++, or clang without the
# libFuzzer runtime: Debian package libclang-rt-<ver>-dev / libfuzzer-<ver>-dev)
# each target links fuzz/standalone_main.cc, which replays the corpus and
# then mutates it at random for -max_total_time seconds.
# -DSTRATA_BUILD_FUZZ=OFF leaves the fuzz targets out of the build.
#
# With STRATA_BUILD_TESTS, CTest gets one test per target (label fuzz): ~3 s
# over its seed corpus fuzz/corpus/<name>/ (seed 1); and one per target that
# has fuzz/regressions/<name>/ files: a replay of the inputs that once found
# a bug (some fail only under ASan when the bug is back).
option(STRATA_BUILD_FUZZ "Build the fuzz targets (fuzz/)" ON)
if(NOT STRATA_BUILD_FUZZ)
  return()
endif()

set(STRATA_FUZZ_TARGETS
  varint
  write_batch
  log_reader
  block
  table_reader
  version_edit
  db_ops
)

set(STRATA_FUZZ_ENGINE standalone)
# libFuzzer pairs with ASan/UBSan (or no sanitizer), not with TSan.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND NOT STRATA_SANITIZE STREQUAL "tsan")
  include(CheckCXXSourceCompiles)
  set(_fuzz_saved_flags "${CMAKE_REQUIRED_FLAGS}")
  set(_fuzz_saved_link "${CMAKE_REQUIRED_LINK_OPTIONS}")
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
  set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer")
  check_cxx_source_compiles([=[
#include <cstddef>
#include <cstdint>
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return size > 0 && data[0] == 'x' ? 1 : 0;
}
]=] STRATA_HAVE_LIBFUZZER)
  set(CMAKE_REQUIRED_FLAGS "${_fuzz_saved_flags}")
  set(CMAKE_REQUIRED_LINK_OPTIONS "${_fuzz_saved_link}")
  if(STRATA_HAVE_LIBFUZZER)
    set(STRATA_FUZZ_ENGINE libfuzzer)
  else()
    message(STATUS "clang without libFuzzer (install libclang-rt-dev / libfuzzer-dev): "
                   "fuzz targets use the standalone driver")
  endif()
endif()
message(STATUS "Fuzz engine: ${STRATA_FUZZ_ENGINE}")

set(STRATA_FUZZ_BIN_DIR ${CMAKE_BINARY_DIR}/fuzz)
file(MAKE_DIRECTORY ${STRATA_FUZZ_BIN_DIR})
# scripts/fuzz.sh reads the engine from here.
file(WRITE ${STRATA_FUZZ_BIN_DIR}/engine.txt "${STRATA_FUZZ_ENGINE}\n")

if(STRATA_FUZZ_ENGINE STREQUAL "libfuzzer")
  # The library again, with coverage instrumentation for the fuzzer.
  set(_fuzz_lib_sources "")
  foreach(layer ${STRATA_LAYERS})
    get_target_property(_layer_sources strata_${layer}_obj SOURCES)
    list(APPEND _fuzz_lib_sources ${_layer_sources})
  endforeach()
  add_library(strata_fuzz_lib STATIC EXCLUDE_FROM_ALL ${_fuzz_lib_sources})
  target_include_directories(strata_fuzz_lib PUBLIC ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR})
  # Thread-safety analysis is a static check the regular builds enforce on
  # these same files; a copy built only for coverage does not repeat it.
  target_compile_options(strata_fuzz_lib PRIVATE -fsanitize=fuzzer-no-link
                         -Wno-thread-safety-analysis)
  target_link_libraries(strata_fuzz_lib PUBLIC ${STRATA_LINK_LIBS})
  # As strata_tools_obj (tools/ldb/sources.cmake): the tools layer prints it.
  target_compile_definitions(strata_fuzz_lib PRIVATE STRATA_VERSION_STRING="${PROJECT_VERSION}")
  set(_fuzz_link strata_fuzz_lib)
else()
  set(_fuzz_link strata)
endif()

add_custom_target(strata_fuzzers)
foreach(name ${STRATA_FUZZ_TARGETS})
  set(target ${name}_fuzzer)
  if(STRATA_FUZZ_ENGINE STREQUAL "libfuzzer")
    add_executable(${target} fuzz/${target}.cc)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer)
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  else()
    add_executable(${target} fuzz/${target}.cc fuzz/standalone_main.cc)
  endif()
  target_include_directories(${target} PRIVATE ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR})
  target_link_libraries(${target} PRIVATE ${_fuzz_link})
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${STRATA_FUZZ_BIN_DIR})
  add_dependencies(strata_fuzzers ${target})

  if(STRATA_BUILD_TESTS)
    # libFuzzer writes new inputs into the first corpus directory: a
    # scratch directory in the build tree, so the repository's corpus is
    # only read.
    set(_scratch ${STRATA_FUZZ_BIN_DIR}/scratch/${name})
    file(MAKE_DIRECTORY ${_scratch})
    if(STRATA_FUZZ_ENGINE STREQUAL "libfuzzer")
      set(_flags -max_total_time=3 -seed=1 -timeout=60 -print_final_stats=0
                 -artifact_prefix=${STRATA_FUZZ_BIN_DIR}/ ${_scratch})
    else()
      set(_flags -max_total_time=3 -seed=1)
    endif()
    add_test(NAME fuzz_${name}
             COMMAND ${target} ${_flags} ${CMAKE_SOURCE_DIR}/fuzz/corpus/${name}
             WORKING_DIRECTORY ${STRATA_FUZZ_BIN_DIR})
    set_tests_properties(fuzz_${name} PROPERTIES LABELS fuzz TIMEOUT 300)
    strata_slow_tests(fuzz_${name})  # time-boxed; the regression replays below are quick
    # Inputs that once found a bug: replayed one by one (each must pass).
    file(GLOB _regressions CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/fuzz/regressions/${name}/*)
    if(_regressions)
      add_test(NAME fuzz_${name}_regressions COMMAND ${target} ${_regressions}
               WORKING_DIRECTORY ${STRATA_FUZZ_BIN_DIR})
      set_tests_properties(fuzz_${name}_regressions PROPERTIES LABELS fuzz TIMEOUT 300)
    endif()
  endif()
endforeach()

# The seed generator (fuzz/make_seeds.cc): writes fuzz/corpus/ from real
# batches, logs, blocks, tables and edits. Built on request only:
#   ninja -C <build> fuzz_make_seeds && <build>/fuzz/fuzz_make_seeds fuzz/corpus
if(EXISTS ${CMAKE_SOURCE_DIR}/fuzz/make_seeds.cc)
  add_executable(fuzz_make_seeds EXCLUDE_FROM_ALL fuzz/make_seeds.cc)
  target_include_directories(fuzz_make_seeds PRIVATE ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR})
  target_link_libraries(fuzz_make_seeds PRIVATE strata)
  set_target_properties(fuzz_make_seeds PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${STRATA_FUZZ_BIN_DIR})
endif()
