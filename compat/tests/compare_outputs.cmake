# Runs STRATA_PROGRAM and ROCKSDB_PROGRAM, each on a fresh directory under
# WORK_DIR, and fails unless both succeed with byte-identical stdout.
# With ROCKSDB_PROGRAM empty (no RocksDB installed) only STRATA_PROGRAM
# runs, and must succeed.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
if(ROCKSDB_PROGRAM STREQUAL "")
  execute_process(COMMAND ${STRATA_PROGRAM} ${WORK_DIR}/strata_db
                  OUTPUT_VARIABLE strata_out ERROR_VARIABLE strata_err RESULT_VARIABLE strata_rc)
  if(NOT strata_rc EQUAL 0)
    message(FATAL_ERROR "Strata build failed (${strata_rc}):\n${strata_out}\n${strata_err}")
  endif()
  message(STATUS "no RocksDB build to compare with; Strata's ran")
  file(REMOVE_RECURSE ${WORK_DIR}/strata_db)
  return()
endif()
execute_process(COMMAND ${ROCKSDB_PROGRAM} ${WORK_DIR}/rocksdb_db
                OUTPUT_VARIABLE rocksdb_out ERROR_VARIABLE rocksdb_err RESULT_VARIABLE rocksdb_rc)
execute_process(COMMAND ${STRATA_PROGRAM} ${WORK_DIR}/strata_db
                OUTPUT_VARIABLE strata_out ERROR_VARIABLE strata_err RESULT_VARIABLE strata_rc)
file(WRITE ${WORK_DIR}/rocksdb.out "${rocksdb_out}")
file(WRITE ${WORK_DIR}/strata.out "${strata_out}")
if(NOT rocksdb_rc EQUAL 0)
  message(FATAL_ERROR "RocksDB build failed (${rocksdb_rc}):\n${rocksdb_out}\n${rocksdb_err}")
endif()
if(NOT strata_rc EQUAL 0)
  message(FATAL_ERROR "Strata build failed (${strata_rc}):\n${strata_out}\n${strata_err}")
endif()
if(NOT rocksdb_out STREQUAL strata_out)
  execute_process(COMMAND diff -u ${WORK_DIR}/rocksdb.out ${WORK_DIR}/strata.out)
  message(FATAL_ERROR "outputs differ (rocksdb.out vs strata.out in ${WORK_DIR})")
endif()
string(LENGTH "${strata_out}" n)
message(STATUS "identical outputs (${n} bytes)")
file(REMOVE_RECURSE ${WORK_DIR}/rocksdb_db ${WORK_DIR}/strata_db)
