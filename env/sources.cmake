# env/: file systems (POSIX, in-memory), clock, Env with thread pools, info log.
strata_layer(env
  SOURCES
  DEPS util
)
strata_tests(env
)
