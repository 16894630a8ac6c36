// rocksdb/table_properties.h: the properties block of a table file and the
// collectors that add to it. Strata's types are the same types here.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "strata/table_properties.h"

namespace rocksdb {
using TableProperties = ::strata::TableProperties;
using TablePropertiesCollector = ::strata::TablePropertiesCollector;
using TablePropertiesCollectorFactory = ::strata::TablePropertiesCollectorFactory;
}  // namespace rocksdb
