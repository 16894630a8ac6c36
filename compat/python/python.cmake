# The Python module (compat/python/strata): install rules and its pytest
# suite. Included from the top-level CMakeLists.txt; nothing is compiled.
#
# Interpreter: STRATA_PYTHON3, by default Debian's /usr/bin/python3 (where
# python3-pytest installs pytest) rather than whatever python3 comes first
# on PATH (a pyenv shim, say, which has neither pytest nor Debian's
# dist-packages on its path).
#
# Install: the package goes to the Python site folder of the install prefix
# as Debian's interpreter sees it -- <prefix>/lib/python3/dist-packages for
# /usr, <prefix>/lib/python3.X/dist-packages otherwise (both on
# /usr/bin/python3's sys.path for /usr and /usr/local); set
# STRATA_PYTHON_SITE_DIR to choose another (relative to the prefix, or
# absolute). strata/_install_config.py records <prefix>/<libdir>, where the
# module looks for libstrata-rocksdb.so.
#
# Test: python_module_test runs `python3 -m pytest compat/python/tests` with
# STRATA_ROCKSDB_LIBRARY set to libstrata-rocksdb.so when the strata-rocksdb
# target exists, otherwise to the system's RocksDB (librocksdb.so.7.8, the
# same C API). python_install_test installs the component "python" into a
# scratch prefix and imports it from there.

include(GNUInstallDirs)

set(_strata_py_default_python3 python3)
if(EXISTS /usr/bin/python3)
  set(_strata_py_default_python3 /usr/bin/python3)
endif()
set(STRATA_PYTHON3 "${_strata_py_default_python3}" CACHE FILEPATH
    "Python 3 interpreter for the module's tests and for choosing its install folder")
set(STRATA_PYTHON_SITE_DIR "" CACHE STRING
    "Where `install` puts the strata Python package (default: the prefix's site folder)")

set(_strata_py_site_rel "")
execute_process(
  COMMAND ${STRATA_PYTHON3} -c
    "import sys, sysconfig; v = '%d.%d' % sys.version_info[:2]; kind = 'dist-packages' if sysconfig.get_path('purelib').endswith('dist-packages') else 'site-packages'; print('lib/python%s/%s' % (v, kind), end='')"
  OUTPUT_VARIABLE _strata_py_site_rel
  RESULT_VARIABLE _strata_py_rc
  ERROR_QUIET)
if(NOT _strata_py_rc EQUAL 0 OR _strata_py_site_rel STREQUAL "")
  message(STATUS "Python module: ${STRATA_PYTHON3} not usable; installing to lib/python3/dist-packages")
  set(_strata_py_site_rel "lib/python3/dist-packages")
endif()

# ---- install (component "python") ----
# Done in install(CODE) because the folder depends on the prefix given at
# install time (`cmake --install build --prefix /usr` versus /usr/local).
set(_strata_py_src "${CMAKE_CURRENT_LIST_DIR}/strata")
install(CODE "
  set(_prefix \"\${CMAKE_INSTALL_PREFIX}\")
  set(_site_dir \"${STRATA_PYTHON_SITE_DIR}\")
  if(_site_dir STREQUAL \"\")
    if(_prefix STREQUAL \"/usr\")
      set(_site_dir \"lib/python3/dist-packages\")
    else()
      set(_site_dir \"${_strata_py_site_rel}\")
    endif()
  endif()
  if(NOT IS_ABSOLUTE \"\${_site_dir}\")
    set(_site_dir \"\${_prefix}/\${_site_dir}\")
  endif()
  set(_libdir \"${CMAKE_INSTALL_LIBDIR}\")
  if(NOT IS_ABSOLUTE \"\${_libdir}\")
    set(_libdir \"\${_prefix}/\${_libdir}\")
  endif()
  file(INSTALL DESTINATION \"\${_site_dir}\" TYPE DIRECTORY
       FILES \"${_strata_py_src}\"
       PATTERN __pycache__ EXCLUDE
       PATTERN _install_config.py EXCLUDE)
  message(STATUS \"Installing: \$ENV{DESTDIR}\${_site_dir}/strata/_install_config.py\")
  file(WRITE \"\$ENV{DESTDIR}\${_site_dir}/strata/_install_config.py\"
\"# Written by the install step: where the install put libstrata-rocksdb.so.
LIBDIR = \\\"\${_libdir}\\\"
\")
" COMPONENT python)

# ---- tests ----
function(strata_python_tests)
  if(NOT STRATA_BUILD_TESTS)
    return()
  endif()
  if(TARGET strata-rocksdb)
    if(NOT STRATA_SANITIZE STREQUAL "")
      # An instrumented library cannot be loaded into an uninstrumented
      # interpreter.
      message(STATUS "Python module tests: not run in a sanitizer build")
      return()
    endif()
    set(lib "$<TARGET_FILE:strata-rocksdb>")
    set(what "libstrata-rocksdb")
  else()
    find_library(STRATA_PY_SYSTEM_ROCKSDB NAMES librocksdb.so.7.8 librocksdb.so.7 rocksdb)
    if(NOT STRATA_PY_SYSTEM_ROCKSDB)
      message(STATUS "Python module tests: neither strata-rocksdb nor a system librocksdb; not run")
      return()
    endif()
    set(lib "${STRATA_PY_SYSTEM_ROCKSDB}")
    set(what "${STRATA_PY_SYSTEM_ROCKSDB}")
  endif()
  message(STATUS "Python module tests: ${STRATA_PYTHON3} -m pytest against ${what}")
  set(src "${CMAKE_SOURCE_DIR}/compat/python")
  add_test(NAME python_module_test
           COMMAND ${STRATA_PYTHON3} -m pytest -q -p no:cacheprovider
                   --basetemp=${CMAKE_BINARY_DIR}/python_module_test.tmp ${src}/tests
           WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
  set_tests_properties(python_module_test PROPERTIES
    LABELS "compat;slow" TIMEOUT 600
    ENVIRONMENT "STRATA_ROCKSDB_LIBRARY=${lib};PYTHONDONTWRITEBYTECODE=1")
  add_test(NAME python_install_test
           COMMAND ${src}/test_install.sh ${CMAKE_BINARY_DIR} ${STRATA_PYTHON3} ${lib})
  set_tests_properties(python_install_test PROPERTIES LABELS compat TIMEOUT 120)
endfunction()

# Deferred to the end of the top-level directory so that the strata-rocksdb
# target is seen wherever it is defined.
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL strata_python_tests)
