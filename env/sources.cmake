# env/: file systems (POSIX, in-memory), clock, Env with thread pools, info log.
strata_layer(env
  SOURCES
    env/env.cc
    env/fault_injection_fs.cc
    env/auto_roll_logger.cc
    env/info_log.cc
    env/mem_file_system.cc
    env/posix_file_system.cc
    env/system_clock.cc
    # paced I/O (issue 19)
    env/rate_limiter.cc
    env/paced_writable_file.cc
    env/sst_file_manager_impl.cc
    env/checksumming_writable_file.cc
  DEPS util
)
strata_tests(env
  env/env_test.cc
  env/mem_file_system_test.cc
  env/posix_file_system_test.cc
  env/posix_direct_io_test.cc
  env/fault_injection_fs_test.cc
  env/auto_roll_logger_test.cc
  env/rate_limiter_test.cc
  env/paced_writable_file_test.cc
  env/sst_file_manager_test.cc
  env/checksumming_writable_file_test.cc
)
