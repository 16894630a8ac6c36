# bench/: Google Benchmark micro-benchmarks.
