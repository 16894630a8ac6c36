# utilities/merge_operators/: the built-in merge operators (put, uint64add,
# stringappend, max) and the MergeOperators:: factories.
strata_layer(merge_operators
  SOURCES
    utilities/merge_operators/put.cc
    utilities/merge_operators/uint64add.cc
    utilities/merge_operators/string_append.cc
    utilities/merge_operators/max.cc
    utilities/merge_operators/merge_operators.cc
  DEPS util
)
strata_tests(merge_operators utilities/merge_operators/merge_operators_test.cc)
