# env/: file systems, clock, info log.
list(APPEND STRATA_SOURCES
)
list(APPEND STRATA_TESTS
)
