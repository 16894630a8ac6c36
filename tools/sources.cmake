# tools/: db_bench and friends.
