# tools/ldb/ + tools/sst_dump_tool.cc: the `strata` (ldb) and `sst_dump`
# tools as a layer of libstrata, so their public entry points
# (strata/utilities/ldb_tool.h: LDBTool, RunLDBTool;
# strata/utilities/sst_dump_tool.h: SSTDumpTool) serve the binaries, tests
# and RocksDB's LDBTool / SSTDumpTool in libstrata-rocksdb alike. Included
# before libstrata is assembled (CMakeLists.txt), whether or not the
# binaries are built. tools/ code may use internal headers.
strata_layer(tools
  SOURCES
    tools/ldb/ldb_args.cc
    tools/ldb/ldb_open.cc
    tools/ldb/ldb_command.cc
    tools/ldb/ldb_manifest.cc
    tools/ldb/ldb_file_dump.cc
    tools/ldb/ldb_data_commands.cc
    tools/ldb/ldb_admin_commands.cc
    tools/ldb/ldb_file_commands.cc
    tools/ldb/ldb_histogram.cc
    tools/ldb/ldb_edit_text.cc
    tools/ldb/ldb_ingest_commands.cc
    tools/ldb/ldb_options_file.cc
    tools/ldb/ldb_table_view.cc
    tools/ldb/ldb_internal_commands.cc
    tools/ldb/ldb_backup_commands.cc
    tools/ldb/ldb_tool.cc
    tools/sst_dump_tool.cc
  DEPS db ttl backup checkpoint merge_operators util
)
if(TARGET strata_tools_obj)
  target_compile_definitions(strata_tools_obj PRIVATE STRATA_VERSION_STRING="${PROJECT_VERSION}")
endif()
