# utilities/: features built on the public DB API.
include(utilities/merge_operators/sources.cmake OPTIONAL)
include(utilities/write_batch_with_index/sources.cmake OPTIONAL)
include(utilities/backup/sources.cmake OPTIONAL)
include(utilities/checkpoint/sources.cmake OPTIONAL)
include(utilities/ttl/sources.cmake OPTIONAL)
include(utilities/table_properties_collectors/sources.cmake OPTIONAL)
include(utilities/transactions/lock/sources.cmake OPTIONAL)
include(utilities/transactions/sources.cmake OPTIONAL)
