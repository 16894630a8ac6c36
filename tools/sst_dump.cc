// sst_dump: inspects table files (SSTs), ours or RocksDB's, with RocksDB's
// sst_dump flags. The tool is strata::SSTDumpTool (tools/sst_dump_tool.cc,
// strata/utilities/sst_dump_tool.h), in libstrata.

#include "strata/utilities/sst_dump_tool.h"

int main(int argc, char** argv) { return strata::SSTDumpTool().Run(argc, argv); }
